/**
 * `deno task data <fetch|stats|qrels>`.
 *
 * @module
 */
import { KitError } from "../errors.ts";
import {
  datasetNames,
  describeFilter,
  fetchDataset,
  findDataset,
  loadSplit,
  splitStats,
} from "../data/mod.ts";
import { qrelsFromQuestions, writeQrels } from "../metrics/mod.ts";
import type { Command } from "./command.ts";
import {
  DIR_OPTION,
  FILTER_OPTION,
  filterFlag,
  FORCE_OPTION,
  oneOf,
  OUT_OPTION,
  outputFlag,
  parseFlags,
  readFoldersOf,
  str,
} from "./args.ts";
import { findTask } from "../tasks/registry.ts";

const fetchCommand: Command = {
  summary: "download (or copy from --mirror), verify and install corpora",
  positionals: [{ name: "CORPUS", help: `${datasetNames().join(", ")} or all` }],
  options: [
    {
      name: "mirror",
      value: "DIR",
      help: "take the files from this folder (laid out like ../shared/datasets) instead of the " +
        "network",
    },
    DIR_OPTION,
  ],
  async run(args) {
    const p = parseFlags(args, fetchCommand);
    const which = p.positionals[0];
    const names = which === "all"
      ? datasetNames()
      : [oneOf(which, [...datasetNames(), "all"], "corpus")];
    for (const name of names) {
      await fetchDataset(name, { mirror: str(p, "mirror"), dir: str(p, "dir") });
    }
  },
};

const statsCommand: Command = {
  summary: "questions, candidates, positives, all-positive / all-negative questions per split",
  positionals: [{ name: "CORPUS", help: datasetNames().join(", ") }],
  options: [
    { name: "split", value: "S", help: "one split (default: every split of the corpus)" },
    FILTER_OPTION,
    DIR_OPTION,
    { name: "json", help: "JSON instead of a table" },
  ],
  async run(args) {
    const p = parseFlags(args, statsCommand);
    const name = oneOf(p.positionals[0], datasetNames(), "corpus");
    const split = str(p, "split");
    const entry = findDataset(name);
    if (entry.task !== "as2") {
      // Another task counts its own corpus (records, passages, zero-answer questions).
      const task = findTask(entry.task);
      if (!task.stats) throw new KitError(`${name} statistics are not available in this build`);
      const stats = await task.stats(name, split, str(p, "dir"));
      console.log(p.values.json ? JSON.stringify(stats, null, 2) : formatTable(stats));
      return;
    }
    const splits = split ? [split] : Object.keys(entry.splits);
    const out: Record<string, ReturnType<typeof splitStats>> = {};
    let sample = false;
    for (const s of splits) {
      const filter = filterFlag(p, s, () => {}); // describeFilter below names it
      const loaded = await loadSplit(name, s, { filter, dir: str(p, "dir") });
      sample ||= loaded.isSample;
      out[s] = splitStats(loaded.questions);
      if (!p.values.json) console.error(`${s}: ${describeFilter(loaded.report)}`);
    }
    if (sample) {
      console.error(
        `note: ${name} is not fetched; these are the bundled samples (deno task data fetch ${name})`,
      );
    }
    const result = split ? out[split] : out;
    console.log(p.values.json ? JSON.stringify(result, null, 2) : formatTable(out));
  },
};

/** Formats `{row: {col: value}}` as an aligned text table. */
export function formatTable(rows: unknown): string {
  const obj = rows as Record<string, Record<string, unknown>>;
  const names = Object.keys(obj);
  if (names.length === 0) return "";
  const first = obj[names[0]];
  if (typeof first !== "object" || first === null) {
    return Object.entries(obj).map(([k, v]) => `${k.padEnd(16)} ${v}`).join("\n");
  }
  const cols = Object.keys(first);
  const widths = [Math.max(5, ...names.map((n) => n.length)), ...cols.map((c) => c.length + 2)];
  const lines = [
    ["split", ...cols].map((c, i) => i === 0 ? c.padEnd(widths[0]) : c.padStart(widths[i])).join(
      "",
    ),
  ];
  for (const n of names) {
    lines.push(
      [n.padEnd(widths[0]), ...cols.map((c, i) => String(obj[n][c]).padStart(widths[i + 1]))].join(
        "",
      ),
    );
  }
  return lines.join("\n");
}

const qrelsCommand: Command = {
  summary: "write the qrels of a split (corpus ids; every candidate judged with its label)",
  positionals: [{ name: "CORPUS", help: datasetNames("as2").join(" or ") }],
  options: [
    { name: "split", value: "S", required: true, help: "the split" },
    FILTER_OPTION,
    OUT_OPTION,
    FORCE_OPTION,
    DIR_OPTION,
  ],
  notes: "FILE: TREC qrels, or ranx/pytrec_eval JSON when it ends in .json (.gz: compressed); " +
    "default: standard output",
  async run(args) {
    const p = parseFlags(args, qrelsCommand);
    const name = oneOf(p.positionals[0], datasetNames("as2"), "corpus");
    const split = str(p, "split")!;
    const filter = filterFlag(p, split);
    const out = await outputFlag(p, "out", readFoldersOf(p));
    const loaded = await loadSplit(name, split, { filter, dir: str(p, "dir") });
    console.error(describeFilter(loaded.report));
    const qrels = qrelsFromQuestions(loaded.questions);
    if (out) await writeQrels(out.path, qrels, { force: out.force });
    else {
      for (const [qid, docs] of qrels) {
        const lines: string[] = [];
        for (const [d, r] of docs) lines.push(`${qid} 0 ${d} ${r}`);
        console.log(lines.join("\n"));
      }
    }
  },
};

/** The `data` command group. */
export const dataCommands: Record<string, Command> = {
  fetch: fetchCommand,
  stats: statsCommand,
  qrels: qrelsCommand,
};
