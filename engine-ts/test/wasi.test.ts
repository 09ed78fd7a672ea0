// The WASI shim against a guest that passes what it shouldn't (bindings §5): every address is
// checked, and the answers are the errno values the runtime expects.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { WASI_FUNCTIONS, wasiImports } from "../dist/wasi.js";

const EBADF = 8;
const EFAULT = 21;
const EINVAL = 28;
const ENOSYS = 52;
const ENOTSUP = 58;

function shim() {
  const memory = new WebAssembly.Memory({ initial: 2 });
  const written: string[] = [];
  const imports = wasiImports({ memory: () => memory, write: (fd, bytes) => written.push(`${fd}:${new TextDecoder().decode(bytes)}`) }, [...WASI_FUNCTIONS]);
  return { view: new DataView(memory.buffer), bytes: new Uint8Array(memory.buffer), imports, written };
}

describe("the WASI shim", () => {
  test("writes standard output and error, and refuses other descriptors and bad addresses", () => {
    const { view, bytes, imports, written } = shim();
    bytes.set(new TextEncoder().encode("hello"), 100);
    view.setUint32(0, 100, true);
    view.setUint32(4, 5, true);
    assert.equal(imports.fd_write!(2, 0, 1, 16), 0);
    assert.equal(view.getUint32(16, true), 5);
    assert.equal(imports.fd_write!(3, 0, 1, 16), EBADF);
    assert.equal(imports.fd_write!(1, 0, 1025, 16), EINVAL);
    view.setUint32(0, 131_070, true);
    assert.equal(imports.fd_write!(1, 0, 1, 16), EFAULT, "an iovec past the end of memory");
    assert.equal(imports.fd_write!(1, 131_068, 1, 16), EFAULT, "an iovec array past the end of memory");
    assert.equal(imports.fd_write!(1, -8, 1, 16), EFAULT, "an address above 4 GiB - 8");
    assert.deepEqual(written, ["2:hello"]);
  });

  test("tells the time on both clocks and refuses other clocks", () => {
    const { view, imports } = shim();
    assert.equal(imports.clock_time_get!(0, 0n, 8), 0);
    assert.ok(view.getBigUint64(8, true) > 1_700_000_000_000_000_000n);
    assert.equal(imports.clock_time_get!(1, 0n, 8), 0);
    assert.ok(view.getBigUint64(8, true) > 0n, "a monotonic 0 reads as unset");
    assert.equal(imports.clock_time_get!(2, 0n, 8), EINVAL);
    assert.equal(imports.clock_time_get!(0, 0n, 131_068), EFAULT);
  });

  test("gives one argument, no environment, random bytes, and no files", () => {
    const { view, bytes, imports } = shim();
    assert.equal(imports.args_sizes_get!(0, 4), 0);
    assert.deepEqual([view.getUint32(0, true), view.getUint32(4, true)], [1, 7]);
    assert.equal(imports.args_get!(0, 100), 0);
    assert.equal(new TextDecoder().decode(bytes.subarray(100, 107)), "engine\0");
    assert.equal(imports.environ_sizes_get!(0, 4), 0);
    assert.deepEqual([view.getUint32(0, true), view.getUint32(4, true)], [0, 0]);
    assert.equal(imports.random_get!(1000, 70_000), 0, "more than one chunk of 65536");
    assert.equal(imports.random_get!(131_000, 1000), EFAULT);
    assert.equal(imports.fd_prestat_get!(3, 0), EBADF);
    assert.equal(imports.path_open!(3, 0, 0, 0, 0, 0n, 0n, 0, 0), ENOSYS);
    assert.equal(imports.fd_fdstat_set_flags!(1, 0), ENOTSUP);
    assert.equal(imports.fd_fdstat_get!(1, 200), 0);
    assert.equal(bytes[200], 2, "a character device");
  });

  test("answers every poll subscription ready, and refuses none or too many", () => {
    const { view, bytes, imports } = shim();
    view.setBigUint64(0, 42n, true); // userdata
    bytes[8] = 0; // a clock subscription
    view.setUint32(16, 1, true); // monotonic
    view.setBigUint64(24, 0n, true); // no wait
    assert.equal(imports.poll_oneoff!(0, 100, 1, 200), 0);
    assert.deepEqual([view.getBigUint64(100, true), view.getUint32(200, true)], [42n, 1]);
    assert.equal(imports.poll_oneoff!(0, 100, 0, 200), EINVAL);
    assert.equal(imports.poll_oneoff!(0, 100, 1025, 200), EINVAL);
    assert.equal(imports.poll_oneoff!(131_050, 100, 1, 200), EFAULT);
  });
});
