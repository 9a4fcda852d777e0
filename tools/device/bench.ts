/**
 * The device run's benchmark (started by tools/device/run.sh; see tools/device/README.md):
 * generates the real-shaped cross-encoders (MiniLM-L6, then BERT-base) and times them on
 * `webgpu` (the GPU) and `cpu` (onnxruntime-node on the machine's CPU cores) with
 * `benchScoring`, most important first, within a time budget, and measures the agreement of
 * the backends on each. After every step it rewrites
 * `<out>/scoring.md` (the tables) and `<out>/scoring.json` (every row, skipped
 * configurations, the adapter, timings), so a run cut short still leaves its results.
 *
 *   deno run -A tools/device/bench.ts --out DIR [--budget 400] [--small]
 *
 * `--small` is the rehearsal on a CPU adapter (lavapipe): fewer pairs and batch sizes.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { type BenchRow, benchScoring, formatBenchTable } from "../../lib/bench/scoring.ts";
import { backendAgreement, webGpuAdapterInfo } from "../../lib/scoring/model/inspect.ts";
import { benchPairs } from "../../lib/bench/scoring.ts";
import { hasWebGpu } from "../../lib/scoring/model/session.ts";
import { chooseBackend } from "../../lib/scoring/model/backend.ts";
import { nativeThreads } from "../../lib/scoring/model/native.ts";
import { MODEL_SHAPES, shapedModelDir, type ShapeName } from "../../lib/scoring/model/shaped.ts";
import { writeFileAtomic } from "../../lib/io/atomic.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    out: { type: "string" },
    budget: { type: "string", default: "400" },
    small: { type: "boolean", default: false },
  },
});
if (!values.out) throw new Error("--out DIR is required");
const out = values.out;
const started = performance.now();
const deadline = started + Number(values.budget) * 1000;

/** What each backend runs: batch sizes and pairs per timed pass. */
const PLAN = values.small
  ? {
    webgpu: { batchSizes: [1, 4], pairs: 8 },
    cpu: { batchSizes: [1, 4], pairs: 8 },
    agreementPairs: 4,
  }
  : {
    webgpu: { batchSizes: [1, 8, 32, 64, 128, 256], pairs: 512 },
    cpu: { batchSizes: [1, 8, 32, 128], pairs: 512 },
    agreementPairs: 64,
  };

const report = {
  started: new Date().toISOString(),
  small: values.small,
  budgetSeconds: Number(values.budget),
  deno: Deno.version,
  os: `${Deno.build.os} ${Deno.build.arch}`,
  cpus: navigator.hardwareConcurrency,
  nativeThreads: nativeThreads(),
  adapter: await webGpuAdapterInfo(),
  /** What `auto` picks there, and why. */
  defaultBackend: (await chooseBackend("auto")).line,
  plan: PLAN,
  generated: [] as { shape: ShapeName; dir: string; seconds: number; onnxMiB: number }[],
  rows: [] as BenchRow[],
  skipped: [] as { model: string; backend: string; batchSize: number }[],
  agreement: [] as Record<string, unknown>[],
  errors: [] as { step: string; message: string }[],
  seconds: 0,
};

const log = (line: string) =>
  console.log(`[${((performance.now() - started) / 1000).toFixed(1)} s] ${line}`);

async function save(): Promise<void> {
  report.seconds = (performance.now() - started) / 1000;
  await writeFileAtomic(`${out}/scoring.json`, JSON.stringify(report, null, 2) + "\n", {
    force: true,
  });
  const md = [
    `# bench scoring on ${String(report.adapter.adapter)} (${report.os}, ${report.cpus} CPUs)`,
    "",
    `Started ${report.started}; ${report.seconds.toFixed(0)} s so far; Deno ${report.deno.deno}; ` +
    `${values.small ? "rehearsal sizes (--small)" : "full sizes"}; cpu backend on ` +
    `${report.nativeThreads} intra-op threads.`,
    "",
    report.defaultBackend,
    "",
    formatBenchTable(report.rows),
    "",
    ...report.agreement.map((a) => `- agreement ${JSON.stringify(a)}`),
    ...report.skipped.map((s) =>
      `- skipped for time: ${s.model} ${s.backend} batch ${s.batchSize}`
    ),
    ...report.errors.map((e) => `- error in ${e.step}: ${e.message}`),
    "",
  ];
  await writeFileAtomic(`${out}/scoring.md`, md.join("\n"), { force: true });
}

/** Runs a step; an error is recorded and the run goes on with the next step. */
async function step(name: string, fn: () => Promise<void>): Promise<void> {
  log(`start ${name}`);
  try {
    await fn();
  } catch (e) {
    const message = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
    report.errors.push({ step: name, message });
    log(`error in ${name}: ${message}`);
  }
  await save();
}

const webgpu = await hasWebGpu();
log(`adapter: ${JSON.stringify(report.adapter)}`);
await save();
const dirs = new Map<ShapeName, string>();
for (const shape of ["minilm-l6", "bert-base"] as ShapeName[]) {
  if (performance.now() > deadline) break;
  await step(`generate ${shape}`, async () => {
    const t0 = performance.now();
    const dir = await shapedModelDir(shape);
    const size = (await Deno.stat(`${dir}/onnx/model.onnx`)).size;
    report.generated.push({
      shape,
      dir,
      seconds: (performance.now() - t0) / 1000,
      onnxMiB: size / 2 ** 20,
    });
    dirs.set(shape, dir);
    log(`${shape}: ${MODEL_SHAPES[shape].parameters} parameters, ${size} bytes`);
  });
  if (!dirs.has(shape)) continue;
  const backends = webgpu ? (["webgpu", "cpu"] as const) : (["cpu"] as const);
  for (const backend of backends) {
    await step(`${shape} ${backend}`, async () => {
      await benchScoring({
        shapes: [shape],
        backends: [backend],
        batchSizes: PLAN[backend].batchSizes,
        pairs: PLAN[backend].pairs,
        deadline,
        // the anchor is ../shared's, which does not travel to the device
        anchor: false,
        onRow: (row) => {
          report.rows.push(row);
          log(formatBenchTable([row]).split("\n")[2]);
        },
        onSkip: (s) => report.skipped.push(s),
      });
    });
  }
  if (webgpu && performance.now() < deadline) {
    await step(`${shape} agreement`, async () => {
      const pairs = await benchPairs(PLAN.agreementPairs);
      const row = await backendAgreement(dirs.get(shape)!, pairs, { softwareAdapter: true });
      report.agreement.push({ shape, batch: 32, ...row });
      log(`agreement: ${JSON.stringify(report.agreement.at(-1))}`);
    });
  }
}
log(`done in ${((performance.now() - started) / 1000).toFixed(1)} s`);
await save();
