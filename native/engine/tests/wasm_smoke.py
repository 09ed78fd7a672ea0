#!/usr/bin/env python3
"""Runs a built engine.wasm on wasmtime 49 as the Java host will, and checks the ABI end to end.

    python3 tests/wasm_smoke.py target/engine.wasm [target/engine-panic-probe.wasm]

Needs wasmtime's Python bindings of the host's version: `pip install wasmtime==49.0.0` (the image's
local package store has them), best in a virtual environment outside the repository. The second
module, built with `build-wasm --features panic-probe -o target/engine-panic-probe.wasm`, adds the
panic checks. Prints one line per check and `N passed, N failed`; exits non-zero on a failure.
"""

import json
import sys
import time

import wasmtime

MALFORMED_HELP = 'send one JSON object of an op and its fields, such as {"op": "version"}'
NOT_IN_MEMORY = ("the request isn't in memory from engine_alloc: allocate it with engine_alloc, "
                 "write it, and pass that pointer and the length written")


class Instance:
    """One instance, set up as the JNI bridge sets it up: exceptions on, WASI without args,
    environment or preopens, engine.host_call defined."""

    def __init__(self, path, exceptions=True):
        config = wasmtime.Config()
        config.wasm_exceptions = exceptions
        self.engine = wasmtime.Engine(config)
        self.module = wasmtime.Module.from_file(self.engine, path)
        self.store = wasmtime.Store(self.engine)
        wasi = wasmtime.WasiConfig()
        wasi.inherit_stderr()
        self.store.set_wasi(wasi)
        linker = wasmtime.Linker(self.engine)
        linker.define_wasi()
        i32, i64 = wasmtime.ValType.i32(), wasmtime.ValType.i64()
        no_host = wasmtime.Func(self.store, wasmtime.FuncType([i32, i32], [i64]), lambda ptr, len_: 0)
        linker.define(self.store, "engine", "host_call", no_host)
        instance = linker.instantiate(self.store, self.module)
        self.exports = instance.exports(self.store)
        self.memory = self.exports["memory"]
        self.exports["_initialize"](self.store)

    def fn(self, name, *args):
        return self.exports[name](self.store, *args)

    def alloc_write(self, data):
        ptr = self.fn("engine_alloc", len(data))
        self.memory.write(self.store, data, ptr)
        return ptr

    def call_at(self, ptr, length):
        packed = self.fn("engine_call", ptr, length) & 0xFFFFFFFFFFFFFFFF
        resp_ptr, resp_len = packed >> 32, packed & 0xFFFFFFFF
        return resp_ptr, bytes(self.memory.read(self.store, resp_ptr, resp_ptr + resp_len))

    def call(self, request):
        """One round trip as module-abi.md §1.3 describes it; frees both buffers."""
        data = request if isinstance(request, bytes) else request.encode()
        ptr = self.alloc_write(data)
        resp_ptr, response = self.call_at(ptr, len(data))
        self.fn("engine_free", ptr, len(data))
        self.fn("engine_free", resp_ptr, len(response))
        return response.decode()

    def pages(self):
        return self.memory.size(self.store)


results = []


def check(name, condition, detail=""):
    results.append(condition)
    print(("ok     " if condition else "FAILED ") + name + ("" if condition else f": {detail}"))


def shape_checks(path):
    module = wasmtime.Module.from_file(wasmtime.Engine(exceptions_config()), path)
    exports = sorted(e.name for e in module.exports)
    want = ["_initialize", "engine_abi_version", "engine_alloc", "engine_call", "engine_free", "memory"]
    check("exports are exactly the ABI's", exports == want, exports)
    imports = [f"{i.module}.{i.name}" for i in module.imports]
    check("imports only WASI and engine.host_call",
          all(i.startswith("wasi_snapshot_preview1.") or i == "engine.host_call" for i in imports), imports)
    print("       imports: " + " ".join(imports))
    try:
        Instance(path, exceptions=False)
        refused = "loaded"
    except wasmtime.WasmtimeError as error:
        refused = str(error)
    check("without exceptions enabled the module doesn't load", "exceptions proposal not enabled" in refused, refused)


def exceptions_config():
    config = wasmtime.Config()
    config.wasm_exceptions = True
    return config


def abi_checks(path):
    engine = Instance(path)
    check("engine_abi_version is 1", engine.fn("engine_abi_version") == 1)

    version = json.loads(engine.call('{"op":"version","id":7}'))
    check("version answers the six members", list(version) ==
          ["id", "ok", "version", "commit", "commitTime", "dirty", "goVersion", "platform"], version)
    check("version reports wasip1/wasm and the compiler",
          version["platform"] == "wasip1/wasm" and version["goVersion"].startswith("rustc "), version)
    print(f"       {json.dumps(version)}")

    response = engine.call('{"op":"version","id":1.50}')
    check("the id is echoed as written", response.startswith('{"id":1.50,"ok":true,'), response)
    response = engine.call('{"op":"evaluate","id":3}')
    check("unknown op echoes the id", response == '{"id":3,"ok":false,"error":{"message":"unknown op \\"evaluate\\"",'
          '"help":"the ops are version, check, compile, eval, explain, format, test and release"}}', response)
    response = json.loads(engine.call('{"op":"eval","id":4,"timeoutMs":1}'))
    check("unknown field", response["id"] == 4 and response["error"]["message"].endswith(
        'json: unknown field "timeoutMs"'), response)
    response = json.loads(engine.call(""))
    check("empty request is EOF", response["error"]["message"].endswith(": EOF"), response)

    deep = '{"op":"eval","input":' + "[" * 100_000 + "]" * 100_000 + "}"
    response = json.loads(engine.call(deep))
    check("100 000 nested arrays fail as a malformed request", response["ok"] is False and
          response["error"]["message"].endswith("invalid character '[' exceeded max depth"), response)

    for name, (ptr, length) in {"a pointer not from engine_alloc": (12345, 4), "a null pointer": (0, 0)}.items():
        _, response = engine.call_at(ptr, length)
        check(f"{name} is answered", json.loads(response) == {"ok": False, "error": {
            "message": NOT_IN_MEMORY, "help": MALFORMED_HELP}}, response)
    ptr = engine.alloc_write(b'{"op":"version"}')
    _, response = engine.call_at(ptr, 17)
    check("a length beyond the buffer is answered", NOT_IN_MEMORY in response.decode(), response)
    _, response = engine.call_at(ptr + 1, 4)
    check("a pointer inside a buffer is answered", NOT_IN_MEMORY in response.decode(), response)
    engine.fn("engine_free", ptr, 16)
    engine.fn("engine_free", ptr, 16)
    engine.fn("engine_free", 999_999, 1)
    _, response = engine.call_at(ptr, 16)
    check("a freed buffer, freed twice, and a foreign free are harmless", NOT_IN_MEMORY in response.decode())
    zero = {engine.fn("engine_alloc", 0) for _ in range(5)} | {engine.fn("engine_alloc", -1)}
    check("zero-size buffers get unique addresses", len(zero) == 6 and 0 not in zero, zero)

    for _ in range(1_000):
        engine.call('{"op":"version","id":1}')
    before = engine.pages()
    for _ in range(10_000):
        engine.call('{"op":"version","id":1}')
        engine.call('{"op":"nope","files":[{"path":"a"}]}')
    check("memory stays flat over 10 000 freed round trips", engine.pages() == before, (before, engine.pages()))
    for _ in range(2_000):
        engine.fn("engine_call", engine.alloc_write(b'{"op":"version"}'), 16)
    check("unfreed buffers stay pinned (memory grows)", engine.pages() > before, (before, engine.pages()))

    rounds = 20_000
    start = time.perf_counter()
    for _ in range(rounds):
        engine.call('{"op":"version","id":1}')
    elapsed = time.perf_counter() - start
    print(f"       version round trip from Python: {elapsed / rounds * 1e6:.1f} µs (mostly the Python binding)")


def panic_checks(path):
    engine = Instance(path)
    kept = engine.alloc_write(b'{"op":"version","id":1}')
    want = ('{"id":9,"ok":false,"error":{"message":"the engine failed while handling the request: the panic-probe '
            'op panics on purpose","help":"this is a bug in the engine; please report it with the request"}}')
    for round_ in range(3):
        response = engine.call('{"op":"panic-probe","id":9}')
        check(f"a panic is an ok:false answer (round {round_ + 1})", response == want, response)
    _, response = engine.call_at(kept, 23)
    check("a buffer from before the panics is intact", response.startswith(b'{"id":1,"ok":true,'), response)
    response = engine.call('{"op":"version","id":10}')
    check("the instance answers after the panics", response.startswith('{"id":10,"ok":true,'), response)


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    shape_checks(sys.argv[1])
    abi_checks(sys.argv[1])
    if len(sys.argv) == 3:
        panic_checks(sys.argv[2])
        response = Instance(sys.argv[1]).call('{"op":"panic-probe"}')
        check("the release module has no panic-probe op", 'unknown op \\"panic-probe\\"' in response, response)
    failed = results.count(False)
    print(f"{len(results) - failed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
