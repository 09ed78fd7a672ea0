;; A module that lacks the engine_call export.
(module
  (memory (export "memory") 1)
  (func (export "_initialize"))
  (func (export "engine_abi_version") (result i32) (i32.const 1))
  (func (export "engine_alloc") (param i32) (result i32) (i32.const 1024))
  (func (export "engine_free") (param i32 i32)))
