;; A reactor that reports ABI version 2: Engine.load must refuse it.
(module
  (memory (export "memory") 1)
  (func (export "_initialize"))
  (func (export "engine_abi_version") (result i32) (i32.const 2))
  (func (export "engine_alloc") (param i32) (result i32) (i32.const 1024))
  (func (export "engine_free") (param i32 i32))
  (func (export "engine_call") (param i32 i32) (result i64) (i64.const 0)))
