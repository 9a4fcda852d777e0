/**
 * `deno task bench eval`: the evaluation engine on seeded synthetic runs of 1k, 10k and 100k
 * queries x 100 candidates. For each size it checks the kit against the brute-force reference
 * (small size), then times the kit's `eval trec` (a subprocess, as users run it) with
 * map, recip_rank, P.5 and ndcg_cut.10 together, and any `trec_eval` binary on PATH on the
 * same files, printing wall time (median of 3 runs), lines/s, MB/s, peak RSS and the ratios.
 * `--profile` also splits the kit's time into parsing, grouping, tables, sorting and metrics.
 *
 * @module
 */
import { KitError } from "../errors.ts";
import { parseFlags, str } from "../cli/args.ts";
import type { Command } from "../cli/command.ts";
import { PROJECT_ROOT } from "../data/paths.ts";
import { evaluateTrecFiles, readQrels, readRun, type StageTimes } from "../metrics/trec_files.ts";
import { REFERENCE_MEASURES, referenceEvaluate } from "../metrics/reference.ts";
import { writeSynthetic } from "./synthetic.ts";

const MEASURES = ["-m", "map", "-m", "recip_rank", "-m", "P.5", "-m", "ndcg_cut.10"];

/** One timed tool on one size. */
export interface EvalBenchRow {
  queries: number;
  tool: string;
  seconds: number;
  runLines: number;
  inputMB: number;
  peakRssMB: number;
  output: string;
}

function procPeakKb(pid: number): number {
  try {
    const m = /VmHWM:\s*(\d+)/.exec(Deno.readTextFileSync(`/proc/${pid}/status`));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}

/**
 * Runs a command `REPEATS` times and keeps the median run (by wall time): timings on small
 * VMs vary by 10-30% from run to run. Outputs must agree.
 */
async function timed(cmd: string, args: string[], env: Record<string, string> = {}) {
  const runs: Awaited<ReturnType<typeof timedOnce>>[] = [];
  for (let i = 0; i < REPEATS; i++) runs.push(await timedOnce(cmd, args, env));
  if (runs.some((r) => r.stdout !== runs[0].stdout)) {
    throw new KitError(`${cmd} gave different outputs on the same files`);
  }
  runs.sort((a, b) => a.seconds - b.seconds);
  return runs[Math.floor(runs.length / 2)];
}

/** Timed runs per tool and size (the median is reported). */
const REPEATS = 3;

/** Runs a command, sampling its peak RSS from /proc while it runs (the child may also report it). */
async function timedOnce(cmd: string, args: string[], env: Record<string, string> = {}) {
  const t0 = performance.now();
  const child = new Deno.Command(cmd, { args, stdout: "piped", stderr: "piped", env }).spawn();
  let peak = 0;
  const poll = setInterval(() => peak = Math.max(peak, procPeakKb(child.pid)), 20);
  const out = await child.output();
  clearInterval(poll);
  const seconds = (performance.now() - t0) / 1000;
  const stderr = new TextDecoder().decode(out.stderr);
  const reported = /peak-rss-kb: (\d+)/.exec(stderr);
  if (reported) peak = Math.max(peak, Number(reported[1]));
  if (!out.success) throw new KitError(`${cmd} failed: ${stderr.slice(0, 400)}`);
  return { seconds, peakKb: peak, stdout: new TextDecoder().decode(out.stdout) };
}

function onPath(name: string): string | undefined {
  for (const dir of (Deno.env.get("PATH") ?? "").split(":")) {
    try {
      if (Deno.statSync(`${dir}/${name}`).isFile) return `${dir}/${name}`;
    } catch { /* not here */ }
  }
  return undefined;
}

/** Compares the kit's in-memory and streaming results with the brute-force reference. */
export async function checkAgainstReference(qrelsPath: string, runPath: string): Promise<number> {
  const qrels = await readQrels(qrelsPath);
  const run = await readRun(runPath);
  const obj = (m: Map<string, Map<string, number>>) =>
    Object.fromEntries([...m].map(([q, d]) => [q, Object.fromEntries(d)]));
  const want = referenceEvaluate(obj(qrels), obj(run), REFERENCE_MEASURES);
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
 * Where the kit's time goes, in seconds: one single-thread evaluation (qrels streamed, the run
 * parsed and ranked on this thread too) with a clock read between its stages (a few per
 * query), and the summary.
 */
export async function profileEval(qrelsPath: string, runPath: string) {
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

function fmt(x: number, d = 2): string {
  return x.toFixed(d);
}

/** Runs the benchmark and prints its tables; returns the rows. */
export async function benchEval(options: {
  sizes: number[];
  candidates: number;
  seed: number;
  dir: string;
  profile: boolean;
  log?: (s: string) => void;
}): Promise<EvalBenchRow[]> {
  const log = options.log ?? ((s: string) => console.log(s));
  const trecEval = onPath("trec_eval");
  const rows: EvalBenchRow[] = [];
  await Deno.mkdir(options.dir, { recursive: true });
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
    const inputMB = (f.qrelsBytes + f.runBytes) / 1e6;
    // As `deno task eval` runs it (same V8 flag), once per thread setting.
    const kitRun = (threads: number | undefined) =>
      timed(Deno.execPath(), [
        "run",
        "--allow-all",
        "--v8-flags=--max-semi-space-size=8",
        `${PROJECT_ROOT}/lib/cli/main.ts`,
        "eval",
        "trec",
        ...MEASURES,
        ...(threads === undefined ? [] : ["--threads", String(threads)]),
        f.qrels,
        f.run,
      ], { QA_KIT_PEAK_RSS: "1", NO_COLOR: "1" });
    // The default (a worker parses large runs on machines with two or more CPUs), then one
    // thread; both outputs must be byte-identical.
    const kit = await kitRun(undefined);
    rows.push({
      queries,
      tool: "kit eval trec",
      seconds: kit.seconds,
      runLines: f.runLines,
      inputMB,
      peakRssMB: kit.peakKb / 1024,
      output: kit.stdout,
    });
    const kit1 = await kitRun(1);
    if (kit1.stdout !== kit.stdout) throw new KitError("--threads 1 output differs from default");
    rows.push({
      queries,
      tool: "kit eval trec --threads 1",
      seconds: kit1.seconds,
      runLines: f.runLines,
      inputMB,
      peakRssMB: kit1.peakKb / 1024,
      output: kit1.stdout,
    });
    if (trecEval) {
      const te = await timed(trecEval, [...MEASURES, f.qrels, f.run]);
      rows.push({
        queries,
        tool: "trec_eval",
        seconds: te.seconds,
        runLines: f.runLines,
        inputMB,
        peakRssMB: te.peakKb / 1024,
        output: te.stdout,
      });
      const same = te.stdout.trim() === kit.stdout.trim();
      log(`${queries}: trec_eval output ${same ? "identical" : "DIFFERS"} (kit vs trec_eval)`);
    }
  }
  log("");
  log(
    "| queries | tool | wall s | run lines/s | MB/s | peak RSS MB | RSS / input | time vs kit |",
  );
  log("|---:|---|---:|---:|---:|---:|---:|---:|");
  for (const r of rows) {
    const kitRow = rows.find((x) => x.queries === r.queries && x.tool === "kit eval trec")!;
    log(
      `| ${r.queries} | ${r.tool} | ${fmt(r.seconds)} | ${Math.round(r.runLines / r.seconds)} | ${
        fmt(r.inputMB / r.seconds, 1)
      } | ${fmt(r.peakRssMB, 0)} | ${fmt(r.peakRssMB / r.inputMB)} | ${
        r === kitRow ? "1.00" : fmt(r.seconds / kitRow.seconds) + "x the time"
      } |`,
    );
  }
  if (!trecEval) log("\n(no trec_eval on PATH: only the kit was timed)");
  if (options.profile) {
    const biggest = Math.max(...options.sizes);
    const f = await writeSynthetic(options.dir, {
      queries: biggest,
      candidates: options.candidates,
      seed: options.seed,
    });
    const p = await profileEval(f.qrels, f.run);
    const total = Object.values(p).reduce((a, b) => a + b, 0);
    log(`\nprofile, ${biggest} queries (in-process, seconds):`);
    for (const [k, v] of Object.entries(p)) {
      log(`  ${k.padEnd(36)} ${fmt(v)}  ${fmt(100 * v / total, 0)}%`);
    }
  }
  return rows;
}

/** The `bench eval` command. */
export const benchEvalCommand: Command = {
  summary: "evaluation engine throughput and memory on synthetic runs (vs trec_eval if on PATH)",
  usage: "[--sizes 1000,10000,100000] [--candidates 100] [--seed 42] [--dir DIR] [--profile]",
  async run(args) {
    const p = parseFlags(args, {
      sizes: { type: "string", default: "1000,10000,100000" },
      candidates: { type: "string", default: "100" },
      seed: { type: "string", default: "42" },
      dir: { type: "string" },
      profile: { type: "boolean" },
    });
    const sizes = str(p, "sizes")!.split(",").map(Number);
    if (sizes.some((n) => !Number.isInteger(n) || n < 1)) {
      throw new KitError("--sizes takes positive integers, e.g. 1000,10000");
    }
    await benchEval({
      sizes,
      candidates: Number(str(p, "candidates")),
      seed: Number(str(p, "seed")),
      dir: str(p, "dir") ?? `${PROJECT_ROOT}/data/cache/bench`,
      profile: Boolean(p.values.profile),
    });
  },
};
