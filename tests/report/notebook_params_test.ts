/**
 * What every notebook's first and last cells use: the parameters read from the environment
 * (`notebookParams`, `corpusDir`) and the headline numbers carried to the report's index.
 */
import "../quick.ts";
import assert from "node:assert/strict";
import { HEADLINE_MIME, headlineBundle, headlinesOf } from "../../lib/report/notebook/headline.ts";
import { corpusDir, notebookParams } from "../../lib/report/notebook/params.ts";
import { KitError } from "../../lib/errors.ts";

Deno.test("headlines round-trip through a notebook's outputs, order kept", () => {
  const bundle = headlineBundle({ title: "t", numbers: { z: 1, MAP: 0.5, a: "x" } });
  // Through JSON with sorted keys, as nbformat writes notebooks.
  const sorted = JSON.parse(
    JSON.stringify(
      bundle,
      (_k, v) =>
        v && typeof v === "object" && !Array.isArray(v)
          ? Object.fromEntries(
            Object.entries(v).sort(([a], [b]) => a < b ? -1 : 1),
          )
          : v,
    ),
  );
  const nb = {
    cells: [{ outputs: [{ data: { "text/plain": "x" } }] }, { outputs: [{ data: sorted }] }],
  };
  const [h] = headlinesOf(nb);
  assert.equal(h.title, "t");
  assert.deepEqual(Object.keys(h.numbers), ["z", "MAP", "a"]);
  assert.ok(HEADLINE_MIME.startsWith("application/"));
});

Deno.test("notebook parameters: defaults, checks, real data must be fetched", () => {
  assert.deepEqual(notebookParams({}), { data: "sample", backend: "auto" });
  assert.deepEqual(notebookParams({ KIT_DATA: "real", KIT_BACKEND: "cpu", KIT_MODEL: "m" }), {
    data: "real",
    backend: "cpu",
    model: "m",
  });
  assert.throws(() => notebookParams({ KIT_DATA: "full" }), /KIT_DATA must be/);
  assert.equal(notebookParams({ KIT_BACKEND: "wasm" }).backend, "wasm");
  assert.throws(() => notebookParams({ KIT_BACKEND: "cuda" }), /KIT_BACKEND must be/);
  const saved = Deno.env.get("QA_KIT_DATA_DIR");
  Deno.env.set("QA_KIT_DATA_DIR", "/nonexistent-kit-cache");
  try {
    assert.throws(() => corpusDir({ data: "real", backend: "cpu" }, "wikiqa"), KitError);
    assert.match(corpusDir({ data: "sample", backend: "cpu" }, "wikiqa"), /data\/samples$/);
  } finally {
    if (saved === undefined) Deno.env.delete("QA_KIT_DATA_DIR");
    else Deno.env.set("QA_KIT_DATA_DIR", saved);
  }
});
