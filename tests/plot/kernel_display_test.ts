/**
 * `display` on the real Deno kernel, read by a plain Jupyter client (jupyter_client, as
 * nbclient and Notebook use it): cells sent at once (Run All) with large outputs must get
 * every output before their `idle`, under their own cell, with no garbled message ("Invalid
 * Signature"); and plotly.js must be embedded where the rules of `lib/plot/show.ts` say.
 */
import assert from "node:assert/strict";
import { LIBRARY_MARK } from "../../lib/plot/display.ts";

Deno.test({
  name: "display on the Deno kernel: outputs before idle, right cell, plotly.js where needed",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const script = new URL("./kernel_display.py", import.meta.url).pathname;
    const mod = new URL("../../lib/plot/mod.ts", import.meta.url).href;
    const out = await new Deno.Command("/usr/bin/python3", {
      args: [script, mod, LIBRARY_MARK],
      env: { NO_COLOR: "1", PYDEVD_DISABLE_FILE_VALIDATION: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const stderr = new TextDecoder().decode(out.stderr);
    assert.ok(out.success, stderr);
    const r = JSON.parse(new TextDecoder().decode(out.stdout).trim().split("\n").pop()!);
    assert.equal(r.invalid, 0, "garbled messages");
    assert.equal(r.late, 0, "outputs after their cell's idle");
    assert.equal(r.wrong_cell, 0, "outputs under another cell");
    assert.equal(r.missing_idle, 0, "cells never reported idle");
    assert.deepEqual(r.displays, [1, 1, 1, 1, 1, 1, 1, 1]);
    assert.deepEqual(r.carries, {
      "first figure": [true],
      "second figure": [false],
      "first cell again": [true],
      "second cell again": [false],
      "after a frontend connects": [true],
      "another cell": [false],
      "that cell again (the carrier now)": [true],
      "embedLibraryAgain": [true],
      "two figures in a cell": [true, false],
    });
  },
});
