/**
 * The kit is imported by path or by URL, with no configuration: every import in `lib/` is relative,
 * `node:` or a full pinned `npm:name@x.y.z` specifier (deno.json's import map serves only the
 * tests), and `lib/` has no import cycle.
 */
import assert from "node:assert/strict";
import { PROJECT_ROOT } from "../lib/data/paths.ts";
import { libFiles, serveLib } from "./helpers.ts";

/** The specifiers a file imports or re-exports, statically or with `import("...")`. */
function specifiers(text: string): string[] {
  const code = text.replace(/^\s*\*.*$/gm, ""); // JSDoc lines (examples import too)
  const found = [
    ...code.matchAll(/^\s*(?:import|export)\b[^;]*?\bfrom\s+"([^"]+)"/gms),
    ...code.matchAll(/\bimport\(\s*"([^"]+)"\s*\)/g),
  ];
  return found.map((m) => m[1]);
}

const PINNED = /^npm:(@?[^@/]+(?:\/[^@/]+)?)@(\d+\.\d+\.\d+)(\/.*)?$/;

Deno.test("import: lib/ names its packages by full pinned npm: specifiers, one version each", () => {
  const imports = JSON.parse(Deno.readTextFileSync(`${PROJECT_ROOT}/deno.json`)).imports as Record<
    string,
    string
  >;
  const versions = new Map<string, string>(); // package -> version, across lib/ and deno.json
  const bad: string[] = [];
  const note = (pkg: string, version: string, where: string) => {
    const seen = versions.get(pkg);
    if (seen && seen !== version) bad.push(`${where}: ${pkg}@${version} beside ${pkg}@${seen}`);
    versions.set(pkg, version);
  };
  for (const target of Object.values(imports)) {
    const m = PINNED.exec(target);
    if (m) note(m[1], m[2], "deno.json");
  }
  let npm = 0;
  for (const file of libFiles()) {
    for (const s of specifiers(Deno.readTextFileSync(`${PROJECT_ROOT}/${file}`))) {
      if (s.startsWith("./") || s.startsWith("../") || s.startsWith("node:")) continue;
      const m = PINNED.exec(s);
      if (!m) {
        bad.push(`${file}: '${s}' needs a config to resolve (write npm:name@x.y.z)`);
        continue;
      }
      npm++;
      note(m[1], m[2], file);
    }
  }
  assert.deepEqual(bad, []);
  assert(npm >= 5, `only ${npm} npm: imports found in lib/: is the scan still right?`);
});

/** The bundled sample run and its qrels. */
const RUNS = `${PROJECT_ROOT}/data/samples/runs`;

Deno.test("import: a script outside the repository imports lib/mod.ts with no config", async () => {
  const dir = await Deno.makeTempDir({ prefix: "kit-outside-" });
  try {
    const mod = new URL("../lib/mod.ts", import.meta.url).href;
    await Deno.writeTextFile(
      `${dir}/script.ts`,
      `import { evaluate, evaluateTrecFiles, loadSplit, qrelsFromQuestions, runFromScores } from "${mod}";
const { questions } = await loadSplit("wikiqa", "test", { filter: "clean", dir: "samples" });
const scores = questions.flatMap((q) => q.candidates.map((_, i) => -i));
const r = evaluate(qrelsFromQuestions(questions), runFromScores(questions, scores), ["map"]);
const f = await evaluateTrecFiles("${RUNS}/wikiqa-test-clean.qrels", "${RUNS}/wikiqa-test.run", ["map"], { warn: false });
console.log(JSON.stringify({ questions: questions.length, map: r.summary.map, file: f.summary.map }));
`,
    );
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--no-config", "--no-lock", "-A", "script.ts"],
      cwd: dir,
      env: { NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const stderr = new TextDecoder().decode(out.stderr);
    assert(out.success, `the outside script failed:\n${stderr}`);
    const got = JSON.parse(new TextDecoder().decode(out.stdout));
    // The same numbers in this process, through the import map's world.
    const { evaluate, evaluateTrecFiles, loadSplit, qrelsFromQuestions, runFromScores } =
      await import(mod);
    const { questions } = await loadSplit("wikiqa", "test", { filter: "clean", dir: "samples" });
    const scores = questions.flatMap((q: { candidates: unknown[] }) =>
      q.candidates.map((_, i) => -i)
    );
    const r = evaluate(qrelsFromQuestions(questions), runFromScores(questions, scores), ["map"]);
    const f = await evaluateTrecFiles(
      `${RUNS}/wikiqa-test-clean.qrels`,
      `${RUNS}/wikiqa-test.run`,
      ["map"],
      { warn: false },
    );
    assert.deepEqual(got, { questions: questions.length, map: r.summary.map, file: f.summary.map });
    assert(got.questions > 0);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("import: a script imports the kit by http URL, with no config, and evaluates", async () => {
  const { url, close } = serveLib();
  const dir = await Deno.makeTempDir({ prefix: "kit-url-" });
  try {
    await Deno.writeTextFile(`${dir}/q.qrels`, "q1 0 d1 1\nq1 0 d2 0\nq2 0 d3 1\n");
    await Deno.writeTextFile(
      `${dir}/r.run`,
      "q1 Q0 d2 1 0.9 x\nq1 Q0 d1 2 0.5 x\nq2 Q0 d3 1 1 x\n",
    );
    await Deno.writeTextFile(
      `${dir}/script.ts`,
      `import { evaluate, evaluateTrecFiles, loadSplit } from "${url}/lib/mod.ts";
const qrels = new Map([["q1", new Map([["d1", 1], ["d2", 0]])], ["q2", new Map([["d3", 1]])]]);
const run = new Map([["q1", new Map([["d2", 0.9], ["d1", 0.5]])], ["q2", new Map([["d3", 1]])]]);
const memory = evaluate(qrels, run, ["map", "P.1"]).summary;
const files = (await evaluateTrecFiles("q.qrels", "r.run", ["map", "P.1"])).summary;
let samples = "";
try { await loadSplit("wikiqa", "test", { filter: "raw", dir: "samples" }); } catch (e) { samples = String(e); }
console.log(JSON.stringify({ memory, files, samples }));
`,
    );
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--no-config", "--no-lock", `--reload=${url}`, "-A", "script.ts"],
      cwd: dir,
      env: { NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert(
      out.success,
      `the script importing by URL failed:\n${new TextDecoder().decode(out.stderr)}`,
    );
    const got = JSON.parse(new TextDecoder().decode(out.stdout));
    // By hand: q1's relevant d1 at rank 2 (AP 1/2, P@1 0), q2's d3 at rank 1 (AP 1, P@1 1).
    assert.deepEqual(got.memory, { map: 0.75, P_1: 0.5 });
    assert.deepEqual(got.files, got.memory);
    // The samples are a folder of the kit, which a URL import does not bring: a clear error.
    assert.match(
      got.samples,
      /^KitError: no bundled samples here: data\/samples is a folder of the kit/,
    );
    assert.match(got.samples, new RegExp(`imported from ${url}/`));
  } finally {
    await close();
    await Deno.remove(dir, { recursive: true });
  }
});

/** The cycles among `lib/`'s modules, each as the files in order (from `deno info --json`). */
async function libCycles(): Promise<string[][]> {
  // deno info takes one root: a temporary module importing every file of lib/.
  const root = await Deno.makeTempFile({ prefix: "kit-graph-", suffix: ".ts" });
  const lib = new URL("../lib/", import.meta.url).href;
  await Deno.writeTextFile(root, libFiles().map((f) => `import "${lib}${f.slice(4)}";\n`).join(""));
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", "--no-config", root],
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output().finally(() => Deno.remove(root));
  assert(out.success, new TextDecoder().decode(out.stderr));
  const info = JSON.parse(new TextDecoder().decode(out.stdout)) as {
    modules: {
      specifier: string;
      dependencies?: { code?: { specifier: string }; type?: { specifier: string } }[];
    }[];
  };
  const edges = new Map<string, string[]>();
  for (const m of info.modules) {
    if (!m.specifier.startsWith(lib)) continue;
    const to = (m.dependencies ?? []).flatMap((d) => [d.code?.specifier, d.type?.specifier])
      .filter((s): s is string => s !== undefined && s.startsWith(lib));
    edges.set(m.specifier.slice(lib.length), [...new Set(to.map((s) => s.slice(lib.length)))]);
  }
  return cyclesOf(edges);
}

/** Every elementary cycle's smallest representative (Tarjan's components, then a walk in each). */
function cyclesOf(edges: Map<string, string[]>): string[][] {
  const cycles = new Map<string, string[]>();
  const walk = (start: string, node: string, path: string[], seen: Set<string>) => {
    for (const next of edges.get(node) ?? []) {
      if (next === start) {
        const key = [...path].sort().join(" ");
        if (!cycles.has(key)) cycles.set(key, [...path, start]);
      } else if (!seen.has(next) && next > start) {
        seen.add(next);
        walk(start, next, [...path, next], seen);
        seen.delete(next);
      }
    }
  };
  for (const start of [...edges.keys()].sort()) walk(start, start, [start], new Set([start]));
  return [...cycles.values()];
}

Deno.test("import: no import cycle in lib/", async () => {
  const cycles = await libCycles();
  assert.deepEqual(cycles.map((c) => c.join(" -> ")), []);
});

Deno.test("import: the cycle finder finds a cycle", () => {
  const edges = new Map([["a.ts", ["b.ts"]], ["b.ts", ["c.ts"]], ["c.ts", ["a.ts", "d.ts"]]]);
  assert.deepEqual(cyclesOf(edges), [["a.ts", "b.ts", "c.ts", "a.ts"]]);
  assert.deepEqual(cyclesOf(new Map([["a.ts", ["b.ts"]], ["b.ts", []]])), []);
});

/**
 * The modules `eval trec` loads before it reads a byte (the entry point, the command, the halves'
 * worker), following static imports only: a dynamic `import("node:zlib")` runs when a gzip file
 * is met, a static one on every start.
 */
async function staticGraph(entry: string): Promise<string[]> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", "--no-config", new URL(entry, import.meta.url).href],
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert(out.success, new TextDecoder().decode(out.stderr));
  const info = JSON.parse(new TextDecoder().decode(out.stdout)) as {
    roots: string[];
    modules: {
      specifier: string;
      dependencies?: { code?: { specifier: string }; isDynamic?: boolean }[];
    }[];
  };
  const deps = new Map(info.modules.map((m) => [m.specifier, m.dependencies ?? []]));
  const seen = new Set<string>(info.roots);
  const todo = [...info.roots];
  while (todo.length) {
    for (const d of deps.get(todo.pop()!) ?? []) {
      const s = d.code?.specifier;
      if (s && !d.isDynamic && !seen.has(s)) seen.add(s), todo.push(s);
    }
  }
  return [...seen];
}

Deno.test("import: eval trec loads no Node module and no corpus module at start-up", async () => {
  // node:crypto (the corpus verification's, through the data paths) cost 0.05-0.08 s of CPU on
  // every start of `eval trec` (docs/performance.md, "Start-up").
  for (const entry of ["../lib/cli/main.ts", "../lib/cli/eval_trec.ts"]) {
    const loaded = await staticGraph(entry);
    assert(
      loaded.some((s) => s.endsWith("/lib/metrics/evaluate_files.ts")) || entry.endsWith("main.ts"),
    );
    assert.deepEqual(
      loaded.filter((s) => s.startsWith("node:") || /\/lib\/(data\/paths|scoring)\b/.test(s)),
      [],
      entry,
    );
  }
});
