/**
 * `deno task bench eval`: the evaluation engine on seeded synthetic runs of 1k, 10k and 100k
 * queries x 100 candidates, side by side in one run with the floor (reading both files and
 * looking at every byte once, one core: `floor.ts`), the previous engine (a revision of this
 * repository, extracted with `git archive` into a temporary folder) and trec_eval 9.0.8 (when
 * built; it matches queries by linear scan, so it is timed up to `--trec-eval-max` queries,
 * `--trec-eval-repeats` times). Each tool runs as users run it (a subprocess, `eval trec`
 * with map, recip_rank, P.5 and ndcg_cut.10), the tools alternating, `--repeats` times; the
 * median wall time, CPU time, lines and MB per second, peak RSS, the time over the floor's
 * and trec_eval's time over each tool's are printed, and every output must be
 * byte-identical. Start-up is timed on one-line files. The smallest size is first checked
 * against the brute-force reference; `--profile` splits the kit's time on each size into the
 * stages of its route (one thread, in-process, with the CPU time of that evaluation).
 *
 * @module
 */
import process from "node:process";
import { KitError } from "../errors.ts";
import { integerFlag, parseFlags, str } from "../cli/args.ts";
import type { Command } from "../cli/command.ts";
import { PROJECT_ROOT } from "../data/paths.ts";
import { evaluateTrecFiles } from "../metrics/evaluate_files.ts";
import { readQrels, readRun } from "../metrics/read_files.ts";
import { type StageTimes } from "../metrics/types.ts";
import { REFERENCE_MEASURES, referenceEvaluate } from "../metrics/measures/reference.ts";
import { quantileSorted } from "../stats/significance.ts";
import { writeSynthetic } from "./synthetic.ts";
import { writeFileAtomic } from "../io/atomic.ts";
import { trecEvalBinary } from "./trec_eval.ts";
import { previousEngine } from "./revision.ts";

const MEASURES = ["-m", "map", "-m", "recip_rank", "-m", "P.5", "-m", "ndcg_cut.10"];

/** The engine this one replaced (issue 26): main before it. */
export const PREVIOUS_ENGINE = "5ccdf83";

/** One timed tool on one size (the median of its runs). */
export interface EvalBenchRow {
  queries: number;
  tool: string;
  seconds: number;
  /** Every run's wall time, in the order run. */
  runs: number[];
  runLines: number;
  inputMB: number;
  peakRssMB: number;
  /** Whether this is the start-up row (one-line files), not a synthetic size. */
  startup?: boolean;
  /** Median CPU seconds (user + system, every thread; sampled every 20 ms). */
  cpuSeconds: number;
  output: string;
}

/** A command to time. */
export interface Tool {
  name: string;
  cmd: string;
  args: (qrels: string, run: string) => string[];
  cwd?: string;
}

/** Peak RSS (kB) and CPU seconds (user + system, every thread) of a running process so far. */
function procSample(pid: number): { peakKb: number; cpu: number } {
  try {
    const status = Deno.readTextFileSync(`/proc/${pid}/status`);
    const m = /VmHWM:\s*(\d+)/.exec(status);
    // /proc/PID/stat: the fields after the command's closing parenthesis; utime and stime are
    // the 12th and 13th of them, in clock ticks (100 per second on Linux).
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return { peakKb: m ? Number(m[1]) : 0, cpu: (Number(f[11]) + Number(f[12])) / 100 };
  } catch {
    return { peakKb: 0, cpu: 0 };
  }
}

/**
 * GNU time (Debian `time`): it reads the peak RSS and CPU time of the command it ran from the
 * kernel when the command ends (wait4), so a tool that ends within milliseconds (trec_eval on a
 * small input) is measured too; sampling /proc can miss it. Without it, /proc is sampled.
 */
const GNU_TIME = (() => {
  try {
    return Deno.statSync("/usr/bin/time").isFile ? "/usr/bin/time" : undefined;
  } catch {
    return undefined;
  }
})();

/** Runs a command once, measuring its peak RSS and CPU time (the kit also reports its peak). */
export async function timedOnce(tool: Tool, qrels: string, run: string) {
  const t0 = performance.now();
  const args = tool.args(qrels, run);
  const child = new Deno.Command(GNU_TIME ?? tool.cmd, {
    args: GNU_TIME ? ["-f", "peak-rss-kb: %M\ncpu-seconds: %U %S", tool.cmd, ...args] : args,
    cwd: tool.cwd,
    stdout: "piped",
    stderr: "piped",
    env: { QA_KIT_PEAK_RSS: "1", NO_COLOR: "1" },
  }).spawn();
  // Without GNU time: sampled at once too, as a quick tool may end within 20 ms.
  let { peakKb: peak, cpu } = GNU_TIME ? { peakKb: 0, cpu: 0 } : procSample(child.pid);
  const poll = GNU_TIME ? undefined : setInterval(() => {
    const now = procSample(child.pid);
    peak = Math.max(peak, now.peakKb);
    cpu = Math.max(cpu, now.cpu);
  }, 20);
  const out = await child.output();
  clearInterval(poll);
  const seconds = (performance.now() - t0) / 1000;
  const stderr = new TextDecoder().decode(out.stderr);
  for (const m of stderr.matchAll(/peak-rss-kb: (\d+)/g)) peak = Math.max(peak, Number(m[1]));
  const used = /cpu-seconds: ([\d.]+) ([\d.]+)/.exec(stderr);
  if (used) cpu = Number(used[1]) + Number(used[2]);
  if (!out.success) {
    // The end of a long standard error: where a failing command says why.
    const said = stderr.trim();
    const tail = said.length > 1500 ? `...${said.slice(-1500)}` : said;
    throw new KitError(`${tool.name} failed (exit ${out.code}): ${tail}`);
  }
  return { seconds, peakKb: peak, cpu, stdout: new TextDecoder().decode(out.stdout) };
}

/** Compares the kit's file evaluation with the brute-force reference; the values compared. */
export async function checkAgainstReference(qrelsPath: string, runPath: string): Promise<number> {
  const obj = (m: Map<string, Map<string, number>>) =>
    Object.fromEntries([...m].map(([q, d]) => [q, Object.fromEntries(d)]));
  const want = referenceEvaluate(
    obj(await readQrels(qrelsPath)),
    obj(await readRun(runPath)),
    REFERENCE_MEASURES,
  );
  const got = await evaluateTrecFiles(qrelsPath, runPath, REFERENCE_MEASURES, { warn: false });
  let compared = 0;
  for (const [m, v] of Object.entries(want.summary)) {
    if (Math.abs(got.summary[m] - v) > 1e-12) {
      throw new KitError(`bench check failed: ${m} kit ${got.summary[m]} vs reference ${v}`);
    }
    compared++;
  }
  for (const [q, row] of Object.entries(want.perQuery)) {
    for (const [m, v] of Object.entries(row)) {
      if (Math.abs(got.perQuery.get(q)![m] - (v as number)) > 1e-12) {
        throw new KitError(`bench check failed: ${q} ${m}`);
      }
      compared++;
    }
  }
  return compared;
}

/**
 * Where the kit's time goes, in seconds: one evaluation on this thread with a clock read
 * between the stages of the route (a few per query).
 */
export async function profileEval(qrelsPath: string, runPath: string): Promise<StageTimes> {
  const times: StageTimes = {
    "read the qrels": 0,
    "read the run": 0,
    judge: 0,
    rank: 0,
    measures: 0,
    summary: 0,
  };
  await evaluateTrecFiles(qrelsPath, runPath, ["map", "recip_rank", "P.5", "ndcg_cut.10"], {
    times,
    threads: 1,
    warn: false,
  });
  return times;
}

export function fmt(x: number, d = 2): string {
  return x.toFixed(d);
}

/** A ratio with two significant digits or more (0.031x, 2.4x, 41.2x). */
export function ratio(x: number): string {
  return `${x >= 10 ? x.toFixed(1) : x >= 1 ? x.toFixed(2) : x.toPrecision(2)}x`;
}

/** Options of {@link benchEval}. */
export interface EvalBenchOptions {
  sizes: number[];
  candidates: number;
  seed: number;
  dir: string;
  profile: boolean;
  /** Timed runs per tool and size (the median is reported; default 3). */
  repeats?: number;
  /** trec_eval's runs per size, at most `repeats` (default 1: about 70 s at 100,000 queries). */
  trecEvalRepeats?: number;
  /** The previous engine's revision (default {@link PREVIOUS_ENGINE}; `false`: none). */
  previous?: string | false;
  /** trec_eval is timed up to this many queries (default 100,000). */
  trecEvalMax?: number;
  log?: (s: string) => void;
}

/** The floor's name in the rows: reading both files and looking at every byte once, one core. */
export const FLOOR = "floor: read both files, every byte once";

/** Median of a list of numbers. */
export function median(xs: number[]): number {
  return quantileSorted([...xs].sort((a, b) => a - b), 0.5);
}

/** Runs the tools alternating, `repeats` times (trec_eval `trecEvalRepeats`); their rows. */
async function timeTools(
  tools: Tool[],
  f: { qrels: string; run: string; runLines: number; inputMB: number; queries: number },
  repeats: number,
  trecEvalRepeats: number,
): Promise<EvalBenchRow[]> {
  const runs = tools.map(() => [] as Awaited<ReturnType<typeof timedOnce>>[]);
  for (let i = 0; i < repeats; i++) {
    for (const [t, tool] of tools.entries()) {
      if (tool.name === TREC_EVAL && i >= trecEvalRepeats) continue;
      runs[t].push(await timedOnce(tool, f.qrels, f.run));
    }
  }
  // Every run of a tool must print what its first run printed (checkIdentical then compares
  // the tools' first runs with each other).
  tools.forEach((tool, t) => {
    if (tool.name === FLOOR) return;
    const differs = runs[t].findIndex((r) => r.stdout !== runs[t][0].stdout);
    if (differs > 0) {
      throw new KitError(`${tool.name}: run ${differs + 1} printed other output than run 1`);
    }
  });
  return tools.map((tool, t) => ({
    queries: f.queries,
    tool: tool.name,
    seconds: median(runs[t].map((r) => r.seconds)),
    runs: runs[t].map((r) => r.seconds),
    cpuSeconds: median(runs[t].map((r) => r.cpu)),
    runLines: f.runLines,
    inputMB: f.inputMB,
    peakRssMB: Math.max(...runs[t].map((r) => r.peakKb)) / 1024,
    output: runs[t][0].stdout,
  }));
}

const TREC_EVAL = "trec_eval 9.0.8";

/**
 * The `--v8-flags=...` argument of the `eval` task in `dir`'s deno.json (none when it has
 * none): the benchmark runs each engine with the flags its own task gives it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { evalTaskV8Flags } from "./eval.ts";
 * const dir = await Deno.makeTempDir();
 * const task = "deno run --allow-all --v8-flags=--no-maglev lib/cli/main.ts eval";
 * await Deno.writeTextFile(`${dir}/deno.json`, JSON.stringify({ tasks: { eval: task } }));
 * assert.deepEqual(evalTaskV8Flags(dir), ["--v8-flags=--no-maglev"]);
 * ```
 */
export function evalTaskV8Flags(dir: string): string[] {
  const config = JSON.parse(Deno.readTextFileSync(`${dir}/deno.json`));
  const task: string = config.tasks?.eval ?? "";
  return task.split(/\s+/).filter((arg) => arg.startsWith("--v8-flags="));
}

/** Runs the benchmark and prints its tables; returns the rows. */
export async function benchEval(options: EvalBenchOptions): Promise<EvalBenchRow[]> {
  const log = options.log ?? ((s: string) => console.log(s));
  const repeats = options.repeats ?? 3;
  const trecEvalRepeats = Math.min(repeats, options.trecEvalRepeats ?? 1);
  const trecEvalMax = options.trecEvalMax ?? 100_000;
  const kit = (dir: string, name: string, threads?: number): Tool => {
    // As `deno task eval` runs it: the V8 flags of that revision's task (read once).
    const v8Flags = evalTaskV8Flags(dir);
    return {
      name,
      cmd: Deno.execPath(),
      cwd: dir,
      args: (q, r) => [
        "run",
        "--allow-all",
        ...v8Flags,
        `${dir}/lib/cli/main.ts`,
        "eval",
        "trec",
        ...MEASURES,
        ...(threads === undefined ? [] : ["--threads", String(threads)]),
        q,
        r,
      ],
    };
  };
  const floor: Tool = {
    name: FLOOR,
    cmd: Deno.execPath(),
    cwd: PROJECT_ROOT,
    args: (q, r) => ["run", "--allow-all", `${PROJECT_ROOT}/lib/bench/floor.ts`, q, r],
  };
  const tools: Tool[] = [
    floor,
    kit(PROJECT_ROOT, "kit eval trec"),
    kit(PROJECT_ROOT, "kit eval trec --threads 1", 1),
  ];
  const rev = options.previous === undefined ? PREVIOUS_ENGINE : options.previous;
  const { dir: previousDir, note: previousNote } = await previousEngine(rev);
  if (previousDir) {
    tools.push(kit(previousDir, `previous engine (${rev})`));
    tools.push(kit(previousDir, `previous engine (${rev}) --threads 1`, 1));
  }
  const trecEval = trecEvalBinary();
  const trecEvalTool: Tool | undefined = trecEval
    ? { name: TREC_EVAL, cmd: trecEval, args: (q, r) => [...MEASURES, q, r] }
    : undefined;
  const load = () => Deno.loadavg().map((x) => x.toFixed(1)).join(" ");
  log(
    `machine: ${navigator.hardwareConcurrency} CPUs, load average ${load()} at the start ` +
      "(shared with other work: compare the ratios within this run)",
  );
  log(previousNote);
  log(
    trecEval
      ? `trec_eval: ${trecEval} (timed up to ${trecEvalMax} queries, ${trecEvalRepeats} ` +
        "run(s) per size: it matches queries by linear scan)"
      : "trec_eval: not built (set TREC_EVAL or build .tools/trec_eval-9.0.8/trec_eval)",
  );
  const rows: EvalBenchRow[] = [];
  await Deno.mkdir(options.dir, { recursive: true });
  try {
    for (const queries of options.sizes) {
      console.error(`generating ${queries} x ${options.candidates} (seed ${options.seed}) ...`);
      const f = await writeSynthetic(options.dir, {
        queries,
        candidates: options.candidates,
        seed: options.seed,
      });
      if (queries === Math.min(...options.sizes)) {
        const n = await checkAgainstReference(f.qrels, f.run);
        log(`check: ${queries} queries, ${n} values equal to the brute-force reference (1e-12)`);
      }
      const here = [...tools];
      if (trecEvalTool && queries <= trecEvalMax) here.push(trecEvalTool);
      // The tools alternate, so that a change in the machine's load hits all of them alike.
      const inputMB = (f.qrelsBytes + f.runBytes) / 1e6;
      const timed = await timeTools(here, { ...f, inputMB, queries }, repeats, trecEvalRepeats);
      checkIdentical(timed, `${queries} queries`);
      rows.push(...timed);
      log(`${queries}: outputs byte-identical (${here.slice(1).map((t) => t.name).join(", ")})`);
    }
    // Start-up: one judgment, one result line.
    const one = {
      qrels: `${options.dir}/one-line-qrels.txt`,
      run: `${options.dir}/one-line-run.txt`,
    };
    await writeFileAtomic(one.qrels, "q1 0 d1 1\n", { force: true });
    await writeFileAtomic(one.run, "q1 Q0 d1 1 1.5 run\n", { force: true });
    const startTools = tools.filter((t) => !t.name.endsWith("--threads 1"));
    if (trecEvalTool) startTools.push(trecEvalTool);
    const startRepeats = Math.max(repeats, 5);
    const start = await timeTools(
      startTools,
      { ...one, runLines: 1, inputMB: 28e-6, queries: 1 },
      startRepeats,
      startRepeats,
    );
    checkIdentical(start, "one-line files");
    rows.push(...start.map((r) => ({ ...r, startup: true })));
  } finally {
    if (previousDir) await Deno.remove(previousDir, { recursive: true }).catch(() => {});
  }
  log(`load average ${load()} at the end`);
  log("");
  printTable(rows.filter((r) => !r.startup), log);
  log("");
  log(overFloor(rows));
  log("");
  // The floor's row is about Deno's own start (one small module); the CPU time, user + system
  // of every thread, moves less with the machine's load than the wall time.
  log(
    "start-up on one-line files (one judgment, one result line; wall s, median of runs " +
      "(each run); CPU s, median):",
  );
  for (const r of rows.filter((r) => r.startup)) {
    log(
      `  ${r.tool.padEnd(40)} ${fmt(r.seconds, 3)}  (${r.runs.map((s) => fmt(s, 3)).join(" ")})` +
        `  CPU ${fmt(r.cpuSeconds, 3)}`,
    );
  }
  if (options.profile) {
    for (const queries of options.sizes) {
      const f = await writeSynthetic(options.dir, {
        queries,
        candidates: options.candidates,
        seed: options.seed,
      });
      const cpu0 = process.cpuUsage();
      const p = await profileEval(f.qrels, f.run);
      const cpu = process.cpuUsage(cpu0);
      const total = Object.values(p).reduce((a, b) => a + b, 0);
      log(
        `\nprofile, ${queries} queries (one thread, in-process; wall s, ${
          fmt(total)
        } s in all, CPU ${fmt((cpu.user + cpu.system) / 1e6)} s):`,
      );
      for (const [k, v] of Object.entries(p)) {
        log(`  ${k.padEnd(36)} ${fmt(v)}  ${fmt(100 * v / total, 0)}%`);
      }
    }
  }
  return rows;
}

/**
 * The kit's time over the floor's at each size, in one line (the table's `time / floor` of
 * `kit eval trec` and `--threads 1`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { FLOOR, overFloor } from "./eval.ts";
 * const row = (tool: string, seconds: number) => ({
 *   queries: 100, tool, seconds, runs: [seconds], runLines: 1, inputMB: 1, peakRssMB: 1,
 *   cpuSeconds: seconds, output: "",
 * });
 * assert.equal(
 *   overFloor([row(FLOOR, 0.5), row("kit eval trec", 1.7), row("kit eval trec --threads 1", 2)]),
 *   "kit eval trec over the floor: 3.40x at 100 queries (--threads 1: 4.00x)",
 * );
 * ```
 */
export function overFloor(rows: readonly EvalBenchRow[]): string {
  const sizes = [...new Set(rows.filter((r) => !r.startup).map((r) => r.queries))];
  const parts = sizes.flatMap((queries) => {
    const at = (tool: string) => rows.find((r) => r.queries === queries && r.tool === tool);
    const floor = at(FLOOR), kit = at("kit eval trec"), one = at("kit eval trec --threads 1");
    if (!floor || !kit) return [];
    const threads1 = one ? ` (--threads 1: ${ratio(one.seconds / floor.seconds)})` : "";
    return [`${ratio(kit.seconds / floor.seconds)} at ${queries} queries${threads1}`];
  });
  return `kit eval trec over the floor: ${parts.join(", ")}`;
}

/** Fails unless every tool but the floor printed the same output on every run. */
function checkIdentical(rows: EvalBenchRow[], what: string): void {
  const tools = rows.filter((r) => r.tool !== FLOOR);
  for (const r of tools) {
    if (r.output !== tools[0].output) {
      throw new KitError(`${r.tool}: output differs from the kit's on ${what}`);
    }
  }
}

/**
 * The table: per size and tool the median wall time, CPU time (user + system, all threads),
 * throughput, peak memory, and the two ratios: time over the floor's, and trec_eval's time
 * over the tool's (how many times faster than trec_eval).
 */
function printTable(rows: EvalBenchRow[], log: (s: string) => void): void {
  log(
    "| queries | tool | wall s (median) | runs | CPU s | run lines/s | MB/s | peak RSS MB | " +
      "RSS / input | time / floor | trec_eval 9.0.8 time / time |",
  );
  log("|---:|---|---:|---|---:|---:|---:|---:|---:|---:|---:|");
  for (const r of rows) {
    const floor = rows.find((x) => x.queries === r.queries && x.tool === FLOOR);
    const trecEval = rows.find((x) => x.queries === r.queries && x.tool === TREC_EVAL);
    log(
      `| ${r.queries} | ${r.tool} | ${fmt(r.seconds)} | ${r.runs.map((s) => fmt(s)).join(" ")} | ${
        fmt(r.cpuSeconds)
      } | ${Math.round(r.runLines / r.seconds)} | ${fmt(r.inputMB / r.seconds, 1)} | ${
        fmt(r.peakRssMB, 0)
      } | ${fmt(r.peakRssMB / r.inputMB)} | ${floor ? ratio(r.seconds / floor.seconds) : "-"} | ${
        trecEval ? ratio(trecEval.seconds / r.seconds) : "-"
      } |`,
    );
  }
}

/** The `bench eval` command. */
export const benchEvalCommand: Command = {
  summary: "evaluation engine throughput and memory on synthetic runs, beside the previous " +
    "engine and trec_eval",
  options: [
    {
      name: "sizes",
      value: "N,N,...",
      default: "1000,10000,100000",
      help: "queries of each synthetic qrels and run",
    },
    { name: "candidates", value: "N", default: "100", help: "documents per query" },
    { name: "seed", value: "N", default: "42", help: "seed of the synthetic files" },
    {
      name: "dir",
      value: "DIR",
      help: "folder of the synthetic files (default data/cache/bench/)",
    },
    { name: "profile", help: "also time the stages of one evaluation, in-process" },
    { name: "repeats", value: "N", default: "3", help: "runs of each tool; the median is shown" },
    {
      name: "previous",
      value: "REV|none",
      default: PREVIOUS_ENGINE,
      help: "the git revision whose engine runs beside this one; none to skip it",
    },
    {
      name: "trec-eval-max",
      value: "N",
      default: "100000",
      help: "largest size trec_eval itself is run on",
    },
    {
      name: "trec-eval-repeats",
      value: "N",
      default: "1",
      help: "runs of trec_eval per size, at most --repeats (about 70 s each at 100,000 queries)",
    },
  ],
  async run(args) {
    const p = parseFlags(args, benchEvalCommand);
    const sizes = str(p, "sizes")!.split(",").map(Number);
    if (sizes.some((n) => !Number.isInteger(n) || n < 1)) {
      throw new KitError("--sizes takes positive integers, e.g. 1000,10000");
    }
    const previous = str(p, "previous");
    // The one-value flags have defaults in the table, so integerFlag always has a value here.
    await benchEval({
      sizes,
      candidates: integerFlag(p, "candidates", 1)!,
      seed: integerFlag(p, "seed", 0)!,
      dir: str(p, "dir") ?? `${PROJECT_ROOT}/data/cache/bench`,
      profile: Boolean(p.values.profile),
      repeats: integerFlag(p, "repeats", 1)!,
      previous: previous === "none" ? false : previous,
      trecEvalMax: integerFlag(p, "trec-eval-max", 1)!,
      trecEvalRepeats: integerFlag(p, "trec-eval-repeats", 1)!,
    });
  },
};
