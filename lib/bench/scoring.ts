/**
 * `deno task bench scoring`: pairs and tokens per second, peak memory and the CPU/WebGPU
 * agreement of the transformer cross-encoders for each backend and batch size, side by side
 * in one table: the tiny fixture model and every cross-encoder found in the model cache,
 * or (`--shape`) generated models of a real shape (MiniLM-L6, BERT-base).
 *
 * @module
 */
import { loadSplit } from "../data/mod.ts";
import { defaultCacheDir } from "../data/paths.ts";
import { integerFlag, oneOf, parseFlags, str } from "../cli/args.ts";
import type { Command } from "../cli/command.ts";
import { KitError } from "../errors.ts";
import { type CrossEncoder, loadCrossEncoder } from "../scoring/model/crossencoder.ts";
import { batchPlan } from "../scoring/model/inspect.ts";
import {
  SHAPE_NAMES,
  SHAPED_MODEL_SEED,
  shapedModelDir,
  type ShapeName,
} from "../scoring/model/shaped.ts";
import { type Backend, BACKENDS, hasWebGpu } from "../scoring/model/session.ts";
import type { TextPair } from "../scoring/types.ts";

/** The committed tiny cross-encoder. */
export const FIXTURE_MODEL: string = new URL(
  "../../tests/fixtures/tiny-model/cross-encoder",
  import.meta.url,
).pathname;

/** One measured configuration. */
export interface BenchRow {
  model: string;
  backend: Backend;
  batchSize: number;
  pairs: number;
  /** Mean tokens of a pair (special tokens included, padding not). */
  tokensPerPair: number;
  /** Mean length a pair was padded to in its batch (to a multiple of 8 on WebGPU). */
  paddedLength: number;
  /** Seconds for the timed pass (after one warm-up pass over the same pairs). */
  seconds: number;
  pairsPerSecond: number;
  /** Tokens per second (padding not counted). */
  tokensPerSecond: number;
  /** Peak resident set size of the process during the timed pass, MiB. */
  peakRssMiB: number;
  /**
   * Largest |score - cpu score| over the pairs, for a WebGPU row when the CPU backend was
   * timed at the same batch size in the run; `null` otherwise.
   */
  maxDiffFromCpu: number | null;
}

/** Options of {@link benchScoring}. */
export interface BenchOptions {
  /**
   * Models to time (default: the fixture plus every cached cross-encoder; with `shapes`,
   * only the generated models and these).
   */
  models?: string[];
  /** Generated models of real shapes to time ({@link MODEL_SHAPES}), built when missing. */
  shapes?: ShapeName[];
  /** Backends (default: cpu, and webgpu when an adapter exists). */
  backends?: Backend[];
  /** Batch sizes (default 1, 8, 32). */
  batchSizes?: number[];
  /** Pairs per timed pass (default 256). */
  pairs?: number;
  /** Cache folder the generated models live in (default: the kit's cache). */
  cacheDir?: string;
  /** Told each row as it is measured (a long run shows progress). */
  onRow?: (row: BenchRow) => void;
  /**
   * A time budget: `performance.now()` in ms after which no configuration starts. A batch
   * size whose two passes would end after it (estimated from the last rate measured on the
   * same model and backend) is skipped and told to `onSkip`.
   */
  deadline?: number;
  /** Told each configuration skipped for the deadline. */
  onSkip?: (skipped: { model: string; backend: Backend; batchSize: number }) => void;
}

/**
 * Cross-encoders in the model cache (`<cache>/models/<org>--<name>/<rev>/`, complete
 * downloads whose config names a sequence-classification architecture).
 */
export async function cachedCrossEncoders(cacheDir = defaultCacheDir()): Promise<string[]> {
  const found: string[] = [];
  const root = `${cacheDir}/models`;
  try {
    for await (const repo of Deno.readDir(root)) {
      for await (const rev of Deno.readDir(`${root}/${repo.name}`)) {
        const dir = `${root}/${repo.name}/${rev.name}`;
        try {
          await Deno.stat(`${dir}/.complete`);
          const config = JSON.parse(await Deno.readTextFile(`${dir}/config.json`));
          if ((config.architectures ?? []).some((a: string) => /SequenceClassification/.test(a))) {
            found.push(dir);
          }
        } catch { /* incomplete download or unreadable config: not a candidate */ }
      }
    }
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
  }
  return found.sort();
}

/**
 * Benchmark pairs: WikiQA question/sentence pairs (the bundled samples), repeated.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { benchPairs } from "./scoring.ts";
 * const pairs = await benchPairs(100);
 * assert.equal(pairs.length, 100);
 * assert(pairs.every((p) => p.question.length > 0 && p.candidate.length > 0));
 * ```
 */
export async function benchPairs(n: number): Promise<TextPair[]> {
  const { questions } = await loadSplit("wikiqa", "test", { dir: "samples" });
  const all = questions.flatMap((q) =>
    q.candidates.map((c) => ({ question: q.text, candidate: c.text }))
  );
  if (all.length === 0) throw new KitError("the bundled WikiQA sample has no pairs");
  return Array.from({ length: n }, (_, i) => all[i % all.length]);
}

/** Tokens and padded length per pair when `pairs` are batched as the cross-encoder does. */
function tokenCounts(ce: CrossEncoder, pairs: TextPair[], batchSize: number) {
  const plan = batchPlan(ce.model, pairs, batchSize);
  const padded = plan.reduce((n, b) => n + (b["padded length"] as number) * (b.pairs as number), 0);
  const real = plan.reduce(
    (n, b) =>
      n + (1 - (b["padding share"] as number)) * (b["padded length"] as number) *
        (b.pairs as number),
    0,
  );
  return { tokens: Math.round(real), padded };
}

/**
 * Runs the benchmark; returns one row per (model, backend, batch size).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { benchScoring } from "./scoring.ts";
 * const rows = await benchScoring({ backends: ["cpu"], batchSizes: [8], pairs: 16, models: [] });
 * assert(rows.length === 1 && rows[0].pairsPerSecond > 0 && rows[0].tokensPerPair > 3);
 * ```
 */
export async function benchScoring(options: BenchOptions = {}): Promise<BenchRow[]> {
  const models: { spec: string; name: string }[] = [];
  for (const shape of options.shapes ?? []) {
    const spec = await shapedModelDir(shape, {
      cacheDir: options.cacheDir,
      onGenerate: (dir) =>
        console.error(`generating the ${shape} model (random weights) in ${dir}`),
    });
    models.push({ spec, name: `${shape} (generated, seed ${SHAPED_MODEL_SEED})` });
  }
  if (!options.shapes?.length) {
    models.push({ spec: FIXTURE_MODEL, name: "tiny fixture (2 layers, h32)" });
  }
  const extra = options.models ?? (options.shapes?.length ? [] : await cachedCrossEncoders());
  for (const spec of extra) models.push({ spec, name: spec });
  const backends = options.backends ?? (await hasWebGpu() ? ["cpu", "webgpu"] : ["cpu"]);
  const batchSizes = options.batchSizes ?? [1, 8, 32];
  const pairs = await benchPairs(options.pairs ?? 256);
  const rows: BenchRow[] = [];
  for (const model of models) {
    const cpuScores = new Map<number, Float32Array>();
    // CPU first, so that WebGPU rows can say how far they are from it
    const order = [...backends].sort((a, b) => (a === "cpu" ? 0 : 1) - (b === "cpu" ? 0 : 1));
    for (const backend of order) {
      const late = () => options.deadline !== undefined && performance.now() > options.deadline;
      if (late()) {
        for (const batchSize of batchSizes) {
          options.onSkip?.({ model: model.name, backend, batchSize });
        }
        continue;
      }
      const ce = await loadCrossEncoder(model.spec, { backend, scoreCache: false });
      let secondsPerPair = 0;
      try {
        for (const batchSize of batchSizes) {
          const estimate = 2 * pairs.length * secondsPerPair * 1000;
          if (late() || performance.now() + estimate > (options.deadline ?? Infinity)) {
            options.onSkip?.({ model: model.name, backend, batchSize });
            continue;
          }
          // warm-up over the same pairs: WebGPU compiles its kernels for each new shape
          await ce.scorePairs(pairs, { batchSize });
          let peak = Deno.memoryUsage().rss;
          const timer = setInterval(() => {
            peak = Math.max(peak, Deno.memoryUsage().rss);
          }, 10);
          const t0 = performance.now();
          const scores = await ce.scorePairs(pairs, { batchSize });
          const seconds = (performance.now() - t0) / 1000;
          clearInterval(timer);
          peak = Math.max(peak, Deno.memoryUsage().rss);
          secondsPerPair = seconds / pairs.length;
          if (backend === "cpu") cpuScores.set(batchSize, scores);
          const cpu = backend === "cpu" ? undefined : cpuScores.get(batchSize);
          const { tokens, padded } = tokenCounts(ce, pairs, batchSize);
          const row: BenchRow = {
            model: model.name,
            backend,
            batchSize,
            pairs: pairs.length,
            tokensPerPair: tokens / pairs.length,
            paddedLength: padded / pairs.length,
            seconds,
            pairsPerSecond: pairs.length / seconds,
            tokensPerSecond: tokens / seconds,
            peakRssMiB: peak / 2 ** 20,
            maxDiffFromCpu: cpu ? maxAbsDiff(scores, cpu) : null,
          };
          options.onRow?.(row);
          rows.push(row);
        }
      } finally {
        await ce.close();
      }
    }
  }
  return rows;
}

function maxAbsDiff(a: Float32Array, b: Float32Array): number {
  let max = 0;
  for (let i = 0; i < a.length; i++) max = Math.max(max, Math.abs(a[i] - b[i]));
  return max;
}

/**
 * The rows as a Markdown table.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatBenchTable } from "./scoring.ts";
 * const t = formatBenchTable([{ model: "m", backend: "webgpu", batchSize: 8, pairs: 10,
 *   tokensPerPair: 20, paddedLength: 24, seconds: 0.5, pairsPerSecond: 20,
 *   tokensPerSecond: 400, peakRssMiB: 100, maxDiffFromCpu: 1.5e-7 }]);
 * assert(t.includes("| m | webgpu | 8 | 10 | 20.0 | 24.0 | 20.0 | 400 | 100 | 1.5e-7 |"));
 * ```
 */
export function formatBenchTable(rows: BenchRow[]): string {
  const lines = [
    "| model | backend | batch | pairs | tokens/pair | padded/pair | pairs/s | tokens/s | peak RSS MiB | max \\|webgpu - cpu\\| |",
    "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|",
  ];
  // two significant digits below 10 (lavapipe runs a real-shaped model at under 1 pair/s)
  const rate = (v: number, digits: number) => v < 10 ? v.toPrecision(2) : v.toFixed(digits);
  for (const r of rows) {
    const diff = r.maxDiffFromCpu === null ? "" : r.maxDiffFromCpu.toExponential(1);
    lines.push(
      `| ${r.model} | ${r.backend} | ${r.batchSize} | ${r.pairs} | ${
        r.tokensPerPair.toFixed(1)
      } | ${r.paddedLength.toFixed(1)} | ${rate(r.pairsPerSecond, 1)} | ${
        rate(r.tokensPerSecond, 0)
      } | ${Math.round(r.peakRssMiB)} | ${diff} |`,
    );
  }
  return lines.join("\n");
}

/** The `bench scoring` subcommand (registered by the CLI's `bench` group). */
export const benchScoringCommand: Command = {
  summary:
    "pairs/s, tokens/s, peak memory and CPU/WebGPU agreement of the cross-encoders per backend and batch size",
  options: [
    { name: "pairs", value: "N", help: "pairs per timed pass (default 256)" },
    { name: "batch-sizes", value: "N,N,...", help: "batch sizes (default 1,8,32)" },
    {
      name: "backends",
      value: "cpu,webgpu",
      help: "backends (default: cpu, and webgpu when an adapter exists)",
    },
    {
      name: "model",
      value: "PATH|HUB-ID",
      multiple: true,
      help: "a cross-encoder to time beside the test fixture (default: the cached ones)",
    },
    {
      name: "shape",
      value: SHAPE_NAMES.join("|"),
      multiple: true,
      help: "time a generated model of this real shape (random weights, built into the cache " +
        "when missing) instead of the fixture and the cached models",
    },
  ],
  async run(args) {
    const p = parseFlags(args, benchScoringCommand);
    const ints = (v: string | undefined) =>
      v?.split(",").map((x) => {
        if (!/^\d+$/.test(x) || Number(x) < 1) throw new KitError(`not a positive integer: '${x}'`);
        return Number(x);
      });
    const backends = str(p, "backends")?.split(",").map((b) => {
      return oneOf(b, BACKENDS, "backend");
    });
    const extra = (p.values.model as string[] | undefined) ?? undefined;
    const shapes = (p.values.shape as string[] | undefined)?.flatMap((v) => v.split(","))
      .map((v) => oneOf(v, SHAPE_NAMES, "shape"));
    const rows = await benchScoring({
      pairs: integerFlag(p, "pairs", 1),
      batchSizes: ints(str(p, "batch-sizes")),
      backends,
      models: extra,
      shapes,
      // a row on stderr as it is measured: a real-shaped model on a CPU adapter takes minutes
      onRow: (row) => console.error(formatBenchTable([row]).split("\n")[2]),
    });
    console.log(formatBenchTable(rows));
  },
};
