/**
 * `deno task score --model M --dataset D --split S --filter F --out RUN [--backend B]
 * [--shard I/N | --shards N]`: scores the whole candidate set of every question (or of one
 * shard's questions) and writes a TREC run; prints MAP and MRR of the run on stderr when the
 * split has labels.
 *
 * @module
 */
import { datasetNames, findDataset } from "../data/datasets.ts";
import { evaluate, qrelsFromQuestions, runFromScores, writeRun } from "../metrics/mod.ts";
import { chooseBackend } from "../scoring/model/backend.ts";
import { resolveShard, type Shard } from "../scoring/shard.ts";
import { writeShardRecord } from "../scoring/shard_record.ts";
import { shardAction, type ShardPlan, shardPlan } from "./shard_plan.ts";
import type { As2Dataset } from "../data/types.ts";
import { makeScorer, scoreSplit } from "../scoring/pipeline.ts";
import { describeTraining } from "../scoring/ltr.ts";
import { writeLtrModel } from "../scoring/ltr_file.ts";
import { LTR_FLAGS, readLtrFlags } from "./ltr_flags.ts";
import { findTask, TASKS } from "../tasks/registry.ts";
import {
  BACKEND_OPTION,
  backendFlag,
  DIR_OPTION,
  FILTER_OPTION,
  filterFlag,
  FORCE_OPTION,
  integerFlag,
  oneOf,
  OUT_OPTION,
  outputFlag,
  parseFlags,
  readFoldersOf,
  required,
  RUN_ID_OPTION,
  str,
} from "./args.ts";
import type { Command, Option } from "./command.ts";
import type { Parsed } from "./grammar.ts";
import { KitError } from "../errors.ts";
import type { Backend } from "../scoring/model/session_types.ts";

/**
 * Puts the shard's index into `--out` (`{shard}`); a sharded run needs the placeholder, so
 * that the shards of a job array never write one file, and an unsharded one must not have it.
 */
function shardedOut(p: Parsed, shard: Shard | undefined): void {
  const out = str(p, "out");
  if (out === undefined || out === "-") return;
  const has = out.includes("{shard}");
  if (shard && !has) {
    throw new KitError(
      `with --shard or --shards, --out needs {shard} in its name so that each shard writes its ` +
        `own file (e.g. runs/ce.{shard}.run), not '${out}'`,
    );
  }
  if (!shard && has) {
    throw new KitError(`--out '${out}' has {shard}, but no --shard or --shards is given`);
  }
  if (shard) p.values.out = out.replaceAll("{shard}", String(shard.index));
}

/** The flags of every corpus; each task adds its own (`scoreOptions`). */
const SHARED_OPTIONS: Option[] = [
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
  BACKEND_OPTION,
  {
    name: "shard",
    value: "I/N",
    help: "score shard I (from 0) of N: the questions whose id hashes to I (FNV-1a mod N); " +
      "--out names each shard's file with {shard}",
  },
  {
    name: "shards",
    value: "N",
    help: "N shards, the index taken from SLURM_ARRAY_TASK_ID (relative to " +
      "SLURM_ARRAY_TASK_MIN) or JOB_COMPLETION_INDEX: one command line for a job array",
  },
  { name: "batch-size", value: "N", help: "pairs per model call (default 32; QA models 16)" },
  { name: "seed", value: "N", help: "seed of the ranker's training shuffle (default 42)" },
  { name: "no-cache", help: "do not read or write the score cache (transformer models)" },
  {
    name: "threads",
    value: "N",
    help: "intra-op threads of the cpu backend (default: the CPUs this job was given, the " +
      "smallest of SLURM_CPUS_PER_TASK, the cgroup CPU quota, the CPU affinity and the " +
      "machine's CPUs; the backend line says which)",
  },
  ...LTR_FLAGS,
];

/** The `score` command. */
export const scoreCommand: Command = {
  summary: "score a split with a model and write a TREC run",
  // Read when asked: a task added at run time (addTask) brings its flags.
  get options() {
    return [...SHARED_OPTIONS, ...TASKS.flatMap((t) => t.scoreOptions ?? [])];
  },
  get notes() {
    return "--out: a TREC run; RUN.json: ranx/pytrec_eval JSON; .gz: compressed (" +
      TASKS.filter((t) => t.scoreOut).map((t) => `${t.name}: ${t.scoreOut}`).join("; ") +
      "). Required, except that --model ltr " +
      "--save-model FILE alone trains and saves the ranker without scoring. With --shard or " +
      "--shards, {shard} in --out is replaced by the shard's index; the shards' runs together " +
      "(concatenated, or given together to eval as2) are the unsharded run. See docs/scoring.md.";
  },
  async run(args) {
    const p = parseFlags(args, scoreCommand);
    const model = str(p, "model")!;
    const dataset = oneOf(str(p, "dataset")!, datasetNames(), "dataset");
    const ltr = await readLtrFlags(p, model);
    // With --save-model alone the ranker is trained and saved, and nothing is scored.
    if (!ltr.saveModel || str(p, "out") !== undefined) required(p, "out");
    const shard = resolveShard({ shard: str(p, "shard"), shards: str(p, "shards") });
    shardedOut(p, shard);
    // A task other than answer selection scores its own corpora (its flags in the table above).
    const task = findTask(findDataset(dataset).task);
    const own = task.score !== undefined;
    // A shard already complete for this job is skipped; the kit's own output of another job
    // (or changed since) is redone, replaced without --force.
    let plan: ShardPlan | undefined;
    if (shard && !own) {
      const split = required(p, "split");
      plan = await shardPlan(p, shard, str(p, "out")!, dataset as As2Dataset, filterFlag(p, split));
      const act = shardAction(plan, shard, str(p, "out")!, p.values.force === true);
      if (act.line) console.error(act.line);
      if (act.action === "skip") return;
      if (act.action === "redo") p.values.force = true;
    }
    // Checked before the work: an output that cannot be written fails now, not after scoring.
    const out = (await outputFlag(p, "out", readFoldersOf(p)))?.path;
    if (ltr.saveModel) await outputFlag(p, "save-model", readFoldersOf(p));
    const force = p.values.force === true;
    const split = out === undefined ? str(p, "split") ?? "" : required(p, "split");
    // refused before anything is said or loaded
    if (own && out !== undefined) {
      task.checkScore?.({ model, dataset, sharded: shard !== undefined });
    }
    // The backend is chosen (and said) once, for a model that runs on one.
    const backendChoice = backendFlag(p);
    let backend: Backend | undefined;
    if (!model.startsWith("lexical:") && model !== "ltr") {
      const chosen = await chooseBackend(backendChoice, { threads: integerFlag(p, "threads", 1) });
      console.error(chosen.line);
      backend = chosen.backend;
    }
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
    if (own) {
      await task.score!({
        model,
        dataset,
        split,
        out,
        force,
        dir: str(p, "dir"),
        backend,
        sharded: shard !== undefined,
        flag: (name) => str(p, name),
        integer: (name, min = 1) => integerFlag(p, name, min),
        has: (name) => p.values[name] === true,
      });
      return;
    }
    const filter = filterFlag(p, split);
    if (shard) {
      console.error(
        `shard ${shard.index} of ${shard.count} (${shard.source}): the questions whose id ` +
          `hashes to ${shard.index} (FNV-1a mod ${shard.count})`,
      );
    }
    const started = performance.now();
    let lastShown = 0;
    const result = await scoreSplit(model, dataset, split, {
      filter,
      backend,
      batchSize: int("batch-size"),
      threads: int("threads"),
      seed: int("seed"),
      dir: str(p, "dir"),
      ltrTraining: ltr.training,
      scoreCache: p.values["no-cache"] ? false : undefined,
      shard,
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
    const questions = result.questions.length;
    if (shard && plan) {
      await writeShardRecord(out, plan.job, shard, questions, { pending: true });
    }
    await writeRun(out, run, { runId, force });
    if (shard && plan) await writeShardRecord(out, plan.job, shard, questions);
    if (ltr.saveModel) await writeLtrModel(ltr.saveModel, result.ltrModel!, { force });
    const seconds = (performance.now() - started) / 1000;
    const pairs = result.scores.length;
    // A shard may hold no question (few questions, many shards): its run is empty, which is
    // said; there is nothing to evaluate.
    const of = shard ? ` (shard ${shard.index} of ${shard.count}: MAP of its questions alone)` : "";
    let measured: string;
    if (result.questions.length === 0) {
      measured = shard
        ? `shard ${shard.index} of ${shard.count} holds none of the split's ` +
          `${result.splitQuestions} questions: the run is empty`
        : "the split has no question: the run is empty";
    } else {
      const ev = evaluate(qrelsFromQuestions(result.questions), run, ["map", "recip_rank"], {
        warn: false,
      });
      measured = `MAP ${ev.summary.map.toFixed(4)} MRR ${ev.summary.recip_rank.toFixed(4)}${of}`;
    }
    console.error(
      `${out}: ${result.questions.length} questions, ${pairs} candidates scored by ` +
        `${result.scorerId} in ${seconds.toFixed(1)} s; ` +
        `${dataset} ${split} ${filter}: ${measured}` +
        (result.ltrModel ? `\n  ranker trained on ${describeTraining(result.ltrModel)}` : "") +
        (ltr.saveModel ? `\n  model saved to ${ltr.saveModel}` : ""),
    );
  },
};
