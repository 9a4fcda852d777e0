/**
 * `deno task bench eval`: the evaluation engine on seeded synthetic runs of 1k, 10k and 100k
 * queries x 100 candidates, side by side in one run with the previous engine (a revision of
 * this repository, extracted with `git archive` into a temporary folder) and trec_eval 9.0.8
 * (when built; it matches queries by linear scan, so it is timed up to `--trec-eval-max`
 * queries). Each tool runs as users run it (a subprocess, `eval trec` with map, recip_rank,
 * P.5 and ndcg_cut.10), the tools alternating, `--repeats` times; the median wall time, lines
 * and MB per second, peak RSS and the ratios are printed, and every output must be
 * byte-identical. The smallest size is first checked against the brute-force reference;
 * `--profile` splits the kit's time into the stages of its route.
 *
 * @module
 */
import { KitError } from "../errors.ts";
import { integerFlag, parseFlags, str } from "../cli/args.ts";
import type { Command } from "../cli/command.ts";
import { PROJECT_ROOT } from "../data/paths.ts";
import { evaluateTrecFiles, readQrels, readRun, type StageTimes } from "../metrics/trec_files.ts";
import { REFERENCE_MEASURES, referenceEvaluate } from "../metrics/reference.ts";
import { quantileSorted } from "../stats/significance.ts";
import { writeSynthetic } from "./synthetic.ts";
import { trecEvalBinary } from "./trec_eval.ts";

const MEASURES = ["-m", "map", "-m", "recip_rank", "-m", "P.5", "-m", "ndcg_cut.10"];

/** The engine this one replaced (issue 15): main before it, the streaming-qrels engine. */
export const PREVIOUS_ENGINE = "72cf2f9";

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
  output: string;
}

/** A command to time. */
interface Tool {
  name: string;
  cmd: string;
  args: (qrels: string, run: string) => string[];
  cwd?: string;
}

function procPeakKb(pid: number): number {
  try {
    const m = /VmHWM:\s*(\d+)/.exec(Deno.readTextFileSync(`/proc/${pid}/status`));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}

/** Runs a command once, sampling its peak RSS (the kit also reports its own at exit). */
async function timedOnce(tool: Tool, qrels: string, run: string) {
  const t0 = performance.now();
  const child = new Deno.Command(tool.cmd, {
    args: tool.args(qrels, run),
    cwd: tool.cwd,
    stdout: "piped",
    stderr: "piped",
    env: { QA_KIT_PEAK_RSS: "1", NO_COLOR: "1" },
  }).spawn();
  // Sampled at once too: a tool that does not report its own (trec_eval) may end within 20 ms.
  let peak = procPeakKb(child.pid);
  const poll = setInterval(() => peak = Math.max(peak, procPeakKb(child.pid)), 20);
  const out = await child.output();
  clearInterval(poll);
  const seconds = (performance.now() - t0) / 1000;
  const stderr = new TextDecoder().decode(out.stderr);
  const reported = /peak-rss-kb: (\d+)/.exec(stderr);
  if (reported) peak = Math.max(peak, Number(reported[1]));
  if (!out.success) throw new KitError(`${tool.name} failed: ${stderr.slice(0, 400)}`);
  return { seconds, peakKb: peak, stdout: new TextDecoder().decode(out.stdout) };
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

/**
 * Extracts a revision of this repository into a temporary folder (`git archive`), so that
 * its engine can be timed beside this one; undefined (and why) when it cannot.
 */
export async function extractRevision(rev: string): Promise<{ dir?: string; why?: string }> {
  const dir = await Deno.makeTempDir({ prefix: `kit-${rev.replace(/\W/g, "")}-` });
  try {
    const archive = await new Deno.Command("git", {
      args: ["-C", PROJECT_ROOT, "archive", "--format=tar", rev, "deno.json", "lib"],
      stdout: "piped",
      stderr: "piped",
    }).output();
    if (!archive.success) throw new Error(new TextDecoder().decode(archive.stderr).trim());
    const tar = new Deno.Command("tar", { args: ["-x", "-C", dir], stdin: "piped" }).spawn();
    const w = tar.stdin.getWriter();
    await w.write(archive.stdout);
    await w.close();
    if (!(await tar.status).success) throw new Error("tar failed");
    return { dir };
  } catch (e) {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
    return { why: (e as Error).message.split("\n")[0] };
  }
}

function fmt(x: number, d = 2): string {
  return x.toFixed(d);
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
  /** The previous engine's revision (default {@link PREVIOUS_ENGINE}; `false`: none). */
  previous?: string | false;
  /** trec_eval is timed up to this many queries (default 10,000). */
  trecEvalMax?: number;
  log?: (s: string) => void;
}

/** Runs the benchmark and prints its tables; returns the rows. */
export async function benchEval(options: EvalBenchOptions): Promise<EvalBenchRow[]> {
  const log = options.log ?? ((s: string) => console.log(s));
  const repeats = options.repeats ?? 3;
  const trecEvalMax = options.trecEvalMax ?? 10_000;
  const kit = (dir: string, name: string, threads?: number): Tool => ({
    name,
    cmd: Deno.execPath(),
    cwd: dir,
    // As `deno task eval` runs it (same V8 flag).
    args: (q, r) => [
      "run",
      "--allow-all",
      "--v8-flags=--max-semi-space-size=8",
      `${dir}/lib/cli/main.ts`,
      "eval",
      "trec",
      ...MEASURES,
      ...(threads === undefined ? [] : ["--threads", String(threads)]),
      q,
      r,
    ],
  });
  const tools: Tool[] = [
    kit(PROJECT_ROOT, "kit eval trec"),
    kit(PROJECT_ROOT, "kit eval trec --threads 1", 1),
  ];
  const rev = options.previous === undefined ? PREVIOUS_ENGINE : options.previous;
  let previousDir: string | undefined;
  let previousNote = "previous engine: not timed";
  if (rev) {
    const got = await extractRevision(rev);
    previousDir = got.dir;
    previousNote = got.dir
      ? `previous engine: revision ${rev} (git archive into a temporary folder)`
      : `previous engine ${rev}: not available (${got.why})`;
    if (previousDir) {
      tools.push(kit(previousDir, `previous engine (${rev})`));
      tools.push(kit(previousDir, `previous engine (${rev}) --threads 1`, 1));
    }
  }
  const trecEval = trecEvalBinary();
  const load = () => Deno.loadavg().map((x) => x.toFixed(1)).join(" ");
  log(
    `machine: ${navigator.hardwareConcurrency} CPUs, load average ${load()} at the start ` +
      "(shared with other work: compare the ratios within this run)",
  );
  log(previousNote);
  log(
    trecEval
      ? `trec_eval: ${trecEval} (timed up to ${trecEvalMax} queries: it matches queries by linear scan)`
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
      const inputMB = (f.qrelsBytes + f.runBytes) / 1e6;
      const here = [...tools];
      if (trecEval && queries <= trecEvalMax) {
        here.push({ name: "trec_eval 9.0.8", cmd: trecEval, args: (q, r) => [...MEASURES, q, r] });
      }
      // The tools alternate, so that a change in the machine's load hits all of them alike.
      const runs = here.map(() => [] as Awaited<ReturnType<typeof timedOnce>>[]);
      for (let i = 0; i < repeats; i++) {
        for (const [t, tool] of here.entries()) runs[t].push(await timedOnce(tool, f.qrels, f.run));
      }
      for (const [t, tool] of here.entries()) {
        const out = runs[t][0].stdout;
        if (runs[t].some((r) => r.stdout !== out) || out !== runs[0][0].stdout) {
          throw new KitError(`${tool.name}: output differs from the kit's on ${queries} queries`);
        }
        const seconds = quantileSorted(runs[t].map((r) => r.seconds).sort((a, b) => a - b), 0.5);
        rows.push({
          queries,
          tool: tool.name,
          seconds,
          runs: runs[t].map((r) => r.seconds),
          runLines: f.runLines,
          inputMB,
          peakRssMB: Math.max(...runs[t].map((r) => r.peakKb)) / 1024,
          output: out,
        });
      }
      log(`${queries}: outputs byte-identical (${here.map((t) => t.name).join(", ")})`);
    }
  } finally {
    if (previousDir) await Deno.remove(previousDir, { recursive: true }).catch(() => {});
  }
  log(`load average ${load()} at the end`);
  log("");
  log(
    "| queries | tool | wall s (median) | runs | run lines/s | MB/s | peak RSS MB | RSS / input | time vs kit |",
  );
  log("|---:|---|---:|---|---:|---:|---:|---:|---:|");
  for (const r of rows) {
    const kitRow = rows.find((x) => x.queries === r.queries && x.tool === "kit eval trec")!;
    log(
      `| ${r.queries} | ${r.tool} | ${fmt(r.seconds)} | ${r.runs.map((s) => fmt(s)).join(" ")} | ${
        Math.round(r.runLines / r.seconds)
      } | ${fmt(r.inputMB / r.seconds, 1)} | ${fmt(r.peakRssMB, 0)} | ${
        fmt(r.peakRssMB / r.inputMB)
      } | ${r === kitRow ? "1.00" : fmt(r.seconds / kitRow.seconds) + "x"} |`,
    );
  }
  if (options.profile) {
    const biggest = Math.max(...options.sizes);
    const f = await writeSynthetic(options.dir, {
      queries: biggest,
      candidates: options.candidates,
      seed: options.seed,
    });
    const p = await profileEval(f.qrels, f.run);
    const total = Object.values(p).reduce((a, b) => a + b, 0);
    log(`\nprofile, ${biggest} queries (one thread, in-process, seconds):`);
    for (const [k, v] of Object.entries(p)) {
      log(`  ${k.padEnd(36)} ${fmt(v)}  ${fmt(100 * v / total, 0)}%`);
    }
  }
  return rows;
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
      default: "10000",
      help: "largest size trec_eval itself is run on",
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
    });
  },
};
