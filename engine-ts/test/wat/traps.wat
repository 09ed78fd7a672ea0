;; An engine-shaped reactor whose every request writes a reason to stderr in two writes, the
;; second splitting "é" across them, and then traps.
(module
  (import "wasi_snapshot_preview1" "fd_write" (func $fd_write (param i32 i32 i32 i32) (result i32)))
  (memory (export "memory") 2)
  (global $next (mut i32) (i32.const 4096))
  ;; iovecs at 0 (ptr 64, len 25) and 8 (ptr 89, len 20); nwritten at 16
  (data (i32.const 0) "\40\00\00\00\19\00\00\00\59\00\00\00\14\00\00\00")
  (data (i32.const 64) "fatal: the engine broke\n\c3")
  (data (i32.const 89) "\a9t\c3\a9\nat engine_call\n")
  (func (export "_initialize"))
  (func (export "engine_abi_version") (result i32) (i32.const 1))
  (func (export "engine_alloc") (param $size i32) (result i32)
    (local $p i32)
    (local.set $p (global.get $next))
    (global.set $next (i32.add (global.get $next) (i32.add (local.get $size) (i32.const 1))))
    (local.get $p))
  (func (export "engine_free") (param i32 i32))
  (func (export "engine_call") (param i32 i32) (result i64)
    (drop (call $fd_write (i32.const 2) (i32.const 0) (i32.const 1) (i32.const 16)))
    (drop (call $fd_write (i32.const 2) (i32.const 8) (i32.const 1) (i32.const 16)))
    unreachable))
