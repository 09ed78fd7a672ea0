;; A tiny module shaped like engine.wasm's ABI, for the JNI bridge's own tests (internal.Native*Test).
;; engine_alloc is a bump allocator that grows memory (0 when memory can't grow); engine_free counts,
;; and the heap starts over once every buffer is freed (so a benchmark loop doesn't grow memory).
;; engine_call acts on the request's first byte:
;;   E  echo: the response is the whole request
;;   H  host call with the rest of the request; the response is "!" + the host's reply
;;   S  write the rest to stderr (fd 2)       O  write the rest to stdout (fd 1); empty response
;;   C  counters: i32 allocs, i32 frees, as they were before this response was allocated
;;   I  i32 1 if _initialize ran, else 0
;;   L  loop forever                          G  grow memory a page at a time until refused, then trap
;;   X  proc_exit(3)                          R  unbounded recursion
;;   U  unreachable                           M  load from an address outside memory
;;   D  integer division by zero              B  return a response outside memory
;;   anything else: unreachable
(module
  (import "wasi_snapshot_preview1" "fd_write" (func $fd_write (param i32 i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "proc_exit" (func $proc_exit (param i32)))
  (import "engine" "host_call" (func $host_call (param i32 i32) (result i64)))
  (memory (export "memory") 2)
  ;; 0..1023 is scratch space: iovec at 0, nwritten at 16, small responses at 32.
  (global $heap (mut i32) (i32.const 1024))
  (global $allocs (mut i32) (i32.const 0))
  (global $frees (mut i32) (i32.const 0))
  (global $live (mut i32) (i32.const 0))
  (global $initialized (mut i32) (i32.const 0))

  (func (export "_initialize") (global.set $initialized (i32.const 1)))
  (func (export "engine_abi_version") (result i32) (i32.const 1))

  (func $alloc (export "engine_alloc") (param $size i32) (result i32)
    (local $p i32) (local $end i32) (local $have i32)
    (if (i32.lt_s (local.get $size) (i32.const 0)) (then (local.set $size (i32.const 0))))
    (local.set $p (global.get $heap))
    ;; 8-byte aligned, and a zero-size buffer still gets its own address
    (local.set $end (i32.and (i32.add (i32.add (local.get $p) (local.get $size)) (i32.const 8)) (i32.const -8)))
    (local.set $have (i32.shl (memory.size) (i32.const 16)))
    (if (i32.gt_u (local.get $end) (local.get $have))
      (then
        (if (i32.eq
              (memory.grow (i32.shr_u (i32.add (i32.sub (local.get $end) (local.get $have)) (i32.const 65535))
                                      (i32.const 16)))
              (i32.const -1))
          (then (return (i32.const 0))))))
    (global.set $heap (local.get $end))
    (global.set $allocs (i32.add (global.get $allocs) (i32.const 1)))
    (global.set $live (i32.add (global.get $live) (i32.const 1)))
    (local.get $p))

  (func $free (export "engine_free") (param i32 i32)
    (global.set $frees (i32.add (global.get $frees) (i32.const 1)))
    (global.set $live (i32.sub (global.get $live) (i32.const 1)))
    (if (i32.le_s (global.get $live) (i32.const 0))
      (then
        (global.set $live (i32.const 0))
        (global.set $heap (i32.const 1024)))))

  (func $pack (param $p i32) (param $len i32) (result i64)
    (i64.or (i64.shl (i64.extend_i32_u (local.get $p)) (i64.const 32)) (i64.extend_i32_u (local.get $len))))

  ;; A new buffer holding len bytes copied from src.
  (func $respond (param $src i32) (param $len i32) (result i64)
    (local $p i32)
    (local.set $p (call $alloc (local.get $len)))
    (memory.copy (local.get $p) (local.get $src) (local.get $len))
    (call $pack (local.get $p) (local.get $len)))

  (func $ask_host (param $ptr i32) (param $len i32) (result i64)
    (local $packed i64) (local $reply i32) (local $reply_len i32) (local $out i32)
    (local.set $packed (call $host_call (i32.add (local.get $ptr) (i32.const 1)) (i32.sub (local.get $len) (i32.const 1))))
    (local.set $reply (i32.wrap_i64 (i64.shr_u (local.get $packed) (i64.const 32))))
    (local.set $reply_len (i32.wrap_i64 (local.get $packed)))
    (local.set $out (call $alloc (i32.add (local.get $reply_len) (i32.const 1))))
    (i32.store8 (local.get $out) (i32.const 33))
    (memory.copy (i32.add (local.get $out) (i32.const 1)) (local.get $reply) (local.get $reply_len))
    (call $free (local.get $reply) (local.get $reply_len))
    (call $pack (local.get $out) (i32.add (local.get $reply_len) (i32.const 1))))

  (func $write (param $fd i32) (param $ptr i32) (param $len i32) (result i64)
    (i32.store (i32.const 0) (i32.add (local.get $ptr) (i32.const 1)))
    (i32.store (i32.const 4) (i32.sub (local.get $len) (i32.const 1)))
    (drop (call $fd_write (local.get $fd) (i32.const 0) (i32.const 1) (i32.const 16)))
    (call $respond (i32.const 32) (i32.const 0)))

  (func $recurse (param $depth i32) (result i32)
    (i32.add (call $recurse (i32.add (local.get $depth) (i32.const 1))) (i32.const 1)))

  (func (export "engine_call") (param $ptr i32) (param $len i32) (result i64)
    (local $op i32)
    (if (i32.eqz (local.get $len)) (then (return (call $respond (local.get $ptr) (i32.const 0)))))
    (local.set $op (i32.load8_u (local.get $ptr)))
    (if (i32.eq (local.get $op) (i32.const 69)) ;; E
      (then (return (call $respond (local.get $ptr) (local.get $len)))))
    (if (i32.eq (local.get $op) (i32.const 72)) ;; H
      (then (return (call $ask_host (local.get $ptr) (local.get $len)))))
    (if (i32.eq (local.get $op) (i32.const 83)) ;; S
      (then (return (call $write (i32.const 2) (local.get $ptr) (local.get $len)))))
    (if (i32.eq (local.get $op) (i32.const 79)) ;; O
      (then (return (call $write (i32.const 1) (local.get $ptr) (local.get $len)))))
    (if (i32.eq (local.get $op) (i32.const 67)) ;; C
      (then
        (i32.store (i32.const 32) (global.get $allocs))
        (i32.store (i32.const 36) (global.get $frees))
        (return (call $respond (i32.const 32) (i32.const 8)))))
    (if (i32.eq (local.get $op) (i32.const 73)) ;; I
      (then
        (i32.store (i32.const 32) (global.get $initialized))
        (return (call $respond (i32.const 32) (i32.const 4)))))
    (if (i32.eq (local.get $op) (i32.const 76)) ;; L
      (then (loop $forever (br $forever))))
    (if (i32.eq (local.get $op) (i32.const 71)) ;; G
      (then
        (loop $grow (br_if $grow (i32.ne (memory.grow (i32.const 1)) (i32.const -1))))
        unreachable))
    (if (i32.eq (local.get $op) (i32.const 88)) ;; X
      (then (call $proc_exit (i32.const 3))))
    (if (i32.eq (local.get $op) (i32.const 82)) ;; R
      (then (drop (call $recurse (i32.const 0)))))
    (if (i32.eq (local.get $op) (i32.const 77)) ;; M
      (then (drop (i32.load (i32.const -16)))))
    (if (i32.eq (local.get $op) (i32.const 68)) ;; D
      (then (drop (i32.div_s (i32.const 1) (i32.sub (local.get $len) (local.get $len))))))
    (if (i32.eq (local.get $op) (i32.const 66)) ;; B
      (then (return (i64.const 0xFFFF000000010000))))
    unreachable))
