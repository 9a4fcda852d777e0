/**
 * `deno task bench scoring`: pairs per second and peak memory of the transformer
 * cross-encoders for each backend and batch size, with the tiny fixture model and every
 * cross-encoder found in the model cache, side by side in one table.
 *
 * @module
 */
import { loadSplit } from "../data/mod.ts";
import { defaultCacheDir } from "../data/paths.ts";
import { integerFlag, oneOf, parseFlags, str } from "../cli/args.ts";
import type { Command } from "../cli/command.ts";
import { KitError } from "../errors.ts";
import { loadCrossEncoder } from "../scoring/model/crossencoder.ts";
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
  /** Seconds for the timed pass (after one warm-up pass). */
  seconds: number;
  pairsPerSecond: number;
  /** Peak resident set size of the process during the timed pass, MiB. */
  peakRssMiB: number;
}

/** Options of {@link benchScoring}. */
export interface BenchOptions {
  /** Models to time (default: the fixture plus every cached cross-encoder). */
  models?: string[];
  /** Backends (default: cpu, and webgpu when an adapter exists). */
  backends?: Backend[];
  /** Batch sizes (default 1, 8, 32). */
  batchSizes?: number[];
  /** Pairs per timed pass (default 256). */
  pairs?: number;
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

/** Benchmark pairs: WikiQA question/sentence pairs (the bundled samples), repeated. */
async function benchPairs(n: number): Promise<TextPair[]> {
  const { questions } = await loadSplit("wikiqa", "test", { dir: "samples" });
  const all = questions.flatMap((q) =>
    q.candidates.map((c) => ({ question: q.text, candidate: c.text }))
  );
  if (all.length === 0) throw new KitError("the bundled WikiQA sample has no pairs");
  return Array.from({ length: n }, (_, i) => all[i % all.length]);
}

/**
 * Runs the benchmark; returns one row per (model, backend, batch size).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { benchScoring } from "./scoring.ts";
 * const rows = await benchScoring({ backends: ["cpu"], batchSizes: [8], pairs: 16, models: [] });
 * assert(rows.length === 1 && rows[0].pairsPerSecond > 0);
 * ```
 */
export async function benchScoring(options: BenchOptions = {}): Promise<BenchRow[]> {
  const models = [FIXTURE_MODEL, ...(options.models ?? await cachedCrossEncoders())];
  const backends = options.backends ?? (await hasWebGpu() ? ["cpu", "webgpu"] : ["cpu"]);
  const batchSizes = options.batchSizes ?? [1, 8, 32];
  const pairs = await benchPairs(options.pairs ?? 256);
  const rows: BenchRow[] = [];
  for (const model of models) {
    for (const backend of backends) {
      const ce = await loadCrossEncoder(model, { backend, scoreCache: false });
      try {
        for (const batchSize of batchSizes) {
          // warm-up: WebGPU compiles its kernels for each new shape
          await ce.scorePairs(pairs.slice(0, Math.min(pairs.length, batchSize * 2)), { batchSize });
          let peak = Deno.memoryUsage().rss;
          const timer = setInterval(() => {
            peak = Math.max(peak, Deno.memoryUsage().rss);
          }, 10);
          const t0 = performance.now();
          await ce.scorePairs(pairs, { batchSize });
          const seconds = (performance.now() - t0) / 1000;
          clearInterval(timer);
          peak = Math.max(peak, Deno.memoryUsage().rss);
          rows.push({
            model: model === FIXTURE_MODEL ? "tiny fixture (2 layers, h32)" : model,
            backend,
            batchSize,
            pairs: pairs.length,
            seconds,
            pairsPerSecond: pairs.length / seconds,
            peakRssMiB: peak / 2 ** 20,
          });
        }
      } finally {
        await ce.close();
      }
    }
  }
  return rows;
}

/**
 * The rows as a Markdown table.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatBenchTable } from "./scoring.ts";
 * const t = formatBenchTable([{ model: "m", backend: "cpu", batchSize: 8, pairs: 10,
 *   seconds: 0.5, pairsPerSecond: 20, peakRssMiB: 100 }]);
 * assert(t.includes("| m | cpu | 8 | 10 | 20.0 | 100 |"));
 * ```
 */
export function formatBenchTable(rows: BenchRow[]): string {
  const lines = [
    "| model | backend | batch | pairs | pairs/s | peak RSS MiB |",
    "|---|---|---:|---:|---:|---:|",
  ];
  for (const r of rows) {
    lines.push(
      `| ${r.model} | ${r.backend} | ${r.batchSize} | ${r.pairs} | ${
        r.pairsPerSecond.toFixed(1)
      } | ${Math.round(r.peakRssMiB)} |`,
    );
  }
  return lines.join("\n");
}

/** The `bench scoring` subcommand (registered by the CLI's `bench` group). */
export const benchScoringCommand: Command = {
  summary: "pairs/s and peak memory of the cross-encoders per backend and batch size",
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
    const rows = await benchScoring({
      pairs: integerFlag(p, "pairs", 1),
      batchSizes: ints(str(p, "batch-sizes")),
      backends,
      models: extra,
    });
    console.log(formatBenchTable(rows));
  },
};
