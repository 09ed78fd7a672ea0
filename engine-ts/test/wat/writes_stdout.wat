;; A reactor whose start writes two lines to standard output, the second without its newline until
;; a second write ends it.
(module
  (import "wasi_snapshot_preview1" "fd_write" (func $fd_write (param i32 i32 i32 i32) (result i32)))
  (memory (export "memory") 1)
  ;; iovecs at 0 (ptr 64, len 9: "ready\nste") and 8 (ptr 73, len 4: "ady\n"); nwritten at 16
  (data (i32.const 0) "\40\00\00\00\09\00\00\00\49\00\00\00\04\00\00\00")
  (data (i32.const 64) "ready\nsteady\n")
  (func (export "_initialize")
    (drop (call $fd_write (i32.const 1) (i32.const 0) (i32.const 1) (i32.const 16)))
    (drop (call $fd_write (i32.const 1) (i32.const 8) (i32.const 1) (i32.const 16))))
  (func (export "engine_abi_version") (result i32) (i32.const 1))
  (func (export "engine_alloc") (param i32) (result i32) (i32.const 1024))
  (func (export "engine_free") (param i32 i32))
  (func (export "engine_call") (param i32 i32) (result i64) (i64.const 0)))
