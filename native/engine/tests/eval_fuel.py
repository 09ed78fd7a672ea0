#!/usr/bin/env python3
"""Wasm operators (wasmtime fuel) and answer bytes of one eval in a built engine.wasm, with and without
the trace: access.main of conf/policies and the 1-rule ranked decision of the bench module.

    python3 tests/eval_fuel.py target/engine.wasm [perf]

Fuel is exact on a busy machine, where timings aren't. With `perf`, it runs 200 000 evals of
access.main under wasmtime's perfmap profiler instead, for `perf record -g python3 ...` (an unstripped
module names the functions: CARGO_PROFILE_RELEASE_STRIP=false ./build-wasm -o ...). Needs wasmtime's
Python bindings of the host's version (see tests/wasm_smoke.py).
"""

import json
import pathlib
import sys

import wasmtime

ROOT = pathlib.Path(__file__).resolve().parents[3]
ACCESS_INPUT = ('{"user":{"name":"ann","teams":["payments","search"],"admin":false},"action":"read",'
                '"resource":{"name":"ledger","team":"payments"}}')
REFUND_POLICY = ('policy refund.desk: Refund@1\n\nwhen amount > 10000 {\n  deny(reason: fraud)\n}\n\n'
                 'when amount < 100 + 0 and channel == "web" {\n  approve(reason: small, limit: 100)\n}\n\n')


class Module:
    def __init__(self, path, fuel, perf):
        config = wasmtime.Config()
        config.wasm_exceptions = True
        config.consume_fuel = fuel
        if perf:
            config.profiler = "perfmap"
        engine = wasmtime.Engine(config)
        self.store = wasmtime.Store(engine)
        if fuel:
            self.store.set_fuel(10**15)
        self.store.set_wasi(wasmtime.WasiConfig())
        linker = wasmtime.Linker(engine)
        linker.define_wasi()
        i32, i64 = wasmtime.ValType.i32(), wasmtime.ValType.i64()
        linker.define(self.store, "engine", "host_call",
                      wasmtime.Func(self.store, wasmtime.FuncType([i32, i32], [i64]), lambda p, n: 0))
        self.exports = linker.instantiate(self.store, wasmtime.Module.from_file(engine, path)).exports(self.store)
        self.exports["_initialize"](self.store)

    def call(self, request):
        """One round trip of module-abi.md §1.3: alloc, write, call, read, free both."""
        memory, ex, store = self.exports["memory"], self.exports, self.store
        ptr = ex["engine_alloc"](store, len(request))
        memory.write(store, request, ptr)
        packed = ex["engine_call"](store, ptr, len(request)) & 0xFFFFFFFFFFFFFFFF
        at, length = packed >> 32, packed & 0xFFFFFFFF
        answer = bytes(memory.read(store, at, at + length))
        ex["engine_free"](store, ptr, len(request))
        ex["engine_free"](store, at, length)
        return answer

    def eval_request(self, files, inputs, trace):
        compiled = json.loads(self.call(json.dumps({"op": "compile", "files": files}).encode()))
        extra = "" if trace else ',"trace":false'
        return ('{"op":"eval","handle":%d,"input":%s%s}' % (compiled["handle"], inputs, extra)).encode()


def cases():
    read = lambda path: (ROOT / path).read_text()
    access = [{"path": "kind.sigil", "source": read("conf/policies/kind.sigil")},
              {"path": "access/main.sigil", "source": read("conf/policies/access/main.sigil")}]
    refund = [{"path": "kind.sigil", "source": read("bench/src/main/resources/dev/svc/bench/refund-kind.sigil")},
              {"path": "refund/desk.sigil", "source": REFUND_POLICY}]
    return [("access.main", access, ACCESS_INPUT), ("1-rule ranked decision", refund, '{"amount":40,"channel":"web"}')]


def main():
    path, perf = sys.argv[1], len(sys.argv) > 2 and sys.argv[2] == "perf"
    if perf:
        module = Module(path, fuel=False, perf=True)
        name, files, inputs = cases()[0]
        request = module.eval_request(files, inputs, True)
        for _ in range(200_000):
            module.call(request)
        return
    for name, files, inputs in cases():
        for trace in (True, False):
            module = Module(path, fuel=True, perf=False)
            request = module.eval_request(files, inputs, trace)
            answer = module.call(request)
            before = module.store.get_fuel()
            module.call(request)
            used = before - module.store.get_fuel()
            print(f"{name}, {'with' if trace else 'without'} the trace: {used} wasm operators, "
                  f"answer {len(answer)} bytes")


if __name__ == "__main__":
    main()
