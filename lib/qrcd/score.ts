/**
 * `score --dataset qrcd`: an extractive QA reader over a split, written as the shared task's
 * run file (one JSON object).
 *
 * @module
 */
import type { ScoreRequest } from "../tasks/task.ts";
import { answerQrcdSplit } from "./answer.ts";
import { writeSpanRun } from "./runfile.ts";

/** Reads the split with the request's model and writes the span run to `--out`. */
export async function scoreQrcd(request: ScoreRequest): Promise<void> {
  const t0 = performance.now();
  const run = await answerQrcdSplit(request.model, request.split, {
    backend: request.backend,
    dir: request.dir,
    threads: request.integer("threads", 1),
    topK: request.integer("top-k", 1),
    maxAnswerTokens: request.integer("max-answer-tokens", 1),
    docStride: request.integer("doc-stride", 1),
    batchSize: request.integer("batch-size", 1),
  });
  await writeSpanRun(request.out, run, { force: request.force });
  // The command that scores it: the split's gold by name (test's is published without answers,
  // so there a file of gold records), from the corpus folder the run was read from.
  const gold = request.split === "test" ? "GOLD.jsonl" : request.split;
  const dir = request.dir === undefined ? "" : ` --dir ${request.dir}`;
  console.error(
    `${request.out}: ${run.size} QRCD records read by ${request.model} in ${
      ((performance.now() - t0) / 1000).toFixed(1)
    } s (evaluate with: ./kit eval qrcd ${gold} ${request.out}${dir})`,
  );
}
