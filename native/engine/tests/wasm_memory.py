#!/usr/bin/env python3
"""The module's memory after one call of each op on the heaviest valid sources under 4 MiB (issue #20:
at most 64 MiB), each on a fresh instance, with the call's time:

    python3 tests/wasm_memory.py target/engine.wasm [NAME-FILTER]

The requests are the `abuse` example's largest (`cargo run --release --example abuse`), whose figures are
native heap peaks; this is the module's own figure, what engine-jni's `Engine.memorySize()` reads. Timing
only, no thresholds. Needs wasmtime's Python bindings of the host's version (see tests/wasm_smoke.py).
"""

import json
import sys
import time

from eval_fuel import Module

KIND = ("kind Door version 1\n\ninput floor: int\ninput user: string\n\nfn badge(string) -> bool\n\n"
        "decision deny {\n  reason: closed | no_rule\n}\n\ndecision allow {\n  reason: member\n  minutes: int = 5\n}\n\n"
        "collect one\nprecedence deny > allow\n\ndefault deny(reason: no_rule)\n")
TEST = ("policy: door.main\ncases:\n  - name: one\n    input: {floor: 2, user: ada}\n"
        "    expect: {decision: deny}\n")


def sources():
    rules = "".join(f'when floor > {i} and badge(user) and user != "u{i}" {{\n'
                    f'  allow(reason: member, minutes: floor + {i})\n}}\n\n' for i in range(36_000))
    lets = "".join(f"let l{i} = floor + {i}\n" for i in range(140_000))
    comments = "// x\n" * 800_000
    return [("36000 rules", f"policy door.main: Door@1\n\n{rules}"),
            ("140000 lets", f"policy door.main: Door@1\n{lets}"),
            ("800000 comments", f"policy door.main: Door@1\n{comments}"),
            ("4M `(`", "(" * 4_000_000)]


def request(op, source):
    files = [{"path": "kind.sigil", "source": KIND}, {"path": "door/main.sigil", "source": source}]
    if op == "format":
        return {"op": "format", "path": "door/main.sigil", "source": source}
    if op == "check":
        return {"op": "check", "files": files}
    if op == "test":
        return {"op": "test", "files": files, "test_files": [{"path": "door/main_test.yaml", "source": TEST}]}
    return {"op": op, "files": files, "policy": "door.main"}


def main():
    path = sys.argv[1]
    wanted = sys.argv[2] if len(sys.argv) > 2 else ""
    print(f"{'request':<28} {'source':>9} {'ms':>8} {'memory MiB':>11} {'answer':>10}")
    for what, source in sources():
        for op in ["check", "compile", "explain", "format", "test"]:
            name = f"{op} {what}"
            if wanted not in name:
                continue
            module = Module(path, fuel=False, perf=False)
            body = json.dumps(request(op, source)).encode()
            started = time.perf_counter()
            answer = module.call(body)
            spent = (time.perf_counter() - started) * 1000
            memory = module.exports["memory"].data_len(module.store) / (1 << 20)
            print(f"{name:<28} {len(source):>9} {spent:>8.0f} {memory:>11.1f} {len(answer):>10}")


if __name__ == "__main__":
    main()
