/**
 * `deno task bench scoring`: pairs and tokens per second, peak memory and the agreement of the
 * transformer cross-encoders for each backend (every one that runs here: native `cpu`,
 * `wasm`, `webgpu` on any adapter) and batch size, side by side in one table: the tiny fixture
 * model and every cross-encoder found in the model cache, or (`--shape`) generated models of a
 * real shape (MiniLM-L6, BERT-base). With the MiniLM-L6 shape, the PyTorch anchor
 * (`torch_anchor.ts`) is timed in the same run when Debian's `python3-torch` is installed, and
 * every row says its rate over PyTorch's at the same batch size.
 *
 * @module
 */
import { loadSplit } from "../data/mod.ts";
import { defaultCacheDir } from "../data/paths.ts";
import { integerFlag, oneOf, parseFlags, str } from "../cli/args.ts";
import type { Command } from "../cli/command.ts";
import { KitError } from "../errors.ts";
import { markdownText } from "../io/escape.ts";
import { type CrossEncoder, loadCrossEncoder } from "../scoring/model/crossencoder.ts";
import { batchPlan } from "../scoring/model/inspect.ts";
import { resolveModelDir } from "../scoring/model/hub.ts";
import {
  MODEL_SHAPES,
  SHAPE_NAMES,
  SHAPED_MODEL_SEED,
  shapedModelDir,
  type ShapeName,
} from "../scoring/model/shaped.ts";
import { type Backend, BACKENDS } from "../scoring/model/session_types.ts";
import { webGpuAdapter } from "../scoring/model/adapter.ts";
import { loadNativeOrt, nativeThreads } from "../scoring/model/native.ts";
import { chooseBackend } from "../scoring/model/backend.ts";
import type { TextPair } from "../scoring/types.ts";
import {
  type AnchorRun,
  type AnchorSetup,
  anchorUnavailable,
  DEFAULT_TORCH_ANCHOR,
  DEFAULT_TORCH_PYTHON,
  runAnchor,
} from "./torch_anchor.ts";

/** The committed tiny cross-encoder. */
export const FIXTURE_MODEL: string = new URL(
  "../../tests/fixtures/tiny-model/cross-encoder",
  import.meta.url,
).pathname;

/** One measured configuration. */
export interface BenchRow {
  model: string;
  /** A backend of the kit, or `pytorch` (the anchor). */
  backend: Backend | "pytorch";
  /** Threads it ran on (intra-op threads; absent for WebGPU). */
  threads?: number;
  batchSize: number;
  pairs: number;
  /** Mean tokens of a pair (special tokens included, padding not). */
  tokensPerPair: number;
  /** Mean length a pair was padded to in its batch (to a multiple of 8 on WebGPU). */
  paddedLength: number;
  /** Seconds of the fastest timed pass (after one warm-up pass over the same pairs). */
  seconds: number;
  pairsPerSecond: number;
  /** Tokens per second (padding not counted). */
  tokensPerSecond: number;
  /** Peak resident set size of the process during the timed pass, MiB. */
  peakRssMiB: number;
  /**
   * Largest |score - reference score| over the pairs, where the reference is the first
   * backend timed at the same batch size in the run (`cpu` when it runs); `null` for the
   * reference itself and the anchor.
   */
  maxDiffFromCpu: number | null;
  /** Pairs per second over the best PyTorch anchor rate at this batch size, when timed. */
  vsPyTorch?: number;
  /** What a row adds (the anchor's torch version and BLAS). */
  note?: string;
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
  /** Backends (default: every one that runs here; see {@link availableBackends}). */
  backends?: Backend[];
  /** Intra-op threads of the native CPU backend (default: the CPUs this process may use). */
  threads?: number;
  /**
   * The PyTorch anchor, run beside the MiniLM-L6 shape (`false`: not at all): where it is,
   * and the thread counts to time it at (default 1 and the cpu backend's threads).
   */
  anchor?: (AnchorSetup & { threads?: number[] }) | false;
  /** Told why the anchor did not run. */
  onAnchorSkipped?: (reason: string) => void;
  /** Batch sizes (default 1, 8, 32). */
  batchSizes?: number[];
  /** Pairs per timed pass (default 256). */
  pairs?: number;
  /** Timed passes per configuration, the fastest kept (default 1; the anchor likewise). */
  repeats?: number;
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
  onSkip?: (skipped: { model: string; backend: Backend | "pytorch"; batchSize: number }) => void;
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
 * Every backend that runs here, reference first: native `cpu` when onnxruntime-node loads,
 * `wasm` always, `webgpu` when there is an adapter (a software one too: the benchmark shows
 * what it costs).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { availableBackends } from "./scoring.ts";
 * const backends = await availableBackends();
 * assert(backends.includes("wasm") && backends[0] !== "webgpu");
 * ```
 */
export async function availableBackends(): Promise<Backend[]> {
  const out: Backend[] = [];
  if ((await loadNativeOrt()).ort) out.push("cpu");
  out.push("wasm");
  if (await webGpuAdapter()) out.push("webgpu");
  return out;
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
  const { questions } = await loadSplit("wikiqa", "test", { filter: "raw", dir: "samples" });
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
  const models: { spec: string; name: string; shape?: ShapeName }[] = [];
  for (const shape of options.shapes ?? []) {
    const spec = await shapedModelDir(shape, {
      cacheDir: options.cacheDir,
      onGenerate: (dir) =>
        console.error(`generating the ${shape} model (random weights) in ${dir}`),
      onSwept: (path) => console.error(`removed ${path}, left by an interrupted earlier run`),
    });
    models.push({ spec, name: `${shape} (generated, seed ${SHAPED_MODEL_SEED})`, shape });
  }
  if (!options.shapes?.length) {
    models.push({ spec: FIXTURE_MODEL, name: "tiny fixture (2 layers, h32)" });
  }
  const extra = options.models ?? (options.shapes?.length ? [] : await cachedCrossEncoders());
  // every model found (or downloaded) before anything is timed: a wrong path fails now, not
  // after minutes of other rows
  for (const spec of extra) await resolveModelDir(spec, { cacheDir: options.cacheDir });
  for (const spec of extra) models.push({ spec, name: spec });
  const backends = options.backends ?? await availableBackends();
  const batchSizes = options.batchSizes ?? [1, 8, 32];
  const repeats = options.repeats ?? 1;
  const pairs = await benchPairs(options.pairs ?? 256);
  const rows: BenchRow[] = [];
  for (const model of models) {
    const reference = new Map<number, Float32Array>();
    // the reference (cpu, else wasm) first, so that the other rows can say how far they are
    const order = [...backends].sort((a, b) => BACKEND_ORDER[a] - BACKEND_ORDER[b]);
    const modelRows: BenchRow[] = [];
    // the PyTorch anchor of the MiniLM-L6 shape runs right after the first backend's row of
    // each batch size, so that the two are timed under the same load
    const anchor = model.shape === "minilm-l6" && options.anchor !== false
      ? await anchorTimer(model.name, pairs.length, options)
      : undefined;
    for (const backend of order) {
      const late = () => options.deadline !== undefined && performance.now() > options.deadline;
      if (late()) {
        for (const batchSize of batchSizes) {
          options.onSkip?.({ model: model.name, backend, batchSize });
        }
        continue;
      }
      const ce = await loadCrossEncoder(model.spec, {
        backend,
        threads: options.threads,
        scoreCache: false,
      });
      let secondsPerPair = 0;
      try {
        for (const batchSize of batchSizes) {
          const estimate = (1 + repeats) * pairs.length * secondsPerPair * 1000;
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
          // the fastest of the timed passes: the one least disturbed by other work
          let seconds = Infinity;
          let scores: Float32Array = new Float32Array();
          for (let r = 0; r < repeats; r++) {
            const t0 = performance.now();
            scores = await ce.scorePairs(pairs, { batchSize });
            seconds = Math.min(seconds, (performance.now() - t0) / 1000);
          }
          clearInterval(timer);
          peak = Math.max(peak, Deno.memoryUsage().rss);
          secondsPerPair = seconds / pairs.length;
          const base = reference.get(batchSize);
          if (!base) reference.set(batchSize, scores);
          const { tokens, padded } = tokenCounts(ce, pairs, batchSize);
          const row: BenchRow = {
            model: model.name,
            backend,
            ...(ce.model.session.threads ? { threads: ce.model.session.threads } : {}),
            batchSize,
            pairs: pairs.length,
            tokensPerPair: tokens / pairs.length,
            paddedLength: padded / pairs.length,
            seconds,
            pairsPerSecond: pairs.length / seconds,
            tokensPerSecond: tokens / seconds,
            peakRssMiB: peak / 2 ** 20,
            maxDiffFromCpu: base ? maxAbsDiff(scores, base) : null,
          };
          options.onRow?.(row);
          modelRows.push(row);
          if (anchor && backend === order[0]) await anchor.time(batchSize, row.paddedLength);
        }
      } finally {
        await ce.close();
      }
    }
    if (anchor) modelRows.push(...anchor.finish(modelRows));
    rows.push(...modelRows);
  }
  return rows;
}

const BACKEND_ORDER: Record<Backend, number> = { cpu: 0, wasm: 1, webgpu: 2 };

/** The batch sizes the anchor times. */
const ANCHOR_BATCH_SIZES = [1, 8, 32];

/**
 * The PyTorch anchor for a MiniLM-L6 model, or undefined (said to `onAnchorSkipped`) when it
 * cannot run here. `time(batchSize, paddedLength)` runs it at that batch size's mean padded
 * length at each thread count (the best of `repeats` runs each); `finish` gives every kit row
 * its rate over the best anchor rate at its batch size, and returns the anchor's rows.
 */
async function anchorTimer(name: string, pairs: number, options: BenchOptions) {
  const setup = options.anchor || {};
  const why = await anchorUnavailable(setup);
  if (why) {
    options.onAnchorSkipped?.(why);
    return undefined;
  }
  const threads = [...new Set(setup.threads ?? [1, nativeThreads(options.threads)])];
  const out: BenchRow[] = [];
  return {
    async time(batchSize: number, paddedLength: number): Promise<void> {
      if (!ANCHOR_BATCH_SIZES.includes(batchSize)) {
        options.onAnchorSkipped?.(
          `the anchor times batch sizes 1, 8 and 32 only, not ${batchSize}`,
        );
        return;
      }
      const length = Math.round(paddedLength);
      for (const t of threads) {
        if (options.deadline !== undefined && performance.now() > options.deadline) {
          options.onSkip?.({ model: name, backend: "pytorch", batchSize });
          continue;
        }
        let best: { run: AnchorRun; rate: number } | undefined;
        for (let r = 0; r < (options.repeats ?? 1); r++) {
          const run = await runAnchor(setup, t, length, pairs);
          if (run.parameters !== MODEL_SHAPES["minilm-l6"].parameters) {
            throw new KitError(
              `the PyTorch anchor has ${run.parameters} parameters, not MiniLM-L6's ` +
                `${MODEL_SHAPES["minilm-l6"].parameters}: not the same model shape`,
            );
          }
          const rate = run.pairsPerSecond.get(batchSize);
          if (rate === undefined) {
            throw new KitError(`the PyTorch anchor printed no rate at batch ${batchSize}`);
          }
          if (!best || rate > best.rate) best = { run, rate };
        }
        const { run, rate } = best!;
        const row: BenchRow = {
          model: name,
          backend: "pytorch",
          threads: run.threads,
          batchSize,
          pairs,
          tokensPerPair: run.length,
          paddedLength: run.length,
          seconds: pairs / rate,
          pairsPerSecond: rate,
          tokensPerSecond: rate * run.length,
          peakRssMiB: NaN,
          maxDiffFromCpu: null,
          note: `torch ${run.torch}${run.blas ? `, ${run.blas}` : ""}, OPENBLAS_CORETYPE and ` +
            `OPENBLAS_L2_SIZE unset, OPENBLAS_NUM_THREADS=${t}`,
        };
        options.onRow?.(row);
        out.push(row);
      }
    },
    finish(kitRows: BenchRow[]): BenchRow[] {
      for (const r of [...kitRows, ...out]) {
        const best = Math.max(
          ...out.filter((a) => a.batchSize === r.batchSize).map((a) => a.pairsPerSecond),
        );
        if (Number.isFinite(best)) r.vsPyTorch = r.pairsPerSecond / best;
      }
      return out;
    },
  };
}

function maxAbsDiff(a: Float32Array, b: Float32Array): number {
  let max = 0;
  for (let i = 0; i < a.length; i++) max = Math.max(max, Math.abs(a[i] - b[i]));
  return max;
}

/**
 * The rows as a Markdown table: `× PyTorch` is the row's pairs/s over the best anchor rate at
 * its batch size; `max |Δ|` the largest score difference from the reference backend (the
 * first timed: cpu when it runs) on the same pairs.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatBenchTable } from "./scoring.ts";
 * const t = formatBenchTable([{ model: "m", backend: "webgpu", batchSize: 8, pairs: 10,
 *   tokensPerPair: 20, paddedLength: 24, seconds: 0.5, pairsPerSecond: 20,
 *   tokensPerSecond: 400, peakRssMiB: 100, maxDiffFromCpu: 1.5e-7, vsPyTorch: 0.05 }]);
 * assert(t.includes("| m | webgpu |  | 8 | 10 | 20.0 | 24.0 | 20.0 | 0.05 | 400 | 100 | 1.5e-7 |"));
 * ```
 */
export function formatBenchTable(rows: BenchRow[]): string {
  const lines = [
    "| model | backend | threads | batch | pairs | tokens/pair | padded/pair | pairs/s | × PyTorch | tokens/s | peak RSS MiB | max \\|Δ\\| from the first backend |",
    "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
  ];
  // two significant digits below 10 (lavapipe runs a real-shaped model at under 1 pair/s)
  const rate = (v: number, digits: number) => v < 10 ? v.toPrecision(2) : v.toFixed(digits);
  for (const r of rows) {
    const diff = r.maxDiffFromCpu === null ? "" : r.maxDiffFromCpu.toExponential(1);
    const ratio = r.vsPyTorch === undefined ? "" : r.vsPyTorch.toFixed(2);
    const rss = Number.isFinite(r.peakRssMiB) ? String(Math.round(r.peakRssMiB)) : "";
    const model = markdownText(r.model); // a model's name or folder: text
    lines.push(
      `| ${model} | ${r.backend} | ${r.threads ?? ""} | ${r.batchSize} | ${r.pairs} | ${
        r.tokensPerPair.toFixed(1)
      } | ${r.paddedLength.toFixed(1)} | ${rate(r.pairsPerSecond, 1)} | ${ratio} | ${
        rate(r.tokensPerSecond, 0)
      } | ${rss} | ${diff} |`,
    );
  }
  return lines.join("\n");
}
/** The `bench scoring` subcommand (registered by the CLI's `bench` group). */
export const benchScoringCommand: Command = {
  summary: "pairs/s, tokens/s, peak memory and agreement of the cross-encoders per backend and " +
    "batch size, beside PyTorch on the MiniLM-L6 shape",
  options: [
    { name: "pairs", value: "N", help: "pairs per timed pass (default 256)" },
    {
      name: "repeats",
      value: "N",
      help: "timed passes per configuration, the fastest kept (default 1; on a loaded machine " +
        "3 or more)",
    },
    { name: "batch-sizes", value: "N,N,...", help: "batch sizes (default 1,8,32)" },
    {
      name: "backends",
      value: BACKENDS.join(","),
      help: "backends (default: every one that runs here: cpu when onnxruntime-node loads, " +
        "wasm, webgpu when there is an adapter, a software one too)",
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
    {
      name: "torch-anchor",
      value: "FILE",
      help: "the PyTorch anchor timed beside --shape minilm-l6 (default " +
        "../shared/tools/anchors/torch_minilm_cpu.py beside the kit)",
    },
    {
      name: "torch-python",
      value: "PATH",
      help: `the Python that imports torch (default ${DEFAULT_TORCH_PYTHON}, Debian's)`,
    },
    {
      name: "torch-threads",
      value: "N,N,...",
      help: "threads to time the anchor at; each batch size is compared with the best " +
        "(default 1 and the cpu backend's threads)",
    },
    { name: "no-torch", help: "do not run the PyTorch anchor" },
  ],
  notes: "The anchor runs once per batch size and thread count, with that batch size's mean " +
    "padded length in the kit, and with OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE removed from " +
    "its environment. See docs/performance.md.",
  async run(args) {
    const p = parseFlags(args, benchScoringCommand);
    const ints = (name: string) =>
      str(p, name)?.split(",").map((x) => {
        if (!/^\d+$/.test(x) || Number(x) < 1) {
          throw new KitError(`--${name}: not a positive integer: '${x}'`);
        }
        return Number(x);
      });
    const backends = str(p, "backends")?.split(",").map((b) => {
      return oneOf(b, BACKENDS, "backend");
    });
    const extra = (p.values.model as string[] | undefined) ?? undefined;
    const shapes = (p.values.shape as string[] | undefined)?.flatMap((v) => v.split(","))
      .map((v) => oneOf(v, SHAPE_NAMES, "shape"));
    const load = () => Deno.loadavg().map((x) => x.toFixed(2)).join(" ");
    const before = load();
    console.error((await chooseBackend("auto")).line);
    const notes: string[] = [];
    const rows = await benchScoring({
      pairs: integerFlag(p, "pairs", 1),
      repeats: integerFlag(p, "repeats", 1),
      batchSizes: ints("batch-sizes"),
      backends,
      models: extra,
      shapes,
      anchor: p.values["no-torch"] ? false : {
        script: str(p, "torch-anchor") ?? DEFAULT_TORCH_ANCHOR,
        python: str(p, "torch-python") ?? DEFAULT_TORCH_PYTHON,
        threads: ints("torch-threads"),
      },
      onAnchorSkipped: (why) => notes.push(`PyTorch anchor not run: ${why}`),
      // a row on stderr as it is measured: a real-shaped model on a CPU adapter takes minutes
      onRow: (row) => console.error(formatBenchTable([row]).split("\n")[2]),
    });
    for (const n of new Set(rows.flatMap((r) => r.note ? [`${r.backend}: ${r.note}`] : []))) {
      notes.push(n);
    }
    notes.push(
      `${navigator.hardwareConcurrency} CPUs; load average (1, 5, 15 min) ${before} before, ` +
        `${load()} after`,
    );
    console.log(formatBenchTable(rows) + "\n\n" + notes.map((n) => `- ${n}`).join("\n"));
  },
};
