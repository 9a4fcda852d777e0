/**
 * `deno task score --model M --dataset D --split S --filter F --out RUN [--backend B]`:
 * scores the whole candidate set of every question and writes a TREC run; prints MAP and
 * MRR of the run on stderr when the split has labels.
 *
 * @module
 */
import type { As2Dataset } from "../data/types.ts";
import { KitError } from "../errors.ts";
import { evaluate, qrelsFromQuestions, runFromScores, writeRun } from "../metrics/mod.ts";
import { BACKENDS } from "../scoring/model/session.ts";
import { makeScorer, readQrcdSplit, scoreSplit } from "../scoring/pipeline.ts";
import { describeTraining } from "../scoring/ltr.ts";
import { writeLtrModel } from "../scoring/ltr_file.ts";
import { LTR_OPTION_SPECS, LTR_USAGE, readLtrFlags } from "./ltr_flags.ts";
import { writeSpanRun } from "../qrcd/runfile.ts";
import { filterFlag, oneOf, outputFlag, parseFlags, required, str } from "./args.ts";
import type { Command } from "./command.ts";

/** The `score` command. */
export const scoreCommand: Command = {
  summary: "score a split with a model and write a TREC run",
  usage: "--model <path|hub-id|lexical:wordcnt|lexical:wgtwordcnt|lexical:bm25|ltr> " +
    "--dataset wikiqa|trecqa|qrcd --split S [--filter raw|no-all|clean] --out RUN " +
    "(RUN.json: ranx/pytrec_eval JSON; .gz: compressed) " +
    "[--top-k 5] [--max-answer-tokens 30] [--doc-stride 128] (qrcd: RUN.json, a QA model) " +
    "[--backend webgpu|cpu] [--batch-size N] [--seed N] [--run-id ID] [--dir CORPUS_DIR] " +
    "[--no-cache] [--force]\n" +
    "  filter default: clean for dev/test, no-all for train (the protocol's)\n  ltr training: " +
    LTR_USAGE,
  async run(args) {
    const p = parseFlags(args, {
      model: { type: "string" },
      dataset: { type: "string" },
      split: { type: "string" },
      filter: { type: "string" },
      out: { type: "string" },
      backend: { type: "string" },
      "batch-size": { type: "string" },
      seed: { type: "string" },
      "run-id": { type: "string" },
      dir: { type: "string" },
      "no-cache": { type: "boolean" },
      force: { type: "boolean" },
      "top-k": { type: "string" },
      "max-answer-tokens": { type: "string" },
      "doc-stride": { type: "string" },
      ...LTR_OPTION_SPECS,
    });
    if (p.positionals.length) throw new KitError(`unexpected argument '${p.positionals[0]}'`);
    const model = required(p, "model");
    const dataset = oneOf(required(p, "dataset"), ["wikiqa", "trecqa", "qrcd"] as const, "dataset");
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
    const int = (name: string) => {
      const v = str(p, name);
      if (v === undefined) return undefined;
      if (!/^\d+$/.test(v) || Number(v) < (name === "seed" ? 0 : 1)) {
        throw new KitError(`--${name} takes a positive integer, got '${v}'`);
      }
      return Number(v);
    };
    if (out === undefined) {
      const t0 = performance.now();
      const ready = await makeScorer("ltr", {
        dataset: dataset as As2Dataset,
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
    if (dataset === "qrcd") {
      const t0 = performance.now();
      const run = await readQrcdSplit(model, split, {
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
    const result = await scoreSplit(model, dataset as As2Dataset, split, {
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
