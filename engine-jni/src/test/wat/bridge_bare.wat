;; Exports nothing of the ABI: calls that need an export must fail with WasmError, not crash.
(module
  (func (export "nothing")))
