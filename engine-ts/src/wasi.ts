// The WASI preview 1 calls the engine's runtime makes, and nothing more (bindings §5): no files, no
// arguments but the program's name, no environment; time, randomness, and standard output and
// error as text. Every address the module passes is checked before it is read or written.

const SUCCESS = 0;
const EBADF = 8;
const EFAULT = 21;
const EINVAL = 28;
const ENOSYS = 52;
const ENOTSUP = 58;

const MAX_IOVECS = 1024;
const MAX_SUBSCRIPTIONS = 1024;
const RANDOM_CHUNK = 65536;
const ARGV0 = new TextEncoder().encode("engine\0");

/** Thrown by `proc_exit`: the module ended its runtime, so the instance is stopped. */
export class WasiExit extends Error {
  constructor(readonly code: number) {
    super(`it exited with code ${code}`);
    this.name = "WasiExit";
  }
}

/** Raised for an address outside memory; answered as EFAULT. */
class Fault extends Error {}

/** The host side of the module's WASI imports. */
export interface WasiHost {
  /** The module's linear memory, once instantiated. */
  memory(): WebAssembly.Memory;
  /** Bytes written to standard output (1) or standard error (2). */
  write(fd: 1 | 2, bytes: Uint8Array): void;
}

type WasiFunction = (...args: any[]) => number;

/** The WASI preview 1 functions a module may import (module-abi §1.2); the shim has them all. */
export const WASI_FUNCTIONS: ReadonlySet<string> = new Set([
  "args_get", "args_sizes_get", "clock_time_get", "environ_get", "environ_sizes_get", "fd_close",
  "fd_fdstat_get", "fd_fdstat_set_flags", "fd_filestat_get", "fd_prestat_dir_name", "fd_prestat_get",
  "fd_read", "fd_write", "path_filestat_get", "path_open", "poll_oneoff", "proc_exit", "random_get",
  "sched_yield",
]);

/** The WASI imports for one instance; `names` are the ones the module imports. */
export function wasiImports(host: WasiHost, names: readonly string[]): Record<string, WasiFunction> {
  const view = () => new DataView(host.memory().buffer);
  const bytes = (ptr: number, len: number): Uint8Array => {
    const buffer = host.memory().buffer;
    if (ptr < 0 || len < 0 || ptr + len > buffer.byteLength) throw new Fault();
    return new Uint8Array(buffer, ptr, len);
  };
  const u32 = (ptr: number): number => view().getUint32(checked(ptr, 4), true);
  const setU32 = (ptr: number, value: number) => view().setUint32(checked(ptr, 4), value >>> 0, true);
  const setU64 = (ptr: number, value: bigint) => view().setBigUint64(checked(ptr, 8), value, true);
  const checked = (ptr: number, len: number): number => (bytes(ptr, len), ptr);
  const started = monotonicNanos();

  const calls: Record<string, WasiFunction> = {
    args_sizes_get: (argc: number, size: number) => (setU32(argc, 1), setU32(size, ARGV0.length), SUCCESS),
    args_get: (argv: number, buffer: number) => {
      bytes(buffer, ARGV0.length).set(ARGV0);
      setU32(argv, buffer);
      return SUCCESS;
    },
    environ_sizes_get: (count: number, size: number) => (setU32(count, 0), setU32(size, 0), SUCCESS),
    environ_get: () => SUCCESS,
    clock_time_get: (id: number, _precision: bigint, out: number) => {
      if (id === 0) return setU64(out, BigInt(Date.now()) * 1_000_000n), SUCCESS;
      // A monotonic 0 reads as unset to some runtimes: count from 1 (bindings §5).
      if (id === 1) return setU64(out, monotonicNanos() - started + 1n), SUCCESS;
      return EINVAL;
    },
    random_get: (ptr: number, len: number) => {
      const target = bytes(ptr, len);
      for (let at = 0; at < len; at += RANDOM_CHUNK) {
        crypto.getRandomValues(target.subarray(at, Math.min(len, at + RANDOM_CHUNK)) as Uint8Array<ArrayBuffer>);
      }
      return SUCCESS;
    },
    fd_write: (fd: number, iovs: number, count: number, written: number) => {
      if (fd !== 1 && fd !== 2) return EBADF;
      if (count > MAX_IOVECS) return EINVAL;
      let total = 0;
      const parts: Uint8Array[] = [];
      for (let i = 0; i < count; i++) {
        const part = bytes(u32(iovs + i * 8), u32(iovs + i * 8 + 4));
        parts.push(part.slice());
        total += part.length;
      }
      setU32(written, total);
      for (const part of parts) host.write(fd, part);
      return SUCCESS;
    },
    fd_read: (fd: number, _iovs: number, _count: number, read: number) =>
      fd === 0 ? (setU32(read, 0), SUCCESS) : EBADF,
    fd_fdstat_get: (fd: number, out: number) => {
      if (fd > 2) return EBADF;
      bytes(out, 24).fill(0);
      view().setUint8(out, 2); // a character device
      setU64(out + 8, 0xffff_ffff_ffff_ffffn);
      return SUCCESS;
    },
    // The runtime asks for non-blocking standard streams; staying blocking is fine.
    fd_fdstat_set_flags: (fd: number) => (fd <= 2 ? ENOTSUP : EBADF),
    poll_oneoff: (subscriptions: number, events: number, count: number, reported: number) => {
      if (count === 0 || count > MAX_SUBSCRIPTIONS) return EINVAL;
      const input = bytes(subscriptions, count * 48);
      const output = bytes(events, count * 32);
      let wait = -1n;
      for (let i = 0; i < count; i++) {
        const sub = new DataView(input.buffer, input.byteOffset + i * 48, 48);
        if (sub.getUint8(8) !== 0) continue;
        const clock = sub.getUint32(16, true);
        if (clock > 1) return EINVAL;
        let timeout = sub.getBigUint64(24, true);
        if ((sub.getUint16(40, true) & 1) !== 0) {
          const now = clock === 0 ? BigInt(Date.now()) * 1_000_000n : monotonicNanos() - started + 1n;
          timeout = timeout > now ? timeout - now : 0n;
        }
        if (wait < 0n || timeout < wait) wait = timeout;
      }
      if (wait > 0n) sleep(Number(wait / 1_000_000n));
      output.fill(0);
      for (let i = 0; i < count; i++) {
        const event = new DataView(output.buffer, output.byteOffset + i * 32, 32);
        event.setBigUint64(0, new DataView(input.buffer, input.byteOffset + i * 48, 48).getBigUint64(0, true), true);
        event.setUint8(10, input[i * 48 + 8]!);
      }
      setU32(reported, count);
      return SUCCESS;
    },
    sched_yield: () => SUCCESS,
    proc_exit: (code: number) => {
      throw new WasiExit(code);
    },
    path_open: () => ENOSYS,
    path_filestat_get: () => ENOSYS,
  };
  for (const name of ["fd_prestat_get", "fd_prestat_dir_name", "fd_close", "fd_filestat_get"]) {
    calls[name] = () => EBADF;
  }

  const imports: Record<string, WasiFunction> = {};
  for (const name of names) {
    const call = calls[name];
    if (call === undefined) throw new Error(`the WASI shim has no ${name}`);
    imports[name] = (...args: unknown[]) => {
      try {
        // Addresses, sizes and descriptors are unsigned; JavaScript sees an i32 above 2 GiB as negative.
        return call(...args.map((a) => (typeof a === "number" ? a >>> 0 : a)));
      } catch (e) {
        // proc_exit is the only call that throws on purpose.
        if (e instanceof Fault || e instanceof RangeError) return EFAULT;
        throw e;
      }
    };
  }
  return imports;
}

function monotonicNanos(): bigint {
  return BigInt(Math.round(performance.now() * 1_000_000));
}

// The runtime polls only to sleep. Atomics.wait blocks where the thread may block (Node, workers);
// a browser's main thread may not, and spins instead.
function sleep(ms: number): void {
  if (ms <= 0) return;
  try {
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
  } catch {
    const until = performance.now() + ms;
    while (performance.now() < until) {
      // spin: nothing else may run on this thread until the module returns
    }
  }
}
