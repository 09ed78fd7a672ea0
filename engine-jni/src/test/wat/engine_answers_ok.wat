;; A reactor that answers every request with {"ok":true} and nothing else: an engine whose explain
;; op returns no explanation, which the library must report instead of inventing one.
(module
  (memory (export "memory") 1)
  (data (i32.const 16) "{\"ok\":true}")
  (func (export "_initialize"))
  (func (export "engine_abi_version") (result i32) (i32.const 1))
  (func (export "engine_alloc") (param i32) (result i32) (i32.const 1024))
  (func (export "engine_free") (param i32 i32))
  ;; The 11 bytes at address 16: (16 << 32) | 11.
  (func (export "engine_call") (param i32 i32) (result i64) (i64.const 0x100000000b)))
