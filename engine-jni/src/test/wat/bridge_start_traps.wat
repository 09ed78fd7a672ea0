;; Traps in its start function, i.e. during instantiation.
(module
  (memory (export "memory") 1)
  (func $start unreachable)
  (start $start))
