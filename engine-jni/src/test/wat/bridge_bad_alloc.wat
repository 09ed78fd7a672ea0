;; Exports engine_alloc with the wrong type: the bridge calls ABI exports unchecked, so it must refuse.
(module
  (memory (export "memory") 1)
  (func (export "engine_alloc") (param i64) (result i32) (i32.const 0)))
