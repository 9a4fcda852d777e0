/**
 * Helpers of the cluster tests (`slurm_test.ts`, `cluster_files_test.ts`,
 * `cluster_cache_test.ts`): Deno's cache seen through a read-only mount, the qrels of the
 * bundled WikiQA test sample, and the comparison of two runs under trec_eval.
 *
 * @module
 */
import { PROJECT_ROOT } from "../../lib/data/paths.ts";
import { loadSplit } from "../../lib/data/mod.ts";
import { qrelsFromQuestions, writeQrels } from "../../lib/metrics/mod.ts";
import { runCli, runTrecEval, trecEvalBinary } from "../helpers.ts";

/** The fixture cross-encoder: the model the cluster tests score with. */
export const MODEL = `${PROJECT_ROOT}/tests/fixtures/tiny-model/cross-encoder`;

/** The data every cluster test scores: the bundled WikiQA test sample, unfiltered. */
export const DATA = { dataset: "wikiqa", split: "test", filter: "raw", dir: "samples" };

/** `score`'s flags of {@link DATA} with the fixture model on the native CPU backend. */
export const SCORE_ARGS = [
  "--model",
  MODEL,
  "--dataset",
  DATA.dataset,
  "--split",
  DATA.split,
  "--filter",
  DATA.filter,
  "--dir",
  DATA.dir,
  "--backend",
  "cpu",
];

/** The scheduler's variables, emptied: a child sees only the ones a test gives it. */
export const NO_SCHEDULER: Record<string, string> = {
  JOB_COMPLETION_INDEX: "",
  SLURM_ARRAY_TASK_ID: "",
  SLURM_ARRAY_TASK_MIN: "",
  SLURM_ARRAY_TASK_MAX: "",
  SLURM_ARRAY_TASK_COUNT: "",
  SLURM_CPUS_PER_TASK: "",
};

const decode = (b: Uint8Array) => new TextDecoder().decode(b);

/** Deno's cache folder of this Deno (`deno info --json`'s `denoDir`). */
export async function denoDir(): Promise<string> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json"],
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!out.success) throw new Error(`deno info --json: ${decode(out.stderr)}`);
  return JSON.parse(decode(out.stdout)).denoDir;
}

/**
 * Fills Deno's cache `dir` with everything the CLI imports, as a cluster's shared cache is
 * filled once: `DENO_DIR=dir deno cache lib/cli/main.ts`.
 */
export async function fillDenoCache(dir: string): Promise<void> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["cache", `${PROJECT_ROOT}/lib/cli/main.ts`],
    cwd: PROJECT_ROOT,
    env: { DENO_DIR: dir, NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!out.success) throw new Error(`deno cache lib/cli/main.ts: ${decode(out.stderr)}`);
}

/** A folder mounted read-only, and how to unmount it. */
export interface ReadOnlyMount {
  dir: string;
  close(): Promise<void>;
}

/**
 * This Deno's cache, filled ({@link fillDenoCache}) and then bind-mounted read-only on a new
 * temporary folder: a DENO_DIR nothing can write (as the shared cache of a cluster's jobs
 * should be). Undefined where this process cannot mount (not root).
 */
export async function readOnlyDenoDir(): Promise<ReadOnlyMount | undefined> {
  if (Deno.uid() !== 0) return undefined;
  const source = await denoDir();
  await fillDenoCache(source);
  const dir = await Deno.makeTempDir({ prefix: "kit-deno-ro-" });
  const mount = (args: string[]) =>
    new Deno.Command("mount", { args, stdout: "null", stderr: "piped" }).output()
      .catch(() => undefined);
  const bound = await mount(["--bind", source, dir]);
  if (!bound?.success) {
    await Deno.remove(dir);
    return undefined;
  }
  const close = async () => {
    await new Deno.Command("umount", { args: [dir], stdout: "null", stderr: "null" }).output();
    await Deno.remove(dir).catch(() => {});
  };
  const ro = await mount(["-o", "remount,ro,bind", dir]);
  if (!ro?.success) {
    await close();
    throw new Error(`mount -o remount,ro,bind ${dir}: ${decode(ro?.stderr ?? new Uint8Array())}`);
  }
  return { dir, close };
}

/** Writes the qrels of {@link DATA} to `path`. */
export async function writeDataQrels(path: string): Promise<void> {
  const { questions } = await loadSplit(DATA.dataset as "wikiqa", DATA.split, {
    filter: DATA.filter as "raw",
    dir: DATA.dir,
  });
  await writeQrels(path, qrelsFromQuestions(questions));
}

/**
 * What trec_eval 9.0.8 says of a run, every measure and every question
 * (`trec_eval -q -c -m all_trec QRELS RUN`); where it is not built, the kit's own
 * `eval trec -q -c`, saying so (a failure under `QA_KIT_REQUIRE_TREC_EVAL=1`).
 */
export async function trecEvalAll(qrels: string, run: string): Promise<string> {
  if (trecEvalBinary()) return (await runTrecEval(["-q", "-c", "-m", "all_trec", qrels, run]))!;
  if (Deno.env.get("QA_KIT_REQUIRE_TREC_EVAL") === "1") {
    throw new Error("trec_eval 9.0.8 is not built but QA_KIT_REQUIRE_TREC_EVAL=1: ./kit setup");
  }
  console.error("trec_eval 9.0.8 is not built: runs compared with the kit's eval trec alone");
  const r = await runCli(["eval", "trec", "-q", "-c", qrels, run]);
  if (r.code !== 0) throw new Error(`eval trec ${run}: ${r.stderr}`);
  return r.stdout;
}

/** A run's lines, sorted: two runs with the same lines are the same run. */
export async function runLines(path: string): Promise<string[]> {
  return (await Deno.readTextFile(path)).split("\n").filter(Boolean).sort();
}
