/**
 * QRCD reading comprehension (Qur'an QA 2022): ranked answer spans of a passage for a question,
 * scored as the official scorer does (pRR primary, exact match, F1@1). Its entry in the task
 * registry; the code is this folder.
 *
 * @module
 */
import type { Command } from "../cli/command.ts";
import { loadExport } from "../tasks/load.ts";
import type { ScoreRequest, Task } from "../tasks/task.ts";
import { KitError } from "../errors.ts";
import { QRCD_DATASET } from "./dataset.ts";
import { QRCD_REPORT } from "./report_part.ts";

type Stats = (split: string | undefined, dir: string | undefined) => Promise<unknown>;

/** The QRCD task. */
export const QRCD_TASK: Task = {
  name: "qrcd",
  title: "QRCD reading comprehension (Qur'an QA 2022): ranked answer spans",
  corpora: [QRCD_DATASET],
  measures: [
    { name: "pRR", label: "pRR", official: "pRR", primary: true },
    { name: "exact_match", label: "EM", official: "exact_match" },
    { name: "f1_at_1", label: "F1@1", official: "f1@1" },
  ],
  missing: "a gold record missing from the run scores 0 on every measure",
  baselines: [{
    name: "overlap baseline (kit)",
    command: "./kit eval qrcd-baseline --split dev --out RUN.json",
  }],
  page: "your QRCD runs beside the kit's overlap baseline: pRR, EM, F1@1, each question's pRR " +
    "and the submission checker's findings",
  doc: "docs/qrcd.md",
  evalCommands: () =>
    loadExport<Record<string, Command>>(import.meta.url, "./cli.ts", "qrcdCommands"),
  stats: async (_dataset, split, dir) =>
    await (await loadExport<Stats>(import.meta.url, "./cli.ts", "qrcdStatsBySplit"))(split, dir),
  report: QRCD_REPORT,
  scoreOut: "RUN.json, the shared task's format, with a QA model",
  scoreOptions: [
    { name: "top-k", value: "K", help: "qrcd: answers per record (default 5)" },
    { name: "max-answer-tokens", value: "N", help: "qrcd: longest answer in tokens (default 30)" },
    { name: "doc-stride", value: "N", help: "qrcd: window stride in tokens (default 128)" },
  ],
  checkScore(request) {
    if (request.sharded) {
      throw new KitError(
        "--shard/--shards split answer-selection questions into TREC runs; a QRCD run is one " +
          "JSON object: score QRCD unsharded",
      );
    }
    if (request.model.startsWith("lexical:") || request.model === "ltr") {
      throw new KitError(
        `--model ${request.model} ranks candidate sentences (answer selection); QRCD asks for ` +
          "answer spans in a passage: give an extractive QA reader (a model folder or hub id)",
      );
    }
  },
  score: async (request) =>
    await (await loadExport<(r: ScoreRequest) => Promise<void>>(
      import.meta.url,
      "./score.ts",
      "scoreQrcd",
    ))(request),
};
