#!/usr/bin/python3
"""Drives a real Deno kernel with jupyter_client for tests/plot/kernel_display_test.ts.

Usage: kernel_display.py PLOT_MOD_URL LIBRARY_MARK
Prints one JSON object: what a plain Jupyter client saw.
"""
import json
import queue
import sys
import time

from jupyter_client.manager import start_new_kernel

mod, mark = sys.argv[1], sys.argv[2]
km, kc = start_new_kernel(kernel_name="deno")
result = {"invalid": 0, "late": 0, "wrong_cell": 0, "missing_idle": 0, "displays": [], "carries": {}}


def run_all(codes, timeout=120):
    """Sends every cell at once (as Run All does) and reads iopub until each is idle."""
    ids = [kc.execute(c) for c in codes]
    outputs = {i: [] for i in ids}
    idle = set()
    deadline = time.time() + timeout
    while len(idle) < len(ids) and time.time() < deadline:
        try:
            m = kc.get_iopub_msg(timeout=30)
        except queue.Empty:
            break
        except ValueError:  # jupyter_client: "Invalid Signature", a garbled message
            result["invalid"] += 1
            continue
        p = m["parent_header"].get("msg_id")
        if p not in outputs:
            continue
        if m["msg_type"] == "display_data":
            if p in idle:
                result["late"] += 1
            outputs[p].append(m["content"]["data"])
        if m["msg_type"] == "status" and m["content"]["execution_state"] == "idle":
            idle.add(p)
    result["missing_idle"] += len(ids) - len(idle)
    return [outputs[i] for i in ids]


run_all([f'import {{ bar, display, embedLibraryAgain }} from "{mod}";'])

# Large outputs, all cells sent at once, each cell busy for a moment after its display.
big = [
    f'await display({{ [Symbol.for("Jupyter.display")]: () => ({{ "text/plain": "x".repeat(4_000_000) + "{i}" }}) }});'
    f' const t{i} = Date.now(); while (Date.now() - t{i} < {i % 3 * 10});'
    for i in range(8)
]
for i, outs in enumerate(run_all(big)):
    texts = [o["text/plain"] for o in outs]
    result["displays"].append(len(texts))
    if any(not t.endswith(str(i)) for t in texts):
        result["wrong_cell"] += 1


def figure(code_name):
    return f'await display(bar(["a"], [{{ name: "{code_name}", values: [1] }}]));'


def carries(code):
    outs = run_all([code])[0]
    return [mark in o.get("text/html", "") for o in outs]


A, B = figure("A"), figure("B")
result["carries"]["first figure"] = carries(A)
result["carries"]["second figure"] = carries(B)
result["carries"]["first cell again"] = carries(A)
result["carries"]["second cell again"] = carries(B)
kc.kernel_info()  # what a reloaded page does when it connects
time.sleep(0.5)
result["carries"]["after a frontend connects"] = carries(B)
result["carries"]["another cell"] = carries(figure("F"))
result["carries"]["that cell again (the carrier now)"] = carries(B)
result["carries"]["embedLibraryAgain"] = carries("embedLibraryAgain(); " + figure("C"))
result["carries"]["two figures in a cell"] = carries("embedLibraryAgain(); " + figure("D") + figure("E"))

kc.stop_channels()
km.shutdown_kernel(now=True)
print(json.dumps(result))
