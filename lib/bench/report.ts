/**
 * `deno task bench report`: the report's three waits (issue 45), timed as users run them (a
 * subprocess each, `report ...`), this revision and a previous one alternating, `--repeats`
 * times, the median printed beside each target:
 *
 * - lessons: `report` (the lessons on the samples, slides and PDF) into a new folder: a cold
 *   build, nothing to reuse (≤ 45 s);
 * - systems: `report --data sample --run a=... --run b=... --no-pdf` (page 00 on two runs of
 *   the WikiQA sample: the bundled one, and the same with its scores negated) (≤ 12 s);
 * - unchanged: the lessons' `report` again into the folder the lessons row just built (≤ 10 s;
 *   a revision without the report's cache builds it all again).
 *
 * The previous revision is extracted with `git archive` (its `deno.json`, `deno.lock`, `lib/`,
 * `notebooks/`, `data/samples/` and the scoring lessons' default model,
 * `tests/fixtures/tiny-model/`) and run where it is, as `bench eval` does. The systems run
 * on the samples (`--data sample`) so that both revisions read the same data whether or not the
 * real corpora are installed.
 *
 * @module
 */
import { KitError } from "../errors.ts";
import { integerFlag, list, parseFlags, str } from "../cli/args.ts";
import type { Command } from "../cli/command.ts";
import { PROJECT_ROOT, SAMPLES_DIR } from "../data/paths.ts";
import { writeFileAtomic } from "../io/atomic.ts";
import { makeKitTempDir } from "../io/temp.ts";
import { fmt, median, timedOnce, type Tool } from "./eval.ts";
import { extractRevision } from "./revision.ts";

/** The report before its cache (issue 45): main when the work began. */
export const PREVIOUS_REPORT = "1cfc6f3";

/** The three waits and their targets, seconds. */
export const REPORT_TARGETS = [
  { name: "lessons", what: "report (lessons on the samples, slides, PDF)", limit: 45 },
  { name: "systems", what: "report --run a --run b --no-pdf", limit: 12 },
  { name: "unchanged", what: "report again, nothing changed", limit: 10 },
] as const;

/** One wait of one revision: its runs' wall times and their median. */
export interface ReportBenchRow {
  target: (typeof REPORT_TARGETS)[number]["name"];
  revision: string;
  seconds: number;
  runs: number[];
}

/** Options of {@link benchReport}. */
export interface ReportBenchOptions {
  /** Timed runs of each wait and revision (default 3). */
  repeats?: number;
  /** The previous revision (default {@link PREVIOUS_REPORT}; `false`: none). */
  previous?: string | false;
  /** Folder of the reports and runs built (default: a kit temporary folder, removed after). */
  dir?: string;
  /** Only the lessons starting with these (`--only`), for a quick look. */
  only?: string[];
  /** The command running a revision's kit in `root` (default: `deno run -A root/lib/cli/main.ts`). */
  kit?: (root: string) => { cmd: string; args: string[] };
  log?: (line: string) => void;
}

/** The sample run with its scores negated: a second system that ranks otherwise. */
function negated(run: string): string {
  return run.split("\n").map((line) => {
    const f = line.trim().split(/\s+/);
    return f.length === 6 ? [...f.slice(0, 4), String(-Number(f[4])), "negated"].join(" ") : line;
  }).join("\n");
}

/** Whether `path` is there and is not a folder (a file, say, where `--dir` is to go). */
function existsNotAsFolder(path: string): boolean {
  try {
    return !Deno.statSync(path).isDirectory;
  } catch {
    return false;
  }
}

/** Runs the benchmark and prints its table; returns the rows. */
export async function benchReport(options: ReportBenchOptions = {}): Promise<ReportBenchRow[]> {
  const log = options.log ?? ((s: string) => console.log(s));
  const repeats = options.repeats ?? 3;
  const rev = options.previous === undefined ? PREVIOUS_REPORT : options.previous;
  const kit = options.kit ??
    ((root: string) => ({
      cmd: Deno.execPath(),
      args: ["run", "--allow-all", `${root}/lib/cli/main.ts`],
    }));
  if (options.dir !== undefined && existsNotAsFolder(options.dir)) {
    throw new KitError(`--dir ${options.dir}: not a folder`, { file: options.dir });
  }
  const dir = options.dir ?? await makeKitTempDir("kit-bench-report-");
  await Deno.mkdir(dir, { recursive: true });
  const [runA, runB] = [`${SAMPLES_DIR}/runs/wikiqa-test.run`, `${dir}/negated.run`];
  await writeFileAtomic(runB, negated(await Deno.readTextFile(runA)), { force: true });
  const revisions: { label: string; root: string }[] = [{ label: "this", root: PROJECT_ROOT }];
  let previousDir: string | undefined;
  if (rev) {
    const got = await extractRevision(rev, [
      "deno.json",
      "deno.lock",
      "lib",
      "notebooks",
      "data/samples",
      // The default model of the scoring lessons (`--model` unset) is the bundled fixture.
      "tests/fixtures/tiny-model",
    ]);
    if (!got.dir) throw new KitError(`previous revision ${rev}: not available (${got.why})`);
    previousDir = got.dir;
    revisions.push({ label: rev, root: got.dir });
  }
  const load = () => Deno.loadavg().map((x) => x.toFixed(1)).join(" ");
  log(
    `machine: ${navigator.hardwareConcurrency} CPUs, load average ${load()} at the start ` +
      "(shared with other work: compare within this run)",
  );
  log(rev ? `previous revision: ${rev} (git archive into a temporary folder)` : "previous: none");
  const only = (options.only ?? []).flatMap((o) => ["--only", o]);
  if (only.length) log(`the lessons' waits build ${options.only!.join(", ")} alone (--only)`);
  // Each revision's kit works in its own folder: an INIT_CWD inherited from `deno task bench`
  // would move it to the caller's, where an older kit's `deno info` wrote this checkout's lock
  // file (its package pins) in the middle of the run.
  Deno.env.delete("INIT_CWD");
  const times = new Map<string, number[]>();
  const once = async (target: string, revision: { label: string; root: string }, i: number) => {
    const { cmd, args } = kit(revision.root);
    const out = `${dir}/${revision.label}-${target === "systems" ? "systems" : "lessons"}-${i}`;
    const flags = target === "systems"
      ? ["--data", "sample", "--run", `a=${runA}`, "--run", `b=${runB}`, "--no-pdf"]
      : only;
    // A cold build: no earlier report in its folder to reuse.
    if (target !== "unchanged") await Deno.remove(out, { recursive: true }).catch(() => {});
    const tool: Tool = {
      name: `${revision.label} ${target}`,
      cmd,
      cwd: revision.root,
      args: () => [...args, "report", ...flags, "--out", out],
    };
    console.error(`${tool.name} (${i + 1}/${repeats}) ...`);
    const r = await timedOnce(tool, "", "");
    const key = `${target}\0${revision.label}`;
    times.set(key, [...(times.get(key) ?? []), r.seconds]);
  };
  try {
    // The revisions alternate, so that a change in the machine's load hits both alike.
    for (let i = 0; i < repeats; i++) {
      for (const target of REPORT_TARGETS.map((t) => t.name)) {
        for (const revision of revisions) await once(target, revision, i);
      }
    }
  } finally {
    if (previousDir) await Deno.remove(previousDir, { recursive: true }).catch(() => {});
    if (!options.dir) await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
  log(`load average ${load()} at the end`);
  const rows: ReportBenchRow[] = REPORT_TARGETS.flatMap((t) =>
    revisions.map((r) => {
      const runs = times.get(`${t.name}\0${r.label}`)!;
      return { target: t.name, revision: r.label, seconds: median(runs), runs };
    })
  );
  log("");
  for (const line of reportTable(rows, rev || undefined)) log(line);
  return rows;
}

/**
 * The table: per wait its target, this revision's median (and runs), the previous revision's,
 * and whether the target is met; then one line per target.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { reportTable } from "./report.ts";
 * const row = (target: "lessons" | "systems" | "unchanged", seconds: number) =>
 *   ({ target, revision: "this", seconds, runs: [seconds] });
 * const lines = reportTable([row("lessons", 50), row("systems", 8), row("unchanged", 2)]);
 * assert.equal(lines.length, 2 + 3 + 1);
 * assert.match(lines[2], /^\| lessons: report .* \| ≤ 45 \| 50\.00 \| 50\.00 \| - \| - \| no \|$/);
 * assert.equal(lines.at(-1), "targets met: 2 of 3 (not met: lessons)");
 * ```
 */
export function reportTable(rows: readonly ReportBenchRow[], previous?: string): string[] {
  const lines = [
    `| wait | target s | this revision s (median) | runs | ${
      previous ? `previous ${previous}` : "previous"
    } s (median) | runs | met |`,
    "|---|---:|---:|---|---:|---|---|",
  ];
  const missed: string[] = [];
  for (const t of REPORT_TARGETS) {
    const mine = rows.find((r) => r.target === t.name && r.revision === "this");
    const old = rows.find((r) => r.target === t.name && r.revision !== "this");
    const met = mine !== undefined && mine.seconds <= t.limit;
    if (!met) missed.push(t.name);
    const cells = (r?: ReportBenchRow) =>
      r ? [fmt(r.seconds), r.runs.map((s) => fmt(s)).join(" ")] : ["-", "-"];
    lines.push(
      `| ${t.name}: ${t.what} | ≤ ${t.limit} | ${[...cells(mine), ...cells(old)].join(" | ")} | ${
        met ? "yes" : "no"
      } |`,
    );
  }
  lines.push(
    `targets met: ${REPORT_TARGETS.length - missed.length} of ${REPORT_TARGETS.length}` +
      (missed.length ? ` (not met: ${missed.join(", ")})` : ""),
  );
  return lines;
}

/** The `bench report` command. */
export const benchReportCommand: Command = {
  summary: "the report's waits (a cold build, a report on two runs, an unchanged rebuild) " +
    "beside their targets and a previous revision",
  options: [
    { name: "repeats", value: "N", default: "3", help: "runs of each wait; the median is shown" },
    {
      name: "previous",
      value: "REV|none",
      default: PREVIOUS_REPORT,
      help: "the git revision whose report runs beside this one; none to skip it",
    },
    {
      name: "dir",
      value: "DIR",
      help: "folder of the reports built (default: a temporary folder, removed after)",
    },
    {
      name: "only",
      value: "NN",
      multiple: true,
      help: "the lessons' waits build only the notebook numbered NN (a quick look)",
    },
  ],
  async run(args) {
    const p = parseFlags(args, benchReportCommand);
    const previous = str(p, "previous");
    await benchReport({
      repeats: integerFlag(p, "repeats", 1)!,
      previous: previous === "none" ? false : previous,
      dir: str(p, "dir"),
      only: list(p, "only"),
    });
  },
};
