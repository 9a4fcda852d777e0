#!/usr/bin/python3
"""Execute one notebook headless on its kernel without losing outputs.

Usage: /usr/bin/python3 run_notebook.py INPUT.ipynb OUTPUT.ipynb [--timeout S]

The Deno kernel (2.9.6) can publish `status: idle` on iopub *before* the outputs of the
cell it just ran, and nbclient (so `jupyter nbconvert --execute`) stops reading a cell's
messages at the first idle, dropping them. The kit cures that once, where it serves every
frontend: every output goes through `await display(...)` (lib/plot/show.ts, iopub.ts), which
returns only once the output has left the kernel. So this runner is plain nbclient, as a
user's nbconvert is; tests/report/nbconvert_test.ts checks both keep every output.

Parameters reach the notebook as environment variables (the kernel inherits this
process's environment; the first cell of each notebook reads KIT_DATA, KIT_MODEL,
KIT_BACKEND). NO_COLOR=1 is set so text outputs carry no ANSI colour codes.

The runner and its kernel end with their parent: the runner asks Linux for SIGTERM when the
process that started it dies (prctl PR_SET_PDEATHSIG; a killed `deno task report` must not
leave a notebook running into a deleted folder), and on SIGTERM it stops its kernel and removes
the kernel's connection file; the kernel is started with SIGKILL as its parent-death signal, so
it ends with the runner however the runner ends.

With --wait the runner starts its kernel, prints {"waiting": true} on stdout and waits for a
line `go` on stdin before the first cell (the report starts page 00's kernel while it evaluates the systems the page reads);
the end of stdin instead stops it, exit status 4, no cell run, nothing written.

Exit status: 0 when every cell ran; 1 when a cell failed (the cell's number, source
and error are printed on stderr and the partly executed notebook is still written);
2 for usage errors; 3 when the executed notebook cannot be written (a full disk: one line on
stderr, no partial file left); 4 when told not to run (--wait). On success one JSON line is
printed on stdout with timings (`seconds` in all and `cells_seconds` from the first cell's start to
the last cell's end, both without the wait for `go`, and `waited_seconds`, that wait).
"""

import argparse
import asyncio
import atexit
import copy
import ctypes
import json
import os
import re
import signal
import secrets
import sys
import time
import warnings

try:
    import nbformat
    from jupyter_client import AsyncKernelManager
    from jupyter_client.kernelspec import KernelSpecManager, NoSuchKernel
    from jupyter_core.paths import jupyter_path
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError
except ImportError as e:  # pragma: no cover - depends on the machine
    print(f"{e}: install the Debian packages python3-nbclient jupyter-client python3-ipykernel "
          "(tools/packages.txt) and run this with /usr/bin/python3", file=sys.stderr)
    sys.exit(2)

ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


class KernelSpecs(KernelSpecManager):
    """The kernelspec folders, searched in order: the runner's `--kernelspecs` (the kit's own
    `deno`), then Jupyter's (`jupyter_path("kernels")`: `$JUPYTER_PATH`, the user's, the
    system's), then IPython's. Found without importing IPython: jupyter_client imports it only to
    name `~/.ipython/kernels`, and the import cost each notebook about 0.3 s of CPU (cProfile, a
    third of the runner's own). IPython's folder is named as IPython does by default
    (`$IPYTHONDIR`, else the deprecated `$IPYTHON_DIR`, else `~/.ipython`, `~` expanded); unlike
    IPython, an empty `$IPYTHONDIR` counts as unset, and no folder is created."""

    first: list = []

    def _kernel_dirs_default(self):
        ipython = os.environ.get("IPYTHONDIR") or os.environ.get("IPYTHON_DIR") or "~/.ipython"
        ipython = os.path.expanduser(ipython)
        return [*self.first, *jupyter_path("kernels"), os.path.join(ipython, "kernels")]


class KernelManager(AsyncKernelManager):
    """nbclient's kernel manager, looking kernelspecs up with {KernelSpecs}."""

    def _kernel_spec_manager_default(self):
        return KernelSpecs(data_dir=self.data_dir)

PR_SET_PDEATHSIG = 1


def die_with_parent(sig: int) -> bool:
    """Asks Linux to send `sig` to this process when its parent dies; False where unsupported."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(PR_SET_PDEATHSIG, sig, 0, 0, 0) == 0
    except (OSError, AttributeError):  # not Linux
        return False


def kernel_dies_with_runner() -> None:
    """preexec_fn of the kernel (between fork and exec): SIGKILL when the runner ends."""
    die_with_parent(signal.SIGKILL)


def stop_on_sigterm(client_ref: list) -> None:
    """On SIGTERM (the parent died, or was asked to stop): kill the kernel, remove its files."""
    def handler(signum, _frame):
        client = client_ref[0] if client_ref else None
        km = getattr(client, "km", None)
        try:
            process = getattr(getattr(km, "provisioner", None), "process", None)
            if process is not None:
                os.killpg(process.pid, signal.SIGKILL)
        except (OSError, AttributeError):
            pass
        try:
            if km is not None and km.connection_file:
                os.remove(km.connection_file)
        except OSError:
            pass
        os._exit(128 + signum)
    signal.signal(signal.SIGTERM, handler)


class NotStarted(Exception):
    """The runner was told not to run the cells (its input ended without `go`)."""


def time_kernel_start(client, gate: dict) -> list:
    """A list that receives the moment (time.monotonic) the first cell may run: the build's timings
    tell the kernel's start from the cells' execution. With `gate["wait"]`, the cells wait for a
    line `go` on stdin once the kernel is ready (only once: a second attempt does not wait again;
    `gate["waited"]` gets the seconds waited); any other line, or the end of the input, stops the
    kernel and raises NotStarted."""
    ready: list = []
    start_client = client.async_start_new_kernel_client

    async def timed():
        result = await start_client()
        kernel_ready = time.monotonic()
        if gate.get("wait"):
            print(json.dumps({"waiting": True}), flush=True)
            line = await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
            if line.strip() != "go":
                # Killed now, not at exit by nbclient's graceful shutdown.
                client.shutdown_kernel = "immediate"
                await client._async_cleanup_kernel()
                atexit.unregister(client._cleanup_kernel)
                raise NotStarted()
            gate["wait"] = False
            gate["waited"] = time.monotonic() - kernel_ready
        ready[:] = [time.monotonic()]
        return result

    client.async_start_new_kernel_client = timed
    return ready


def describe_failure(nb, error: CellExecutionError) -> str:
    """The failing cell's number, source and error, without ANSI codes."""
    index, cell = next(
        ((i, c) for i, c in reversed(list(enumerate(nb.cells)))
         if c.cell_type == "code" and any(o.get("output_type") == "error" for o in c.get("outputs", []))),
        (None, None),
    )
    lines = []
    if cell is not None:
        lines.append(f"cell {index} failed:")
        lines.append("----- source -----")
        lines.append(cell.source)
        lines.append("----- error -----")
        for out in cell.outputs:
            if out.get("output_type") == "error":
                lines.append(f"{out.get('ename')}: {out.get('evalue')}")
                tb = "\n".join(out.get("traceback", []))
                if tb.strip():
                    lines.append(ANSI.sub("", tb))
    else:
        lines.append(ANSI.sub("", str(error)))
    return "\n".join(lines)


def read_notebook(path: str):
    """The notebook at `path`. Cells without ids (nbformat 4.5 asks for them) are given ids as
    nbformat gives them; its MissingIDFieldWarning, printed on stderr, would otherwise end up in
    a failing cell's error text, where it is not the cell's problem."""
    with warnings.catch_warnings():
        try:
            from nbformat.warnings import MissingIDFieldWarning
            warnings.simplefilter("ignore", MissingIDFieldWarning)
        except ImportError:  # pragma: no cover - nbformat before 5.1.4 has no such warning
            pass
        return nbformat.read(path, as_version=4)


def main(argv) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("input")
    parser.add_argument("output")
    parser.add_argument("--timeout", type=float, default=600, help="seconds per cell")
    parser.add_argument("--kernel", default=None, help="kernel name (default: the notebook's)")
    parser.add_argument("--kernelspecs", default=None,
                        help="a kernels folder searched before Jupyter's (the kit's own deno)")
    parser.add_argument("--wait", action="store_true",
                        help="start the kernel, then run the cells once stdin says go")
    args = parser.parse_args(argv)

    os.environ["NO_COLOR"] = "1"
    if args.kernelspecs:
        KernelSpecs.first = [args.kernelspecs]
    parent = os.getppid()
    clients: list = []
    stop_on_sigterm(clients)
    if die_with_parent(signal.SIGTERM) and os.getppid() != parent:
        return 143  # the parent died before the request took effect
    source = read_notebook(args.input)
    cwd = os.path.dirname(os.path.abspath(args.input))
    kernel = args.kernel or source.metadata.get("kernelspec", {}).get("name", "deno")
    started = time.monotonic()
    status = 0
    gate = {"wait": args.wait}
    # A failing cell is the notebook's fault and is reported at once. A failure of the kernel
    # connection itself (a dead kernel; a garbled message, "Invalid Signature", which Deno
    # 2.9.6 sends when a large output is still being written as its cell ends, see
    # docs/notebooks.md) is not, and the notebook is run once more from the start.
    for attempt in (1, 2):
        nb = copy.deepcopy(source)
        client = NotebookClient(
            nb,
            timeout=int(args.timeout),
            kernel_name=kernel,
            kernel_manager_class=KernelManager,
            resources={"metadata": {"path": cwd}},
            record_timing=True,
        )
        clients[:] = [client]
        ready = time_kernel_start(client, gate)
        try:
            # Keyword arguments reach the kernel's Popen (jupyter_client's launch_kernel).
            client.execute(preexec_fn=kernel_dies_with_runner)
        except CellExecutionError as e:
            print(f"{args.input}: " + describe_failure(nb, e), file=sys.stderr)
            status = 1
        except NotStarted:
            return 4
        except NoSuchKernel:
            advice = ("run ./kit setup (or `deno jupyter --install`)" if kernel == "deno"
                      else "`jupyter kernelspec list` lists those installed")
            print(f"{args.input}: the Jupyter kernel '{kernel}' is not installed: {advice}",
                  file=sys.stderr)
            return 2
        except Exception as e:  # noqa: BLE001 - any kernel/transport failure
            died = isinstance(e, RuntimeError) and "died before replying" in str(e)
            if (isinstance(e, OSError) or died) and not ready:
                # The kernel could not be started: its kernelspec names a program that is not
                # there (a checkout since deleted), cannot be run (not executable, a folder, a
                # script without an interpreter), or that exited at once (its own message is
                # above); or its files could not be written. One line, not a traceback, and
                # not run again.
                where = KernelSpecs().find_kernel_specs().get(kernel)
                why = ("it exited before answering" if died
                       else f"{e.strerror}: {e.filename}")
                # nbclient's cleanup at exit expects the kernel manager it has dropped by now.
                atexit.unregister(client._cleanup_kernel)
                print(f"{args.input}: the Jupyter kernel '{kernel}' could not start: {why}"
                      + (f" (its kernelspec: {where}/kernel.json)" if where else ""),
                      file=sys.stderr)
                return 2
            if attempt == 2:
                raise
            print(f"{args.input}: kernel failure ({type(e).__name__}: {e}); running again",
                  file=sys.stderr)
            continue
        break
    # The wait for `go` is neither the kernel's start nor the cells'.
    ended = time.monotonic()
    waited = gate.get("waited", 0)
    elapsed = ended - started - waited
    cells_seconds = ended - ready[0] if ready else elapsed
    nb.metadata.setdefault("kit", {})["execution_seconds"] = round(elapsed, 2)
    # A temporary name of the kit's form (<path>.tmp-<pid>-<random>), so that a later run sweeps
    # it when this process is killed outright; removed when the write fails (a full disk).
    tmp = args.output + f".tmp-{os.getpid()}-{secrets.token_hex(4)}"
    try:
        with open(tmp, "w", encoding="utf-8") as f:
            nbformat.write(nb, f)
        os.replace(tmp, args.output)
    except OSError as e:
        try:
            os.remove(tmp)
        except OSError:
            pass
        print(f"could not write the executed notebook: {e.strerror} (errno {e.errno}); "
              "nothing was written", file=sys.stderr)
        return 3
    except UnicodeEncodeError as e:  # a lone surrogate (\ud800) in a cell: not UTF-8
        try:
            os.remove(tmp)
        except OSError:
            pass
        bad = e.object[e.start:e.end].encode("unicode_escape").decode("ascii")
        print(f"{args.input}: the notebook holds text that is not valid Unicode ({bad}, a lone "
              "surrogate): it cannot be saved as UTF-8; nothing was written", file=sys.stderr)
        return 1
    if status == 0:
        print(json.dumps({
            "notebook": args.input,
            "seconds": round(elapsed, 2),
            "cells_seconds": round(cells_seconds, 2),
            "waited_seconds": round(waited, 2),
            "cells": sum(1 for c in nb.cells if c.cell_type == "code"),
        }))
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
