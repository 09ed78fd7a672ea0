;; A reactor whose start writes a reason to stderr and exits with code 3.
(module
  (import "wasi_snapshot_preview1" "fd_write" (func $fd_write (param i32 i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "proc_exit" (func $proc_exit (param i32)))
  (memory (export "memory") 1)
  ;; iovec at 0: (ptr 64, len 26); nwritten at 16
  (data (i32.const 0) "\40\00\00\00\1a\00\00\00")
  (data (i32.const 64) "cannot start: no memory?!\n")
  (func (export "_initialize")
    (drop (call $fd_write (i32.const 2) (i32.const 0) (i32.const 1) (i32.const 16)))
    (call $proc_exit (i32.const 3)))
  (func (export "engine_abi_version") (result i32) (i32.const 1))
  (func (export "engine_alloc") (param i32) (result i32) (i32.const 1024))
  (func (export "engine_free") (param i32 i32))
  (func (export "engine_call") (param i32 i32) (result i64) (i64.const 0)))
