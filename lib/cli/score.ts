/**
 * `deno task score --model M --dataset D --split S --filter F --out RUN [--backend B]`:
 * scores the whole candidate set of every question and writes a TREC run; prints MAP and
 * MRR of the run on stderr when the split has labels.
 *
 * @module
 */
import { datasetNames, findDataset } from "../data/datasets.ts";
import { evaluate, qrelsFromQuestions, runFromScores, writeRun } from "../metrics/mod.ts";
import { BACKENDS } from "../scoring/model/session.ts";
import { answerQrcdSplit, makeScorer, scoreSplit } from "../scoring/pipeline.ts";
import { describeTraining } from "../scoring/ltr.ts";
import { writeLtrModel } from "../scoring/ltr_file.ts";
import { LTR_FLAGS, readLtrFlags } from "./ltr_flags.ts";
import { writeSpanRun } from "../qrcd/runfile.ts";
import {
  DIR_OPTION,
  FILTER_OPTION,
  filterFlag,
  FORCE_OPTION,
  integerFlag,
  oneOf,
  OUT_OPTION,
  outputFlag,
  parseFlags,
  required,
  RUN_ID_OPTION,
  str,
} from "./args.ts";
import type { Command } from "./command.ts";

/** The `score` command. */
export const scoreCommand: Command = {
  summary: "score a split with a model and write a TREC run",
  options: [
    {
      name: "model",
      value: "M",
      required: true,
      help: "a model folder or Hugging Face id, lexical:wordcnt, lexical:wgtwordcnt, " +
        "lexical:bm25, or ltr (the learned ranker: trained here, no download)",
    },
    { name: "dataset", value: datasetNames().join("|"), required: true, help: "the corpus" },
    { name: "split", value: "S", help: "the split to score (required with --out)" },
    FILTER_OPTION,
    OUT_OPTION,
    FORCE_OPTION,
    RUN_ID_OPTION,
    DIR_OPTION,
    { name: "backend", value: BACKENDS.join("|"), help: "where transformer models run" },
    { name: "batch-size", value: "N", help: "pairs per model call (default 32; QA models 16)" },
    { name: "seed", value: "N", help: "seed of the ranker's training shuffle (default 42)" },
    { name: "no-cache", help: "do not read or write the score cache (transformer models)" },
    { name: "top-k", value: "K", help: "qrcd: answers per record (default 5)" },
    { name: "max-answer-tokens", value: "N", help: "qrcd: longest answer in tokens (default 30)" },
    { name: "doc-stride", value: "N", help: "qrcd: window stride in tokens (default 128)" },
    ...LTR_FLAGS,
  ],
  notes: "--out: a TREC run; RUN.json: ranx/pytrec_eval JSON; .gz: compressed (qrcd: RUN.json, " +
    "the shared task's format, with a QA model). Required, except that --model ltr " +
    "--save-model FILE alone trains and saves the ranker without scoring.",
  async run(args) {
    const p = parseFlags(args, scoreCommand);
    const model = str(p, "model")!;
    const dataset = oneOf(str(p, "dataset")!, datasetNames(), "dataset");
    const ltr = await readLtrFlags(p, model);
    // With --save-model alone the ranker is trained and saved, and nothing is scored.
    if (!ltr.saveModel || str(p, "out") !== undefined) required(p, "out");
    // Checked before the work: an output that cannot be written fails now, not after scoring.
    const out = (await outputFlag(p))?.path;
    if (ltr.saveModel) await outputFlag(p, "save-model");
    const force = p.values.force === true;
    const split = out === undefined ? str(p, "split") ?? "" : required(p, "split");
    const backendFlag = str(p, "backend");
    const backend = backendFlag === undefined ? undefined : oneOf(backendFlag, BACKENDS, "backend");
    const int = (name: string) => integerFlag(p, name, name === "seed" ? 0 : 1);
    if (out === undefined) {
      const t0 = performance.now();
      const ready = await makeScorer("ltr", {
        dataset: dataset,
        seed: int("seed"),
        dir: str(p, "dir"),
        ltrTraining: ltr.training,
      });
      await writeLtrModel(ltr.saveModel!, ready.ltrModel!, { force });
      console.error(
        `${ltr.saveModel}: ranker trained on ${describeTraining(ready.ltrModel!)} in ${
          ((performance.now() - t0) / 1000).toFixed(1)
        } s`,
      );
      return;
    }
    if (findDataset(dataset).task === "qrcd") {
      const t0 = performance.now();
      const run = await answerQrcdSplit(model, split, {
        backend,
        dir: str(p, "dir"),
        topK: int("top-k"),
        maxAnswerTokens: int("max-answer-tokens"),
        docStride: int("doc-stride"),
        batchSize: int("batch-size"),
      });
      await writeSpanRun(out, run, { force });
      console.error(
        `${out}: ${run.size} QRCD records read by ${model} in ${
          ((performance.now() - t0) / 1000).toFixed(1)
        } s (evaluate with: deno task eval qrcd GOLD ${out})`,
      );
      return;
    }
    const filter = filterFlag(p, split);
    const started = performance.now();
    let lastShown = 0;
    const result = await scoreSplit(model, dataset, split, {
      filter,
      backend,
      batchSize: int("batch-size"),
      seed: int("seed"),
      dir: str(p, "dir"),
      ltrTraining: ltr.training,
      scoreCache: p.values["no-cache"] ? false : undefined,
      onProgress(done, total) {
        const now = performance.now();
        if (Deno.stderr.isTerminal() && (now - lastShown > 500 || done === total)) {
          lastShown = now;
          Deno.stderr.writeSync(new TextEncoder().encode(`\rscored ${done}/${total}`));
          if (done === total) Deno.stderr.writeSync(new TextEncoder().encode("\n"));
        }
      },
    });
    const run = runFromScores(result.questions, result.scores);
    const runId = str(p, "run-id") ?? result.scorerId.replace(/[^\w.:-]+/g, "_");
    await writeRun(out, run, { runId, force });
    if (ltr.saveModel) await writeLtrModel(ltr.saveModel, result.ltrModel!, { force });
    const seconds = (performance.now() - started) / 1000;
    const pairs = result.scores.length;
    const ev = evaluate(qrelsFromQuestions(result.questions), run, ["map", "recip_rank"], {
      warn: false,
    });
    console.error(
      `${out}: ${result.questions.length} questions, ${pairs} candidates scored by ` +
        `${result.scorerId} in ${seconds.toFixed(1)} s; ` +
        `${dataset} ${split} ${filter}: MAP ${ev.summary.map.toFixed(4)} MRR ${
          ev.summary.recip_rank.toFixed(4)
        }` + (result.ltrModel ? `\n  ranker trained on ${describeTraining(result.ltrModel)}` : "") +
        (ltr.saveModel ? `\n  model saved to ${ltr.saveModel}` : ""),
    );
  },
};
