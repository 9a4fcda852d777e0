#!/usr/bin/python3
"""nbconvert's command line, served: one process converts many notebooks.

Usage: /usr/bin/python3 nbconvert_server.py

Reads one request a line on stdin, a JSON object {"args": [...], "cwd": "..."} where args is what
follows `python3 -m nbconvert` on a command line, and answers each with one JSON line on stdout,
{"ok": true|false, "stderr": "..."}: what that command would have printed on stderr, and whether it
succeeded. Each request is a new NbConvertApp, initialized from its arguments and the Jupyter
config files as `python3 -m nbconvert` initializes it, so a page is the one the command line
writes (tests/report/nbconvert_server_test.ts compares them byte for byte); only the imports,
about 0.7 s of the command's 1.2 s, are paid once (nbconvert.ts), and nbformat's schema, which
each request would compile about eleven times, is compiled once (`compile_schema_once`).

The server ends at the end of its input, and with its parent: it asks Linux for SIGTERM when the
process that started it dies (a killed `./kit report` must not leave it behind).
"""

import contextlib
import ctypes
import io
import json
import os
import signal
import sys

PR_SET_PDEATHSIG = 1


def die_with_parent() -> None:
    """SIGTERM when the parent dies (Linux); nothing where unsupported."""
    try:
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
    except (OSError, AttributeError):
        pass


def compile_schema_once() -> None:
    """nbformat's JSON schema compiled once per server, not about eleven times a request.

    nbconvert validates the notebook after each preprocessor with `relax_add_props=True`, and
    for that nbformat 5.5 compiles its schema anew (fastjsonschema, about 0.035 s each time).
    The compiled function is a pure function of the schema: it is kept by the schema's whole
    JSON, so a request validates exactly as a new process does; nbformat's own cache, and what
    it replaces there, are left as they are. (The templates are not cached across requests: what
    Jinja compiles depends on the exporter's environment, its filters and delimiters, not only
    on the template's text.)
    """
    import fastjsonschema

    original_compile = fastjsonschema.compile
    compiled = {}

    def compile_schema(definition, *args, **kwargs):
        if args or kwargs:
            return original_compile(definition, *args, **kwargs)
        key = json.dumps(definition, sort_keys=True)
        if key not in compiled:
            compiled[key] = original_compile(definition)
        return compiled[key]

    fastjsonschema.compile = compile_schema


def convert(args: list, cwd) -> dict:
    """Runs nbconvert's command line `args` in `cwd` (None: where the server is): whether it
    succeeded, and its stderr."""
    from nbconvert.nbconvertapp import NbConvertApp

    captured = io.StringIO()
    path = list(sys.path)
    ok = True
    # stdout carries the answers: whatever nbconvert prints goes with its stderr instead. Its
    # log handler is made on each app's start from sys.stderr (traitlets' logging config).
    with contextlib.redirect_stderr(captured), contextlib.redirect_stdout(captured):
        try:
            if cwd:
                os.chdir(cwd)
            app = NbConvertApp()
            app.initialize(args)
            app.start()
        except SystemExit as e:  # a usage error or a failed conversion: the command's exit
            ok = e.code in (0, None)
        except Exception as e:  # noqa: BLE001 - the command line would print it and exit 1
            import traceback
            traceback.print_exc()
            ok = False
        finally:
            sys.path[:] = path
    return {"ok": ok, "stderr": captured.getvalue()}


def main() -> int:
    parent = os.getppid()
    die_with_parent()
    if os.getppid() != parent:
        return 143  # the parent died before the request took effect
    # The imports once, before the first request.
    import nbconvert.nbconvertapp  # noqa: F401
    import nbconvert.exporters  # noqa: F401
    compile_schema_once()
    answers = sys.stdout
    for line in sys.stdin:
        if not line.strip():
            continue
        request = json.loads(line)
        answer = convert(request["args"], request.get("cwd"))
        answers.write(json.dumps(answer) + "\n")
        answers.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
