#!/usr/bin/python3
"""Shows the Deno kernel's output race with a plain Jupyter client (jupyter_client).

Usage: /usr/bin/python3 tools/kernel_race.py [raw|kit] [CELLS] [BYTES] [PAUSE_MS]

Sends CELLS cells at once (as "Run All" does); each displays BYTES of text and then stays
busy PAUSE_MS. `raw` displays with `Deno.jupyter.display` without waiting (what a bare last
expression or an un-awaited display does); `kit` with the kit's `await display(...)`.
Prints how many messages arrived garbled ("Invalid Signature"), how many outputs came after
their cell's idle (nbclient and nbconvert drop those), how many came under another cell, and
how many cells reported idle. docs/notebooks.md ("Every output, every time") has numbers.
"""
import os
import queue
import sys
import time

from jupyter_client.manager import start_new_kernel

mode = sys.argv[1] if len(sys.argv) > 1 else "raw"
cells = int(sys.argv[2]) if len(sys.argv) > 2 else 10
size = int(sys.argv[3]) if len(sys.argv) > 3 else 8_000_000
pause = int(sys.argv[4]) if len(sys.argv) > 4 else 5
plot = "file://" + os.path.abspath(os.path.join(os.path.dirname(__file__), "../lib/plot/mod.ts"))

km, kc = start_new_kernel(kernel_name="deno")
codes = []
for i in range(cells):
    bundle = f'{{ "text/plain": "x".repeat({size}) + "{i}" }}'
    if mode == "kit":
        show = f'await display({{ [Symbol.for("Jupyter.display")]: () => ({bundle}) }});'
        if i == 0:
            show = f'import {{ display }} from "{plot}"; ' + show
    else:
        show = f"Deno.jupyter.display({bundle}, {{ raw: true }});"
    codes.append(f"{show} const t{i} = Date.now(); while (Date.now() - t{i} < {pause});")
ids = [kc.execute(c) for c in codes]
garbled = late = wrong = 0
idle = set()
deadline = time.time() + 120
while len(idle) < cells and time.time() < deadline:
    try:
        m = kc.get_iopub_msg(timeout=20)
    except queue.Empty:
        break
    except ValueError:
        garbled += 1
        continue
    parent = m["parent_header"].get("msg_id")
    if m["msg_type"] == "display_data":
        index = int(m["content"]["data"]["text/plain"][size:])
        if parent != ids[index]:
            wrong += 1
        if parent in idle:
            late += 1
    if m["msg_type"] == "status" and m["content"]["execution_state"] == "idle" and parent in ids:
        idle.add(parent)
print(f"{mode}: {cells} cells of {size} bytes, {pause} ms busy after: garbled {garbled}, "
      f"after idle {late}, under another cell {wrong}, idle received {len(idle)}/{cells}")
kc.stop_channels()
km.shutdown_kernel(now=True)
