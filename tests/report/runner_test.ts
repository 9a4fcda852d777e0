/**
 * The notebook runner on the real Deno kernel: every output sent with the kit's awaited
 * `display` is kept (the kernel sometimes reports idle before a cell's outputs; `display` is the
 * kit's one cure, and the runner is plain nbclient), parameters reach the kernel, colour codes
 * are off, and a failing cell fails with its source and error.
 */
import assert from "node:assert/strict";
import { KitError } from "../../lib/errors.ts";
import { executeNotebook } from "../../lib/report/build/execute.ts";
import { denoNotebook } from "./notebook_fixture.ts";

/** The kit's public API by absolute URL, as a notebook anywhere imports it. */
const MOD = new URL("../../lib/mod.ts", import.meta.url).href;

interface Cell {
  cell_type: string;
  source: string;
  outputs?: {
    output_type: string;
    data?: Record<string, string | string[]>;
    text?: string | string[];
  }[];
}

/** nbformat stores multi-line text as a list of lines. */
function text(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v.join("") : v;
}

async function run(sources: string[], params = { data: "sample" as const }) {
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(`${dir}/t.ipynb`, denoNotebook(sources));
  const result = await executeNotebook(`${dir}/t.ipynb`, `${dir}/out.ipynb`, params);
  const cells = (JSON.parse(await Deno.readTextFile(`${dir}/out.ipynb`)) as { cells: Cell[] })
    .cells;
  return { result, cells, dir };
}

Deno.test("runner keeps the output of every cell, passes parameters, no ANSI colour", async () => {
  const n = 40;
  const sources = [
    `import { display, markdown } from "${MOD}";\n` +
    `const data = Deno.env.get("KIT_DATA"); const model = Deno.env.get("KIT_MODEL");\n` +
    `await display({ [Symbol.for("Jupyter.display")]: () => ({ "text/plain": Deno.inspect([data, model]) }) });`,
    ...Array.from({ length: n }, (_, i) => `await display(markdown("cell ${i}"));`),
    `console.log("printed"); await display({ [Symbol.for("Jupyter.display")]: () => ({ "text/plain": "{ answer: 42 }" }) });`,
  ];
  const { result, cells } = await run(sources, { data: "sample", model: "tiny" } as never);
  assert.equal(result.cells, n + 2);
  assert.equal(text(cells[0].outputs![0].data!["text/plain"]), '[ "sample", "tiny" ]');
  for (let i = 0; i < n; i++) {
    const outs = cells[i + 1].outputs!;
    assert.equal(outs.length, 1, `cell ${i + 1} lost its output`);
    assert.equal(text(outs[0].data!["text/markdown"]), `cell ${i}`);
  }
  const last = cells[n + 1].outputs!;
  assert.equal(text(last[0].text), "printed\n");
  assert.equal(text(last[1].data!["text/plain"]), "{ answer: 42 }");
  assert.ok(!JSON.stringify(cells).includes("\\u001b["), "ANSI escape codes in outputs");
});

Deno.test("a failing cell fails the run with its source and error", async () => {
  const err = await run([
    "const ok = 1;",
    'function explode() { throw new Error("boom 17"); }\nexplode()',
    '"never reached"',
  ]).then(() => undefined, (e) => e);
  assert.ok(err instanceof KitError, `expected KitError, got ${err}`);
  assert.match(err.message, /cell 1 failed/);
  assert.match(err.message, /function explode\(\) \{ throw new Error\("boom 17"\); \}/);
  assert.match(err.message, /Error: boom 17/);
});
