;; An engine-shaped reactor that answers every request with the request itself, so a test can hand
;; the package any response it likes.
(module
  (memory (export "memory") 1)
  (func (export "_initialize"))
  (func (export "engine_abi_version") (result i32) (i32.const 1))
  (func (export "engine_alloc") (param i32) (result i32) (i32.const 1024))
  (func (export "engine_free") (param i32 i32))
  (func (export "engine_call") (param $ptr i32) (param $len i32) (result i64)
    (i64.or
      (i64.shl (i64.extend_i32_u (local.get $ptr)) (i64.const 32))
      (i64.extend_i32_u (local.get $len)))))
