/**
 * Qur'an QA 2023 Task A (passage retrieval): rank the 1,266 passages of the Thematic QPC for a
 * question, or answer `-1` alone when the Qur'an holds no answer. MAP@10 (primary) and MRR as
 * the organisers' `QQA23_TaskA_eval.py` computes them, with the complete protocol beside them
 * where its rules differ (docs/qqa23.md). Its entry in the task registry; the code is this folder.
 *
 * @module
 */
import type { Command } from "../cli/command.ts";
import { KitError } from "../errors.ts";
import { loadExport } from "../tasks/load.ts";
import type { ScoreRequest, Task } from "../tasks/task.ts";
import { QQA23_DATASET } from "./dataset.ts";
import { QQA23_REPORT } from "./report_part.ts";

type Stats = (dir: string | undefined) => Promise<{
  passages: number;
  splits: Record<string, Record<string, number>>;
}>;

/** The lexical models that rank the whole collection (`score --model`); a cross-encoder re-ranks BM25's. */
export const QQA23_MODELS = ["lexical:bm25", "lexical:wordcnt", "lexical:wgtwordcnt"] as const;

/** The Qur'an QA 2023 Task A task. */
export const QQA23_TASK: Task = {
  name: "qqa23",
  title: "Qur'an QA 2023 Task A: passage retrieval with zero-answer questions",
  corpora: [QQA23_DATASET],
  measures: [
    { name: "map_cut_10", label: "MAP@10", official: "map_cut_10", primary: true },
    { name: "recip_rank", label: "MRR", official: "recip_rank" },
  ],
  missing: "officially, a question with answers missing from the run is left out of the mean " +
    "and a zero-answer question missing from it counts twice, as 0; the complete protocol " +
    "(every judged question once, a missing one 0) is printed beside it",
  baselines: [{
    name: "BM25 (kit)",
    command: "./kit score --model lexical:bm25 --dataset qqa23 --split dev --out RUN.tsv",
  }],
  page: "your runs' official MAP@10 and MRR and the complete protocol's, the family of paired " +
    "tests, the pair, abstention, and the organisers' published baseline",
  doc: "docs/qqa23.md",
  evalCommands: () =>
    loadExport<Record<string, Command>>(import.meta.url, "./cli.ts", "qqa23EvalCommands"),
  // One row per split: its counts and the collection every split ranks over.
  stats: async (_dataset, split, dir) => {
    const stats = await (await loadExport<Stats>(import.meta.url, "./load.ts", "qqa23Stats"))(dir);
    const rows = Object.fromEntries(
      Object.entries(stats.splits).map((
        [name, row],
      ) => [name, { ...row, passages: stats.passages }]),
    );
    if (split === undefined) return rows;
    if (!Object.hasOwn(rows, split)) {
      throw new KitError(
        `unknown qqa23 split '${split}' (expected: ${Object.keys(rows).join(", ")})`,
      );
    }
    return rows[split];
  },
  report: QQA23_REPORT,
  scoreOut: "a TREC run of at most 10 passages a question, `-1` alone for an abstention",
  scoreOptions: [{
    name: "abstain-below",
    value: "T",
    help: "qqa23: answer -1 (no answer in the Qur'an) for a question whose top score is below T",
  }, {
    name: "rerank-depth",
    value: "N",
    help: "qqa23: BM25's passages a question a cross-encoder re-ranks (default 100)",
  }],
  checkScore(request) {
    if (request.sharded) {
      throw new KitError(
        "--shard/--shards split answer-selection questions; a Qur'an QA 2023 run ranks one " +
          "collection for every question: score it unsharded",
      );
    }
    const lexical = request.model.startsWith("lexical:");
    if (
      request.model === "ltr" ||
      (lexical && !(QQA23_MODELS as readonly string[]).includes(request.model))
    ) {
      throw new KitError(
        `--model ${request.model}: Qur'an QA 2023 passage retrieval ranks the whole collection ` +
          `with ${QQA23_MODELS.join(", ")}, or re-ranks BM25's passages with a cross-encoder ` +
          "(a model folder or hub id); the learned ranker is trained on answer-selection candidates",
      );
    }
  },
  score: async (request) =>
    await (await loadExport<(r: ScoreRequest) => Promise<void>>(
      import.meta.url,
      "./score.ts",
      "scoreQqa23",
    ))(request),
};
