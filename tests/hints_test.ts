/**
 * Hints that work: what a message of the library suggests (a TypeScript call or option, a
 * command line) runs when pasted. {@link CODE_HINTS} and {@link COMMAND_HINTS} are every hint
 * the scan of `lib/` finds (`hints_scan.ts`), each with a trigger that makes the library say it
 * on real input (the bundled samples, temporary files, the corpora from `../shared/datasets`
 * as `--mirror`), a pattern that takes the suggestion out of the message, and a check that runs
 * it: TypeScript as a module importing `lib/mod.ts` with the names the message uses bound to the
 * failing input (then type-checked together), command lines through the kit's command line.
 * {@link NOT_HINTS} lists what the scan finds that is no hint, each with the reason. Every other
 * command line in a message is checked against the command grammar (`lib/cli/`).
 */
import assert from "node:assert/strict";
import * as kit from "../lib/mod.ts";
import { PROJECT_ROOT } from "../lib/data/paths.ts";
import { runCli, serveLib } from "./helpers.ts";
import {
  callHints,
  commandHints,
  commandProblem,
  HOLE,
  libMessages,
  type Message,
  optionHints,
  publicNames,
} from "./hints_scan.ts";
import {
  codeModule,
  denoByUrl,
  MIRROR,
  MOD,
  removeTemps,
  runCommand,
  runModule,
  runModuleByUrl,
  stderrOf,
  tempDir,
  thrown,
} from "./hints_run.ts";

const RUNS = `${PROJECT_ROOT}/data/samples/runs`;
const CROSS_ENCODER = `${PROJECT_ROOT}/tests/fixtures/tiny-model/cross-encoder`;
const QA_MODEL = `${PROJECT_ROOT}/tests/fixtures/tiny-model/qa`;
const PAIRS = [{ question: "who wrote the book", candidate: "she wrote the book in 1990" }];
const NO_MIRROR = "no ../shared/datasets here (the fetch the message names needs it offline)";

/** What a trigger gives: the message, the values of the names the hint uses, what else. */
interface Triggered {
  message: string;
  bind: Record<string, unknown>;
  context?: Record<string, unknown>;
  /** The kit's URL when the message came from the kit imported by URL (the code runs so). */
  url?: string;
  cleanup?: () => Promise<void>;
}

/** A TypeScript call or option a message suggests. */
interface CodeHint {
  /** The file the message is in. */
  file: string;
  /** What the scan finds of it in that file (`callHints`, `optionHints`). */
  finds: string[];
  /** Makes the library say it; a string is why this machine cannot (said, not failed). */
  trigger(): Promise<Triggered | string>;
  /** The suggestion in the message (group 1). */
  extract: RegExp;
  /** The code run: the suggestion itself, else this call with `$` standing for the option. */
  code?: string;
  /** The names the code uses that the message or the call binds, with their TypeScript types. */
  params: Record<string, string>;
  /** That it worked: what the code gave is right. */
  check(value: unknown, t: Triggered): Promise<void> | void;
}

/** A command line a message suggests, run as pasted. */
interface CommandHint {
  file: string;
  trigger(): Promise<Triggered | string>;
  /** The command line in the message (group 1). */
  extract: RegExp;
  /** The command line as run: placeholders filled, offline flags added. */
  fill(line: string[], t: Triggered): string[];
  check(out: { code: number; stdout: string; stderr: string }, t: Triggered): Promise<void> | void;
}

/** Whether `path` is a folder here. */
function isFolder(path: string): boolean {
  try {
    return Deno.statSync(path).isDirectory;
  } catch {
    return false;
  }
}

/** A WikiQA test run numbered like `WikiQA-test.ref`, as a file, from BM25's scores. */
async function refNumberedRun(): Promise<
  { file: string; split: Awaited<ReturnType<typeof kit.loadSplit>> }
> {
  // The folder the hint's loadSplit reads by default (the fetched corpus, else the samples).
  const split = await kit.loadSplit("wikiqa", "test");
  const scored = await kit.scoreSplit("lexical:bm25", "wikiqa", "test", { filter: "raw" });
  const byId = kit.runFromScores(scored.questions, scored.scores);
  const lines = split.all.flatMap((q, i) =>
    q.candidates.map((c, j) => `${i + 1} Q0 ${j} 0 ${byId.get(q.id)!.get(c.id)} bm25`)
  );
  const file = `${await tempDir()}/bm25-ref.run`;
  await Deno.writeTextFile(file, lines.join("\n") + "\n");
  return { file, split };
}

/** Two sample runs' per-query MAP, the second without the first question: unlike sets. */
async function unlikeQuerySets() {
  const qrels = await kit.readQrels(`${RUNS}/wikiqa-test-clean.qrels`);
  const a = await kit.readRun(`${RUNS}/wikiqa-test.run`);
  const b = new Map([...a].slice(1));
  const values = (run: kit.Run) => kit.queryValues(qrels, run, ["map"], { warn: false }).perQuery;
  const message = await thrown(() => kit.compareSystems({ a: values(a), b: values(b) }, ["map"]));
  return { message, bind: { qrels, a, b, systems: { a: values(a), b: values(b) } } };
}

/** A script by URL that prints the message of what `call` (code using `loadSplit`) throws. */
async function messageByUrl(url: string, dir: string, call: string): Promise<string> {
  await Deno.writeTextFile(
    `${dir}/why.ts`,
    `Deno.env.delete("QA_KIT_DATA_DIR");\nconst { loadSplit } = await import("${url}/lib/mod.ts");\n` +
      `try { ${call}; console.log("null"); } catch (e) { console.log(JSON.stringify(e.message)); }\n`,
  );
  const out = await denoByUrl(["why.ts"], dir, url);
  assert.equal(out.code, 0, out.stderr);
  const message = JSON.parse(out.stdout);
  assert.equal(typeof message, "string", `${call} by URL threw nothing`);
  return message;
}

/** Every TypeScript hint of `lib/`'s messages, with its trigger and its check. */
const CODE_HINTS: CodeHint[] = [
  {
    file: "lib/metrics/engine/query_evaluator.ts",
    finds: ["renumberRun(", "loadSplit("],
    async trigger() {
      const { file, split } = await refNumberedRun();
      const run = await kit.readRun(file);
      const qrels = kit.qrelsFromQuestions(split.questions);
      const message = await thrown(() => kit.evaluate(qrels, run, ["map"], { warn: false }));
      return { message, bind: { run }, context: { qrels, file } };
    },
    extract: /`(renumberRun\(.*?\)\.run)`/,
    params: { run: "kit.Run" },
    async check(value, t) {
      const { qrels, file } = t.context as { qrels: kit.Qrels; file: string };
      const mine = kit.evaluate(qrels, value as kit.Run, ["map", "recip_rank"], { warn: false });
      const cli = await runCli([
        "eval",
        "as2",
        "--dataset",
        "wikiqa",
        "--split",
        "test",
        file,
        "--json",
      ]);
      assert.equal(cli.code, 0, cli.stderr);
      const printed = JSON.parse(cli.stdout);
      assert.match(cli.stderr, /WikiQA-test\.ref/); // eval as2 recognised the numbering
      assert.deepEqual(
        { numQ: mine.numQ, map: mine.summary.map, recip_rank: mine.summary.recip_rank },
        { numQ: printed.numQ, map: printed.map, recip_rank: printed.recip_rank },
      );
    },
  },
  {
    file: "lib/stats/query_set.ts",
    finds: ['queries: "intersection"'],
    trigger: unlikeQuerySets,
    extract: /\((?:--intersect), or (queries: "intersection")\)/,
    code: 'compareSystems(systems, ["map"], { $ })',
    params: { systems: "Record<string, Map<string, Record<string, number>>>" },
    check(value) {
      assert.equal((value as { numQ: number }).numQ, 3); // the queries both runs cover
    },
  },
  {
    file: "lib/stats/query_set.ts",
    finds: ["complete: true"],
    trigger: unlikeQuerySets,
    extract: /\(with -c, or (complete: true),/,
    code: 'compareSystems({ a: queryValues(qrels, a, ["map"], { $, warn: false }).perQuery, ' +
      'b: queryValues(qrels, b, ["map"], { $, warn: false }).perQuery }, ["map"])',
    params: { qrels: "kit.Qrels", a: "kit.Run", b: "kit.Run" },
    check(value) {
      assert.equal((value as { numQ: number }).numQ, 4); // every query of the qrels
    },
  },
  {
    file: "lib/scoring/model/crossencoder.ts",
    finds: ["scoreCache: false"],
    async trigger() {
      // A cache folder that cannot be made: /proc takes no new folder, even for root.
      if (!isFolder("/proc")) return "no /proc here";
      const { value: scores, stderr } = await stderrOf(async () => {
        const ce = await kit.loadCrossEncoder(CROSS_ENCODER, {
          backend: "cpu",
          scoreCache: "/proc/kit-hints-cache",
        });
        return await ce.scorePairs(PAIRS).finally(() => ce.close());
      });
      return { message: stderr, bind: { model: CROSS_ENCODER }, context: { scores } };
    },
    extract: /\((scoreCache: false) in TypeScript\)/,
    code: 'await loadCrossEncoder(model, { backend: "cpu", $ })',
    params: { model: "string" },
    async check(value, t) {
      const ce = value as Awaited<ReturnType<typeof kit.loadCrossEncoder>>;
      const { value: scores, stderr } = await stderrOf(() =>
        ce.scorePairs(PAIRS).finally(() => ce.close())
      );
      assert.equal(stderr, ""); // no cache, no warning
      assert.deepEqual([...scores], [...(t.context!.scores as Float32Array)]);
    },
  },
  {
    file: "lib/scoring/model/inspect.ts",
    finds: ["softwareAdapter: true"],
    async trigger() {
      const row = await kit.backendAgreement(CROSS_ENCODER, PAIRS);
      const note = Object.values(row).find((v) => /software adapter/.test(String(v)));
      if (note === undefined) return `no software WebGPU adapter here (${JSON.stringify(row)})`;
      return { message: String(note), bind: { model: CROSS_ENCODER, pairs: PAIRS } };
    },
    extract: /\((softwareAdapter: true)\)/,
    code: "await backendAgreement(model, pairs, { $ })",
    params: { model: "string", pairs: "{ question: string; candidate: string }[]" },
    check(value) {
      const row = value as Record<string, unknown>;
      const key = Object.keys(row).find((k) => k.startsWith("max |webgpu - "));
      assert(key && Number(row[key]) < 1e-4, JSON.stringify(row)); // scored on it, and agrees
    },
  },
  {
    file: "lib/data/paths.ts",
    finds: ["dir: DIR"],
    async trigger() {
      if (!MIRROR) return NO_MIRROR;
      const server = serveLib();
      const dir = await tempDir();
      const call = 'await loadSplit("wikiqa", "test", { dir: "samples" })';
      const message = await messageByUrl(server.url, dir, call);
      // The folder filled as the message says (offline: from the mirror).
      const fetch = /'(deno run -A \S+ data fetch wikiqa --dir DIR)'/.exec(message);
      assert(fetch, message);
      const line = fetch[1].replaceAll("DIR", `${dir}/corpora`).split(" ");
      const fetched = await runCommand([...line, "--mirror", MIRROR], dir);
      assert.equal(fetched.code, 0, fetched.stderr);
      return {
        message,
        bind: { DIR: `${dir}/corpora` },
        url: server.url,
        cleanup: () => server.close(),
      };
    },
    extract: /\((dir: DIR), filled by/,
    code: 'await loadSplit("wikiqa", "test", { $ })',
    params: { DIR: "string" },
    check(value, t) {
      const split = value as { questions: unknown[]; dir: string; isSample: boolean };
      assert(split.questions.length > 0 && !split.isSample);
      assert.equal(split.dir, t.bind.DIR);
    },
  },
];

/** The command lines of messages that the tests run (the grammar test checks every other). */
const COMMAND_HINTS: CommandHint[] = [
  {
    file: "lib/data/paths.ts",
    async trigger() {
      if (!MIRROR) return NO_MIRROR;
      const server = serveLib();
      const dir = await tempDir();
      const message = await messageByUrl(server.url, dir, 'await loadSplit("wikiqa", "test")');
      assert.match(message, /set QA_KIT_DATA_DIR to a folder for the corpora/);
      return { message, bind: { dir }, url: server.url, cleanup: () => server.close() };
    },
    extract: /\(fill one with '(deno run -A [^']*)'\)/,
    fill: (
      line,
      t,
    ) => [...line.map((w) => w === "DIR" ? `${t.bind.dir}/corpora` : w), "--mirror", MIRROR!],
    async check(out, t) {
      assert.equal(out.code, 0, out.stderr);
      const env = { QA_KIT_DATA_DIR: `${t.bind.dir}/corpora` };
      await Deno.writeTextFile(
        `${t.bind.dir}/load.ts`,
        `import { loadSplit } from "${t.url}/lib/mod.ts";\n` +
          'console.log((await loadSplit("trecqa", "test")).isSample);\n',
      );
      const load = await denoByUrl(["load.ts"], t.bind.dir as string, t.url!, env);
      assert.equal(load.stdout.trim(), "false", load.stderr); // the fetched corpus
    },
  },
  {
    file: "lib/data/installed.ts",
    async trigger() {
      if (!MIRROR) return NO_MIRROR;
      const dir = await tempDir();
      const fetched = await runCli(["data", "fetch", "wikiqa", "--dir", dir, "--mirror", MIRROR]);
      assert.equal(fetched.code, 0, fetched.stderr);
      const marker = `${dir}/wikiqa/.installed.json`;
      await Deno.writeTextFile(marker, (await Deno.readTextFile(marker)).slice(0, 50));
      const message = await thrown(() => kit.loadSplit("wikiqa", "test", { dir }));
      return { message, bind: { dir } };
    },
    extract: /the install marker is damaged; run '([^']*)'/,
    fill: (line) => [...line, "--mirror", MIRROR!],
    async check(out, t) {
      assert.equal(out.code, 0, out.stderr);
      const split = await kit.loadSplit("wikiqa", "test", { dir: t.bind.dir as string });
      assert(!split.isSample && split.questions.length > 0);
    },
  },
  {
    file: "lib/qqa23/score.ts",
    async trigger() {
      if (!MIRROR) return NO_MIRROR; // qqa23 has no bundled sample
      const dir = await tempDir();
      const fetched = await runCli(["data", "fetch", "qqa23", "--dir", dir, "--mirror", MIRROR]);
      assert.equal(fetched.code, 0, fetched.stderr);
      const args = ["--model", "lexical:bm25", "--dataset", "qqa23", "--split", "dev"];
      const scored = await runCli(["score", ...args, "--dir", dir, "--out", `${dir}/run.tsv`]);
      assert.equal(scored.code, 0, scored.stderr);
      return { message: scored.stderr, bind: { dir } };
    },
    extract: /\(evaluate with: (\.\/kit eval qqa23 [^)]*)\)/,
    fill: (line) => line,
    check(out) {
      assert.equal(out.code, 0, out.stderr);
      assert.match(out.stdout, /map_cut_10/);
    },
  },
  {
    file: "lib/qrcd/score.ts",
    async trigger() {
      const dir = await tempDir();
      const args = ["--model", QA_MODEL, "--backend", "cpu", "--dataset", "qrcd", "--split", "dev"];
      const scored = await runCli(["score", ...args, "--dir", "samples", "--out", `${dir}/x.json`]);
      assert.equal(scored.code, 0, scored.stderr);
      return { message: scored.stderr, bind: { dir } };
    },
    extract: /\(evaluate with: (\.\/kit eval qrcd [^)]*)\)/,
    fill: (line) => line,
    check(out) {
      assert.equal(out.code, 0, out.stderr);
      assert.equal(typeof JSON.parse(out.stdout).pRR, "number");
    },
  },
];

/** What the scan finds that is no hint to paste, by file (a pattern), each with the reason. */
const NOT_HINTS: { file: RegExp; finds: string[]; why: string }[] = [
  {
    file: /^lib\/bench\/torch_anchor\.ts$/,
    finds: ["runpy.run_path(", "json.dumps("],
    why: "the Python the benchmark runs (the PyTorch anchor), not a message",
  },
  {
    file: /^lib\/report\/.*execute\.ts$/,
    finds: ["importlib.import_module(", "json.dumps("],
    why: "the Python that lists the Jupyter packages' versions, not a message",
  },
  {
    file: /^lib\/(report\/.*(check|maths|slides)|plot\/display)\.ts$/,
    finds: ["*"],
    why: "JavaScript run in the page or the browser (figures, the page check), not a message",
  },
  {
    file: /^lib\/report\/build\/syllabus\.ts$/,
    finds: ["*"],
    why: "the syllabus's warm-up cell, shown as code (tests/report/syllabus_test.ts runs it)",
  },
  {
    file: /^lib\/metrics\/measures\/(extra|help|ir_measures)\.ts$/,
    finds: ["nDCG(", "NumRel("],
    why: "measure names in ir_measures' syntax (nDCG(dcg='exp-log2')@k), not calls",
  },
];

/** Command lines the grammar test leaves out, each with the reason. */
const NOT_COMMANDS: { file: RegExp; line: string; why: string }[] = [
  {
    file: /^lib\/tasks\/as2\.ts$/,
    line: "score --model lexical:bm25",
    why:
      "a baseline's row of docs/datasets.md's task table: how it is made, dataset and split the row's",
  },
  {
    file: /^lib\/tasks\/as2\.ts$/,
    line: "score --model ltr",
    why:
      "a baseline's row of docs/datasets.md's task table: how it is made, dataset and split the row's",
  },
];

/** The local modules the code hints ran as, type-checked together at the end. */
const ranModules: string[] = [];

for (const h of CODE_HINTS) {
  Deno.test(`hint: ${h.file}: ${h.finds.join(", ")} runs as pasted`, async () => {
    const t = await h.trigger();
    if (typeof t === "string") return console.error(`not running the hint of ${h.file}: ${t}`);
    try {
      const m = h.extract.exec(t.message);
      assert(m, `${h.file}: the message does not hold the hint:\n${t.message}`);
      assert(h.finds.some((f) => m[1].includes(f.replace(/\($/, ""))), m[1]);
      const code = h.code ? h.code.replaceAll("$", m[1]) : m[1];
      const text = await codeModule(code, h.params, t.url ? `${t.url}/lib/mod.ts` : MOD);
      if (!t.url) ranModules.push(text);
      const value = t.url
        ? await runModuleByUrl(text, t.bind, t.url)
        : await runModule(text, t.bind);
      await h.check(value, t);
    } finally {
      await t.cleanup?.();
      await removeTemps();
    }
  });
}

for (const h of COMMAND_HINTS) {
  Deno.test(`hint: ${h.file}: its command line runs as pasted`, async () => {
    const t = await h.trigger();
    if (typeof t === "string") return console.error(`not running the command of ${h.file}: ${t}`);
    try {
      const m = h.extract.exec(t.message);
      assert(m, `${h.file}: the message does not hold the command:\n${t.message}`);
      const line = m[1].split(" ");
      const start = line[0] === "./kit" ? 1 : line[1] === "task" ? 2 : 4;
      assert.equal(await commandProblem(line.slice(start)), undefined);
      const cwd = (t.bind.dir as string | undefined) ?? Deno.cwd();
      await h.check(await runCommand(h.fill(line, t), cwd), t);
    } finally {
      await t.cleanup?.();
      await removeTemps();
    }
  });
}

/** Every call or option the scan finds in `lib/`'s messages, as `file: find`. */
async function foundHints(): Promise<{ file: string; find: string; message: Message }[]> {
  const names = await publicNames();
  return libMessages().flatMap((message) =>
    [...callHints(message.text, names), ...optionHints(message.text)].map((find) => ({
      file: message.file,
      find,
      message,
    }))
  );
}

Deno.test("hints: every call or option a message of lib/ suggests is in the table", async () => {
  const found = await foundHints();
  const inTable = (file: string, find: string) =>
    CODE_HINTS.some((h) => h.file === file && h.finds.includes(find));
  const notHint = (file: string, find: string) =>
    NOT_HINTS.some((x) => x.file.test(file) && (x.finds.includes(find) || x.finds[0] === "*"));
  const missing = found.filter((f) => !inTable(f.file, f.find) && !notHint(f.file, f.find));
  assert.deepEqual(
    missing.map((f) => `${f.file}:${f.message.line}: ${f.find} in "${f.message.text}"`),
    [],
    "hints not in CODE_HINTS (add each, with a trigger and a check) nor in NOT_HINTS",
  );
  // And nothing in the table that the scan no longer finds (a hint reworded or moved).
  const stale = [
    ...CODE_HINTS.flatMap((h) =>
      h.finds.filter((f) => !found.some((x) => x.file === h.file && x.find === f))
        .map((f) => `CODE_HINTS: ${h.file}: ${f}`)
    ),
    ...NOT_HINTS.filter((x) => !found.some((f) => x.file.test(f.file)))
      .map((x) => `NOT_HINTS: ${x.file}`),
  ];
  assert.deepEqual(stale, [], "entries the scan no longer finds");
});

Deno.test("hints: every command line a message of lib/ suggests fits the command grammar", async () => {
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const message of libMessages()) {
    for (const args of commandHints(message.text)) {
      const shown = args.join(" ").replaceAll(HOLE, "${...}");
      const skip = NOT_COMMANDS.find((x) => x.file.test(message.file) && x.line === shown);
      if (skip) {
        seen.add(`${skip.file} ${skip.line}`);
        continue;
      }
      const problem = await commandProblem(args);
      if (problem) problems.push(`${message.file}:${message.line}: '${shown}': ${problem}`);
    }
  }
  assert.deepEqual(problems, []);
  const stale = NOT_COMMANDS.filter((x) => !seen.has(`${x.file} ${x.line}`));
  assert.deepEqual(stale, [], "NOT_COMMANDS entries the scan no longer finds");
  for (const h of COMMAND_HINTS) assert(Deno.statSync(`${PROJECT_ROOT}/${h.file}`).isFile, h.file);
});

Deno.test("hints: the scan and the checks catch a hint that does not work", async () => {
  const names = await publicNames();
  // The hint this table was made for: renumberRun returns { run, unmapped }, not a run.
  assert.deepEqual(callHints("renumberRun(run, split) maps it (lib/mod.ts)", names), [
    "renumberRun(",
  ]);
  assert.deepEqual(callHints("2 question(s) of the run; MAP(clean)", names), []);
  const { file, split } = await refNumberedRun();
  const run = await kit.readRun(file);
  await removeTemps();
  const old = await runModule(
    await codeModule("renumberRun(run, split)", {
      run: "kit.Run",
      split: "Awaited<ReturnType<typeof kit.loadSplit>>",
    }),
    { run, split },
  );
  assert.match(
    await thrown(() =>
      kit.evaluate(kit.qrelsFromQuestions(split.questions), old as kit.Run, ["map"])
    ),
    /is not iterable|is not a function/,
  );
  await removeTemps();
  await assert.rejects(() => codeModule("readSplit(x)", { x: "string" }), /neither a public name/);
  assert.deepEqual(optionHints('(--intersect, or queries: "intersection")'), [
    'queries: "intersection"',
  ]);
  // Command lines: a missing argument, an unknown command or flag, a flag without its value.
  assert.match((await commandProblem(["data", "fetch", "--dir", "DIR"]))!, /at least 1/);
  assert.match((await commandProblem(["eval", "nope"]))!, /no command/);
  assert.match((await commandProblem(["eval", "qqa23", "dev", "r", "--split", "x"]))!, /Unknown/);
  assert.match((await commandProblem(["data", "fetch", "wikiqa", "--dir"]))!, /argument missing/);
  assert.deepEqual(commandHints("(fill one with 'deno task data fetch all --dir DIR'), or"), [
    ["data", "fetch", "all", "--dir", "DIR"],
  ]);
  assert.equal(await commandProblem(["eval", "qqa23", HOLE, HOLE + HOLE]), undefined);
});

Deno.test("hints: the TypeScript the hints ran type-checks as a user's module would", async () => {
  if (ranModules.length === 0) return console.error("no hint module ran: nothing to check");
  const dir = await Deno.makeTempDir({ prefix: "kit-hints-check-" });
  const files = ranModules.map((_, i) => `${dir}/hint${i}.ts`);
  ranModules.forEach((text, i) => Deno.writeTextFileSync(files[i], text));
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["check", "--no-config", "--no-lock", ...files],
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert(out.success, new TextDecoder().decode(out.stderr));
  await Deno.remove(dir, { recursive: true });
});
