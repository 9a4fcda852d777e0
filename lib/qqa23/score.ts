/**
 * `score --dataset qqa23`: a lexical model ranks the whole passage collection for each question
 * of a split (a cross-encoder re-ranks BM25's first `--rerank-depth` passages: ./rerank.ts) and
 * the run is written in the form the official submission checker accepts (at most 10 passages a
 * question; `--abstain-below T` answers `-1` alone for a question whose top score is below T).
 *
 * @module
 */
import { KitError } from "../errors.ts";
import { writeFileAtomic } from "../io/atomic.ts";
import type { ScoreRequest } from "../tasks/task.ts";
import { scoreQqa23Split } from "./retrieve.ts";
import { rerankQqa23Split } from "./rerank.ts";

/** The threshold of `--abstain-below`: a plain decimal number (negative allowed). */
function threshold(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!/^-?\d+(\.\d+)?$/.test(text.trim()) || !Number.isFinite(value)) {
    throw new KitError(`--abstain-below ${text}: give a decimal number, e.g. 2.5`);
  }
  return value;
}

/** Ranks the split's questions with the request's model and writes the run to `--out`. */
export async function scoreQqa23(request: ScoreRequest): Promise<void> {
  if (/\.(json|gz)$/i.test(request.out)) {
    throw new KitError(
      `--out ${request.out}: a Qur'an QA 2023 run is a plain TREC text file, the official ` +
        "checker's format (no JSON, no gzip): give a name like TEAM_RUN.tsv",
    );
  }
  const abstainBelow = threshold(request.flag("abstain-below"));
  const t0 = performance.now();
  const tag = request.flag("run-id") ?? request.model.replace(/[^A-Za-z0-9]+/g, "_");
  const lexical = request.model.startsWith("lexical:");
  const depth = request.integer("rerank-depth", 1);
  if (lexical && depth !== undefined) {
    throw new KitError("--rerank-depth is for a cross-encoder, which re-ranks BM25's passages");
  }
  const scored = lexical
    ? await scoreQqa23Split(request.model, request.split, { dir: request.dir, abstainBelow, tag })
    : await rerankQqa23Split(request.model, request.split, {
      dir: request.dir,
      abstainBelow,
      tag,
      depth,
      backend: request.backend,
      threads: request.integer("threads", 1),
      batchSize: request.integer("batch-size", 1),
      scoreCache: request.has("no-cache") ? false : undefined,
    });
  await writeFileAtomic(request.out, scored.text, { force: request.force });
  const abstained = abstainBelow === undefined
    ? ""
    : `, ${scored.abstained} answered -1 (top score below ${abstainBelow})`;
  console.error(
    `${request.out}: ${scored.questions} questions ranked ${
      lexical ? "over the collection" : "(BM25's passages re-ranked)"
    } by ` +
      `${request.model} in ${((performance.now() - t0) / 1000).toFixed(1)} s${abstained} ` +
      `(evaluate with: ./kit eval qqa23 ${request.split} ${request.out}${
        request.dir === undefined ? "" : ` --dir ${request.dir}`
      })`,
  );
}
