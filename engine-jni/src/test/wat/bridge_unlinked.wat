;; Imports a function neither WASI nor the bridge provides: linking it must fail.
(module
  (import "env" "missing" (func (param i32)))
  (import "wasi_snapshot_preview1" "fd_write" (func (param i32 i32 i32 i32) (result i32)))
  (memory (export "memory") 1)
  (global (export "answer") i32 (i32.const 42))
  (func (export "engine_abi_version") (result i32) (i32.const 1)))
