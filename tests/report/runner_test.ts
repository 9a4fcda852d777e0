/**
 * The notebook runner on the real Deno kernel: every output sent with the kit's awaited
 * `display` is kept (the kernel sometimes reports idle before a cell's outputs; `display` is the
 * kit's one cure, and the runner is plain nbclient), parameters reach the kernel, colour codes
 * are off, and a failing cell fails with its source and error.
 */
import assert from "node:assert/strict";
import { KitError } from "../../lib/errors.ts";
import {
  executeNotebook,
  jupyterPython,
  kitKernelspec,
  paramsEnv,
  RUNNER,
} from "../../lib/report/build/execute.ts";
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
  // The notebook is named once (as the error's file), not twice.
  assert.equal(err.message.split("t.ipynb").length - 1, 1, err.message);
});

Deno.test("a notebook whose cells have no ids runs; a failing cell's error is the cell's alone", async () => {
  // nbformat 4.5 asks for cell ids, and nbformat warns on stderr when a notebook has none
  // (MissingIDFieldWarning): not the failing cell's problem, so not in its error.
  const withoutIds = (sources: string[]) => {
    const nb = JSON.parse(denoNotebook(sources));
    for (const c of nb.cells) delete c.id;
    return JSON.stringify(nb);
  };
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(`${dir}/ok.ipynb`, withoutIds(["const a = 1;", "a + 1"]));
  const result = await executeNotebook(`${dir}/ok.ipynb`, `${dir}/ok.out.ipynb`, {
    data: "sample",
  });
  assert.equal(result.cells, 2);
  const cells = JSON.parse(await Deno.readTextFile(`${dir}/ok.out.ipynb`)).cells as {
    id?: string;
  }[];
  assert.ok(cells.every((c) => typeof c.id === "string" && c.id.length > 0), "ids given");
  await Deno.writeTextFile(
    `${dir}/bad.ipynb`,
    withoutIds(["const b = 2;", 'throw new Error("boom 23")']),
  );
  const err = await executeNotebook(`${dir}/bad.ipynb`, `${dir}/bad.out.ipynb`, { data: "sample" })
    .then(() => undefined, (e) => e);
  assert.ok(err instanceof KitError, String(err));
  assert.match(err.message, /cell 1 failed/);
  assert.match(err.message, /boom 23/);
  assert.doesNotMatch(err.message, /MissingIDField|missing an id/, err.message);
  await Deno.remove(dir, { recursive: true });
});

/** The process ids whose parent is `pid` (Linux's /proc). */
function childrenOf(pid: number): number[] {
  const found: number[] = [];
  for (const e of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(e.name)) continue;
    try {
      const stat = Deno.readTextFileSync(`/proc/${e.name}/stat`);
      if (Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === pid) {
        found.push(Number(e.name));
      }
    } catch { /* it ended meanwhile */ }
  }
  return found;
}

/** Whether process `pid` is still running (neither gone nor a zombie). */
function alive(pid: number): boolean {
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

/**
 * A cell that shows the file `input` (through the kit's awaited `display`: a `console.log`'s
 * output can be lost under load, docs/notebooks.md "Every output, every time"), failing when the
 * file is not there.
 */
function readsInput(input: string): string {
  return `import { display, markdown } from "${MOD}";\n` +
    `await display(markdown(Deno.readTextFileSync(${JSON.stringify(input)})));`;
}

/** The output a cell of {@link readsInput} showed. */
function shown(cell: Cell): string | undefined {
  return text(cell.outputs?.[0]?.data?.["text/markdown"]);
}

/** The runner with --wait on a notebook whose one cell shows the file `input`. */
async function waitingRunner(dir: string) {
  await Deno.writeTextFile(
    `${dir}/t.ipynb`,
    denoNotebook([readsInput(`${dir}/input`)]),
  );
  const child = new Deno.Command(jupyterPython(), {
    args: [RUNNER, `${dir}/t.ipynb`, `${dir}/out.ipynb`, "--wait"],
    env: paramsEnv({ data: "sample" }),
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const lines = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let seen = "";
  while (!seen.includes('{"waiting": true}\n')) {
    const chunk = await lines.read();
    if (chunk.done) break;
    seen += chunk.value;
  }
  return { child, lines, seen, stdin: child.stdin.getWriter() };
}

Deno.test("with --wait the runner starts its kernel, then runs no cell before go", async () => {
  const dir = await Deno.makeTempDir();
  const { child, lines, seen, stdin } = await waitingRunner(dir);
  assert.match(seen, /"waiting": true/);
  assert.equal(childrenOf(child.pid).filter(alive).length, 1, "the kernel is up, waiting");
  // The cell would fail without its input: it has not run, and runs once told.
  await Deno.writeTextFile(`${dir}/input`, "written before go");
  await stdin.write(new TextEncoder().encode("go\n"));
  await stdin.close();
  let rest = "";
  for (let c = await lines.read(); !c.done; c = await lines.read()) rest += c.value;
  const status = await child.status;
  const stderr = await new Response(child.stderr).text();
  assert.equal(status.code, 0, stderr);
  const summary = JSON.parse(rest.trim().split("\n").pop()!);
  assert.ok(summary.waited_seconds >= 0 && summary.cells_seconds > 0, rest);
  const nb = JSON.parse(await Deno.readTextFile(`${dir}/out.ipynb`)) as { cells: Cell[] };
  assert.equal(shown(nb.cells[0]), "written before go");
  await Deno.remove(dir, { recursive: true });
});

Deno.test("with --wait, the end of its input stops the runner and its kernel: no cell, no file", async () => {
  const dir = await Deno.makeTempDir();
  const { child, lines, stdin } = await waitingRunner(dir);
  const kernels = childrenOf(child.pid);
  assert.equal(kernels.length, 1);
  await stdin.close();
  while (!(await lines.read()).done) { /* its output, to the end */ }
  const status = await child.status;
  await child.stderr.cancel();
  assert.equal(status.code, 4);
  assert.ok(!alive(kernels[0]), "the kernel outlived its runner");
  assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name), ["t.ipynb"]);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("executeNotebook with startWhen: the cells run once it resolves; a rejection stops it", async () => {
  const dir = await Deno.makeTempDir();
  const input = `${dir}/input`;
  await Deno.writeTextFile(
    `${dir}/t.ipynb`,
    denoNotebook([readsInput(input)]),
  );
  const params = { data: "sample" as const };
  // Resolved once the input is written: without the wait the cell would fail.
  const written = Promise.resolve().then(() => Deno.writeTextFile(input, "the systems' numbers"));
  const result = await executeNotebook(`${dir}/t.ipynb`, `${dir}/out.ipynb`, params, {
    startWhen: written,
  });
  assert.equal(result.cells, 1);
  const nb = JSON.parse(await Deno.readTextFile(`${dir}/out.ipynb`)) as { cells: Cell[] };
  assert.equal(shown(nb.cells[0]), "the systems' numbers");
  await Deno.remove(`${dir}/out.ipynb`);
  const refused = new KitError("the runs could not be read");
  const err = await executeNotebook(`${dir}/t.ipynb`, `${dir}/out.ipynb`, params, {
    startWhen: Promise.reject(refused),
  }).then(() => undefined, (e) => e);
  assert.equal(err, refused);
  assert.ok(!(await Deno.stat(`${dir}/out.ipynb`).catch(() => false)), "a notebook was written");
  await Deno.remove(dir, { recursive: true });
});

Deno.test("a notebook with text that is not valid Unicode (a lone surrogate) fails in one line, nothing written", async () => {
  const dir = await Deno.makeTempDir();
  const source = JSON.parse(denoNotebook(['"ran"']));
  source.cells.unshift({
    id: "m",
    cell_type: "markdown",
    metadata: {},
    source: "# T\n\nbad \ud800",
  });
  await Deno.writeTextFile(`${dir}/t.ipynb`, JSON.stringify(source));
  const err = await executeNotebook(`${dir}/t.ipynb`, `${dir}/out.ipynb`, { data: "sample" })
    .then(() => undefined, (e) => e);
  assert.ok(err instanceof KitError, String(err));
  assert.match(err.message, /not valid Unicode \(\\ud800, a lone surrogate\)/);
  assert.ok(!err.message.includes("Traceback"), err.message);
  assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name), ["t.ipynb"]);
  await Deno.remove(dir, { recursive: true });
});

/** Writes `dir/kernels/NAME/kernel.json`: the kit's kernelspec, its program `program`. */
async function writeKernelspec(dir: string, name: string, program: string): Promise<string> {
  const spec = `${dir}/kernels/${name}/kernel.json`;
  await Deno.mkdir(`${dir}/kernels/${name}`, { recursive: true });
  const kit = kitKernelspec();
  await Deno.writeTextFile(spec, JSON.stringify({ ...kit, argv: [program, ...kit.argv.slice(1)] }));
  return spec;
}

/** A user-wide kernelspec folder whose `deno` names a Deno that is gone (a deleted checkout). */
async function staleKernelspec(): Promise<{ dir: string; spec: string; gone: string }> {
  const dir = await Deno.makeTempDir();
  const gone = `${dir}/deleted-checkout/.tools/node_modules/.bin/deno`;
  return { dir, spec: await writeKernelspec(dir, "deno", gone), gone };
}

Deno.test("a notebook runs on the kit's own Deno whatever the user-wide kernelspec names", async () => {
  const stale = await staleKernelspec();
  const before = Deno.env.get("JUPYTER_DATA_DIR"), tmp = Deno.env.get("TMPDIR");
  Deno.env.set("JUPYTER_DATA_DIR", stale.dir); // where Jupyter looks for the user's kernelspecs
  // The kit's temporary folders (its kernelspec's among them) under a path holding a `:`, the
  // separator of `JUPYTER_PATH`'s entries.
  await Deno.mkdir(`${stale.dir}/tmp:colon`);
  Deno.env.set("TMPDIR", `${stale.dir}/tmp:colon`);
  try {
    // Shown with the kit's awaited display: a bare expression's result may come after the
    // kernel's idle, and be lost (docs/notebooks.md).
    const { result, cells, dir } = await run([
      `import { display, markdown } from "${MOD}";\nawait display(markdown(Deno.execPath()));`,
    ]);
    assert.equal(result.cells, 1);
    assert.equal(shown(cells[0]), Deno.execPath());
    await Deno.remove(dir, { recursive: true });
  } finally {
    if (before === undefined) Deno.env.delete("JUPYTER_DATA_DIR");
    else Deno.env.set("JUPYTER_DATA_DIR", before);
    if (tmp === undefined) Deno.env.delete("TMPDIR");
    else Deno.env.set("TMPDIR", tmp);
    await Deno.remove(stale.dir, { recursive: true });
  }
});

Deno.test("a kernel that cannot start fails the runner in one line, nothing written", async (t) => {
  const stale = await staleKernelspec();
  // The program the kernelspec names: gone (a deleted checkout), not executable, a script
  // without an interpreter line, a folder, a program that exits at once.
  const cases: [string, (program: string) => Promise<void>, string][] = [
    ["gone", () => Promise.resolve(), "No such file or directory"],
    [
      "not executable",
      (p) => Deno.writeTextFile(p, "#!/bin/sh\n", { mode: 0o644 }),
      "Permission denied",
    ],
    [
      "no interpreter line",
      (p) => Deno.writeTextFile(p, "not a program\n", { mode: 0o755 }),
      "Exec format error",
    ],
    ["a folder", (p) => Deno.mkdir(p), "Permission denied"],
    [
      "exits at once",
      (p) =>
        Deno.writeTextFile(p, "#!/bin/sh\necho no launcher here >&2\nexit 1\n", { mode: 0o755 }),
      "it exited before answering",
    ],
  ];
  for (const [what, make, error] of cases) {
    await t.step(what, async () => {
      await Deno.remove(stale.gone, { recursive: true }).catch(() => {});
      await Deno.mkdir(stale.gone.slice(0, stale.gone.lastIndexOf("/")), { recursive: true });
      await make(stale.gone);
      const dir = await Deno.makeTempDir();
      await Deno.writeTextFile(`${dir}/t.ipynb`, denoNotebook(['"ran"']));
      const out = await new Deno.Command(jupyterPython(), {
        args: ["-Xfrozen_modules=off", RUNNER, `${dir}/t.ipynb`, `${dir}/out.ipynb`],
        env: { ...paramsEnv({ data: "sample" }), JUPYTER_PATH: stale.dir },
        stdout: "null",
        stderr: "piped",
      }).output();
      const stderr = new TextDecoder().decode(out.stderr).trim();
      assert.equal(out.code, 2, stderr);
      // The kernel's own words first (one that ran), then one line; not run a second time.
      const exited = error.startsWith("it exited");
      assert.deepEqual(
        stderr.split("\n").filter((l) => !l.includes('"deno jupyter" is unstable')),
        [
          ...(exited ? ["no launcher here"] : []),
          `${dir}/t.ipynb: the Jupyter kernel 'deno' could not start: ` +
          (exited ? error : `${error}: ${stale.gone}`) +
          ` (its kernelspec: ${stale.spec})`,
        ],
      );
      assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name), ["t.ipynb"]);
      await Deno.remove(dir, { recursive: true });
    });
  }
  await Deno.remove(stale.dir, { recursive: true });
});

Deno.test("the runner finds kernelspecs in IPython's folder too, without importing IPython", async () => {
  const ipython = await Deno.makeTempDir();
  await writeKernelspec(ipython, "deno-ipython", Deno.execPath());
  const dir = await Deno.makeTempDir();
  const source = JSON.parse(denoNotebook([
    `import { display, markdown } from "${MOD}";\n` +
    `await display(markdown("ran in " + Deno.env.get("KIT_DATA")));`,
  ]));
  source.metadata.kernelspec.name = "deno-ipython";
  await Deno.writeTextFile(`${dir}/t.ipynb`, JSON.stringify(source));
  const out = await new Deno.Command(jupyterPython(), {
    // -X importtime: every module imported, one line each on stderr.
    args: [
      "-Xfrozen_modules=off",
      "-X",
      "importtime",
      RUNNER,
      `${dir}/t.ipynb`,
      `${dir}/out.ipynb`,
    ],
    env: { ...paramsEnv({ data: "sample" }), IPYTHONDIR: ipython },
    stdout: "null",
    stderr: "piped",
  }).output();
  const stderr = new TextDecoder().decode(out.stderr);
  assert.equal(
    out.code,
    0,
    stderr.split("\n").filter((l) => !l.startsWith("import time:")).join("\n"),
  );
  const nb = JSON.parse(await Deno.readTextFile(`${dir}/out.ipynb`)) as { cells: Cell[] };
  assert.equal(shown(nb.cells[0]), "ran in sample");
  const imported = stderr.split("\n").filter((l) => /^import time:.*\| +IPython(\.|$)/.test(l));
  assert.deepEqual(imported, [], "the runner imported IPython");
  await Deno.remove(dir, { recursive: true });
  await Deno.remove(ipython, { recursive: true });
});
