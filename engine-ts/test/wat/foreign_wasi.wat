;; A reactor that imports a WASI function outside the 19 the hosts provide.
(module
  (import "wasi_snapshot_preview1" "sock_accept" (func (param i32 i32 i32) (result i32)))
  (memory (export "memory") 1)
  (func (export "_initialize"))
  (func (export "engine_abi_version") (result i32) (i32.const 1))
  (func (export "engine_alloc") (param i32) (result i32) (i32.const 1024))
  (func (export "engine_free") (param i32 i32))
  (func (export "engine_call") (param i32 i32) (result i64) (i64.const 0)))
