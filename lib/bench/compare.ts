/**
 * `deno task bench compare`: `eval compare` at scale. One qrels and three runs of 30,000
 * queries x 100 documents (seeded, `writeCompareCase`), compared on map, recip_rank, P.5 and
 * ndcg_cut.10 with the randomization test (10,000 trials, Holm): the kit as users run it (a
 * subprocess), beside the previous engine (a revision of this repository, extracted with
 * `git archive`), each `--repeats` times, alternating. Printed: wall and CPU time, peak RSS
 * (GNU time when installed), the inputs' size, and the ratios to ranx's `compare` on the same
 * case as measured in issue 36 (731.6 s and 1.9 GB on a 2-core machine with three runs of
 * 64 MB: ranx is not installable on the kit's machines, so it is not run here, and the
 * ratios to it are across machines). Every p-value of the kit is compared with the previous
 * engine's (the same seed must give the same p-values).
 *
 * @module
 */
import { KitError } from "../errors.ts";
import { integerFlag, parseFlags, str } from "../cli/args.ts";
import type { Command } from "../cli/command.ts";
import { PROJECT_ROOT } from "../data/paths.ts";
import { writeCompareCase } from "./synthetic.ts";
import { previousEngine } from "./revision.ts";
import { evalTaskV8Flags, fmt, median, ratio, timedOnce, type Tool } from "./eval.ts";

/** The engine this one replaced (issue 36): main before the shared pass. */
export const PREVIOUS_COMPARE_ENGINE = "45862fc";

/** ranx's `compare` on the case, as measured in issue 36 (Fisher randomization, 10,000 trials). */
export const RANX_COMPARE = {
  seconds: 731.6,
  peakMB: 1900,
  where: "issue 36's machine",
  /** The case it was measured on: ratios to it mean something on this case only. */
  case: { systems: 3, queries: 30000, candidates: 100, trials: 10000 },
};

const MEASURES = ["-m", "map", "-m", "recip_rank", "-m", "P.5", "-m", "ndcg_cut.10"];

/** Options of {@link benchCompare}. */
export interface CompareBenchOptions {
  queries: number;
  candidates: number;
  systems: number;
  trials: number;
  seed: number;
  dir: string;
  /** Timed runs per tool (the median is shown; default 1). */
  repeats?: number;
  /** The previous engine's revision (default {@link PREVIOUS_COMPARE_ENGINE}; `false`: none). */
  previous?: string | false;
  log?: (s: string) => void;
}

/** One timed tool. */
export interface CompareBenchRow {
  tool: string;
  seconds: number;
  runs: number[];
  cpuSeconds: number;
  peakRssMB: number;
  /** The JSON table it printed (first run). */
  output: string;
}

/** Each pair's p and adjusted p in a JSON table of `eval compare`, keyed by measure and pair. */
function pValues(json: string): Map<string, [number, number]> {
  const t = JSON.parse(json) as {
    pairs: { measure: string; a: string; b: string; p: number; pAdjusted: number }[];
  };
  return new Map(t.pairs.map((p) => [`${p.measure} ${p.a} ${p.b}`, [p.p, p.pAdjusted]]));
}

/** Runs the benchmark and prints its table; returns the rows. */
export async function benchCompare(options: CompareBenchOptions): Promise<CompareBenchRow[]> {
  const log = options.log ?? ((s: string) => console.log(s));
  const repeats = options.repeats ?? 1;
  await Deno.mkdir(options.dir, { recursive: true });
  console.error(
    `generating ${options.systems} runs of ${options.queries} x ${options.candidates} ` +
      `(seed ${options.seed}) ...`,
  );
  const f = await writeCompareCase(options.dir, {
    queries: options.queries,
    candidates: options.candidates,
    systems: options.systems,
    seed: options.seed,
  });
  const inputMB = (f.qrelsBytes + f.runBytes.reduce((a, b) => a + b, 0)) / 2 ** 20;
  const args = [
    "eval",
    "compare",
    "--qrels",
    f.qrels,
    ...f.runs,
    ...MEASURES,
    "--trials",
    String(options.trials),
    "--format",
    "json",
  ];
  const kit = (dir: string, name: string): Tool => {
    const v8Flags = evalTaskV8Flags(dir); // as `deno task eval` runs it
    return {
      name,
      cmd: Deno.execPath(),
      cwd: dir,
      args: () => ["run", "--allow-all", ...v8Flags, `${dir}/lib/cli/main.ts`, ...args],
    };
  };
  const tools = [kit(PROJECT_ROOT, "kit eval compare")];
  const rev = options.previous === undefined ? PREVIOUS_COMPARE_ENGINE : options.previous;
  const { dir: previousDir, note: previousNote } = await previousEngine(rev);
  if (previousDir) tools.push(kit(previousDir, `previous engine (${rev})`));
  const load = () => Deno.loadavg().map((x) => x.toFixed(1)).join(" ");
  log(
    `machine: ${navigator.hardwareConcurrency} CPUs, load average ${load()} at the start ` +
      "(shared with other work: compare the ratios within this run)",
  );
  log(previousNote);
  log(
    `case: ${options.systems} runs of ${options.queries} queries x ${options.candidates} ` +
      `documents (${f.runBytes.map((b) => fmt(b / 2 ** 20, 1)).join(", ")} MB) and their ` +
      `qrels (${fmt(f.qrelsBytes / 2 ** 20, 1)} MB): ${fmt(inputMB, 1)} MB in all; ` +
      `${MEASURES.filter((m) => m !== "-m").join(", ")}; ${options.trials} trials`,
  );
  const runs = tools.map(() => [] as Awaited<ReturnType<typeof timedOnce>>[]);
  try {
    for (let i = 0; i < repeats; i++) {
      for (const [t, tool] of tools.entries()) runs[t].push(await timedOnce(tool, "", ""));
    }
  } finally {
    if (previousDir) await Deno.remove(previousDir, { recursive: true }).catch(() => {});
  }
  log(`load average ${load()} at the end`);
  const rows: CompareBenchRow[] = tools.map((tool, t) => ({
    tool: tool.name,
    seconds: median(runs[t].map((r) => r.seconds)),
    runs: runs[t].map((r) => r.seconds),
    cpuSeconds: median(runs[t].map((r) => r.cpu)),
    peakRssMB: Math.max(...runs[t].map((r) => r.peakKb)) / 1024,
    output: runs[t][0].stdout,
  }));
  for (const [t, tool] of tools.entries()) {
    if (runs[t].some((r) => r.stdout !== runs[t][0].stdout)) {
      throw new KitError(`${tool.name}: a run printed another table than the first`);
    }
  }
  log("");
  log(
    "| tool | wall s (median) | runs | CPU s | peak RSS MB | RSS / input | " +
      "ranx time / time | ranx peak / peak |",
  );
  log("|---|---:|---|---:|---:|---:|---:|---:|");
  const c = RANX_COMPARE.case;
  const ranxCase = options.systems === c.systems && options.queries === c.queries &&
    options.candidates === c.candidates && options.trials === c.trials;
  const toRanx = (x: number) => ranxCase ? ratio(x) : "-";
  for (const r of rows) {
    log(
      `| ${r.tool} | ${fmt(r.seconds)} | ${r.runs.map((s) => fmt(s)).join(" ")} | ${
        fmt(r.cpuSeconds)
      } | ${fmt(r.peakRssMB, 0)} | ${fmt(r.peakRssMB / inputMB)} | ${
        toRanx(RANX_COMPARE.seconds / r.seconds)
      } | ${toRanx(RANX_COMPARE.peakMB / r.peakRssMB)} |`,
    );
  }
  if (!ranxCase) {
    log(
      `(no ratio to ranx: its figure is for ${c.systems} runs of ${c.queries} queries x ` +
        `${c.candidates}, ${c.trials} trials, not this case)`,
    );
  }
  log(
    `| ranx compare (${RANX_COMPARE.where}, not run here) | ${fmt(RANX_COMPARE.seconds)} | - | - ` +
      `| ${RANX_COMPARE.peakMB} | - | 1x | 1x |`,
  );
  if (rows.length > 1) {
    const mine = pValues(rows[0].output), theirs = pValues(rows[1].output);
    const differ = [...mine].filter(([k, v]) => {
      const w = theirs.get(k);
      return !w || w[0] !== v[0] || w[1] !== v[1];
    });
    log("");
    log(
      differ.length === 0 && mine.size === theirs.size
        ? `p-values: all ${mine.size} (raw and adjusted) identical to the previous engine's`
        : `p-values: ${differ.length} of ${mine.size} differ from the previous engine's: ` +
          differ.map(([k, v]) => `${k} ${v[0]} vs ${theirs.get(k)?.[0]}`).join("; "),
    );
  }
  return rows;
}

/** The `bench compare` command. */
export const benchCompareCommand: Command = {
  summary: "eval compare at scale (3 runs of 30,000 queries, 10,000 trials) beside the " +
    "previous engine and ranx's published figure",
  options: [
    { name: "queries", value: "N", default: "30000", help: "queries of each run" },
    { name: "candidates", value: "N", default: "100", help: "documents per query" },
    { name: "systems", value: "N", default: "3", help: "runs compared" },
    { name: "trials", value: "N", default: "10000", help: "the randomization test's trials" },
    { name: "seed", value: "N", default: "42", help: "seed of the synthetic files" },
    {
      name: "dir",
      value: "DIR",
      help: "folder of the synthetic files (default data/cache/bench/)",
    },
    { name: "repeats", value: "N", default: "1", help: "runs of each tool; the median is shown" },
    {
      name: "previous",
      value: "REV|none",
      default: PREVIOUS_COMPARE_ENGINE,
      help: "the git revision whose engine runs beside this one; none to skip it",
    },
  ],
  async run(args) {
    const p = parseFlags(args, benchCompareCommand);
    const previous = str(p, "previous");
    const systems = integerFlag(p, "systems", 1)!;
    if (systems < 2) throw new KitError("--systems: a comparison needs at least 2 runs");
    await benchCompare({
      queries: integerFlag(p, "queries", 1)!,
      candidates: integerFlag(p, "candidates", 1)!,
      systems,
      trials: integerFlag(p, "trials", 1)!,
      seed: integerFlag(p, "seed", 0)!,
      dir: str(p, "dir") ?? `${PROJECT_ROOT}/data/cache/bench`,
      repeats: integerFlag(p, "repeats", 1)!,
      previous: previous === "none" ? false : previous,
    });
  },
};
