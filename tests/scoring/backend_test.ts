/**
 * Which backend runs a model: `auto` takes a hardware WebGPU adapter, else the native CPU
 * backend, else wasm (saying why), and never a software adapter; a named backend runs as
 * named or fails saying why.
 */
import assert from "node:assert/strict";
import { isSoftwareAdapter, webGpuAdapter } from "../../lib/scoring/model/adapter.ts";
import { chooseBackend } from "../../lib/scoring/model/backend.ts";
import { loadCrossEncoder } from "../../lib/scoring/model/crossencoder.ts";
import { backendAgreement } from "../../lib/scoring/model/inspect.ts";
import { PROJECT_ROOT } from "../../lib/data/paths.ts";

const FIXTURE = `${PROJECT_ROOT}/tests/fixtures/tiny-model/cross-encoder`;

Deno.test("adapters: software ones are told from hardware ones", () => {
  const software = [
    // lavapipe as Deno 2.9.6 reports it (the flag on adapter.info)
    { description: "llvmpipe (LLVM 15.0.6, 256 bits)", vendor: "65541", isFallbackAdapter: true },
    // the same without the flag: Mesa's vendor id, or the driver's name
    { description: "llvmpipe (LLVM 17.0.6, 256 bits)", vendor: "65541" },
    { description: "", device: "lavapipe", vendor: "0x10005" },
    { description: "SwiftShader Device (Subzero)", vendor: "6880" },
    { description: "Microsoft Basic Render Driver", vendor: "5140" },
    { description: "softpipe", vendor: "" },
    // any adapter that says it is a fallback
    { description: "Some GPU", vendor: "4318", isFallbackAdapter: true },
  ];
  for (const a of software) assert.ok(isSoftwareAdapter(a), JSON.stringify(a));
  const hardware = [
    { description: "NVIDIA H200", vendor: "4318", isFallbackAdapter: false },
    { description: "AMD Radeon RX 7900 XTX (RADV NAVI31)", vendor: "4098" },
    { description: "Intel(R) Arc(tm) A770 Graphics (DG2)", vendor: "32902" },
    { description: "Apple M2", vendor: "apple" },
  ];
  for (const a of hardware) assert.ok(!isSoftwareAdapter(a), JSON.stringify(a));
});

Deno.test("auto: never a software adapter; here the native CPU backend, and the line says why", async () => {
  const adapter = await webGpuAdapter();
  const chosen = await chooseBackend("auto");
  if (adapter && !adapter.software) {
    assert.equal(chosen.backend, "webgpu");
    assert.match(chosen.line, /a hardware WebGPU adapter/);
    return;
  }
  assert.equal(chosen.backend, "cpu");
  assert.equal(chosen.threads, navigator.hardwareConcurrency);
  assert.match(
    chosen.line,
    /^scoring backend: cpu \(onnxruntime-node 1\.30\.0, native CPU, \d+ intra-op threads? \([^)]+\)\)/,
  );
  if (adapter) {
    // lavapipe in CI: named, and said to be software
    assert.ok(chosen.line.includes(`"${adapter.description}" is software`), chosen.line);
    assert.match(chosen.line, /never the default/);
  } else assert.match(chosen.line, /no WebGPU adapter/);
  // a model loaded without a backend runs where auto says
  const ce = await loadCrossEncoder(FIXTURE, { scoreCache: false });
  assert.equal(ce.model.session.backend, "cpu");
  await ce.close();
});

Deno.test("a named backend: as named; a software adapter when asked for, said so", async () => {
  assert.equal((await chooseBackend("wasm")).backend, "wasm");
  assert.equal((await chooseBackend("cpu", { threads: 1 })).threads, 1);
  const adapter = await webGpuAdapter();
  if (adapter) {
    const gpu = await chooseBackend("webgpu");
    assert.equal(gpu.backend, "webgpu");
    if (adapter.software) assert.match(gpu.line, /a software adapter/);
  } else await assert.rejects(chooseBackend("webgpu"), /no WebGPU adapter/);
  await assert.rejects(chooseBackend("tpu" as never), /unknown backend 'tpu'/);
});

Deno.test("where the native backend cannot load (no ffi permission), auto falls back to wasm saying why, and cpu fails saying why", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const child = `${dir}/child.ts`;
    await Deno.writeTextFile(
      child,
      `import { loadCrossEncoder } from "${PROJECT_ROOT}/lib/scoring/model/crossencoder.ts";
const pair = [{ question: "who wrote hamlet?", candidate: "Shakespeare wrote it." }];
const ce = await loadCrossEncoder(Deno.args[0], { scoreCache: false });
console.log(JSON.stringify({ backend: ce.model.session.backend, score: (await ce.scorePairs(pair))[0] }));
await ce.close();
try {
  await loadCrossEncoder(Deno.args[0], { backend: "cpu", scoreCache: false });
} catch (e) {
  console.log(JSON.stringify({ error: (e as Error).message }));
}
`,
    );
    // everything but ffi: the Node-API addon of onnxruntime-node needs it
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--allow-read", "--allow-env", `--allow-write=${dir}`, child, FIXTURE],
      env: { NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const stderr = new TextDecoder().decode(out.stderr);
    assert.ok(out.success, stderr);
    const [first, second] = new TextDecoder().decode(out.stdout).trim().split("\n").map((l) =>
      JSON.parse(l)
    );
    assert.equal(first.backend, "wasm");
    assert.match(
      stderr,
      /scoring backend: wasm .*the native CPU backend cannot load \(.*--allow-ffi/,
    );
    assert.equal(stderr.match(/scoring backend:/g)!.length, 1); // said once per process
    assert.match(
      second.error,
      /backend cpu: onnxruntime-node 1\.30\.0 cannot load here \(.*--allow-ffi.*\); backend wasm runs everywhere/,
    );
    // the same score as the native backend gives
    const ce = await loadCrossEncoder(FIXTURE, { backend: "cpu", scoreCache: false });
    const [native] = await ce.scorePairs([{
      question: "who wrote hamlet?",
      candidate: "Shakespeare wrote it.",
    }]);
    await ce.close();
    assert.ok(Math.abs(first.score - native) < 1e-4, `${first.score} vs ${native}`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("backend agreement: a software adapter only when asked for", async () => {
  const adapter = await webGpuAdapter();
  const pairs = [{ question: "who wrote hamlet?", candidate: "Shakespeare wrote it." }];
  const row = await backendAgreement(FIXTURE, pairs);
  assert.equal(row.reference, "cpu");
  assert.ok(Number(row["max |wasm - cpu|"]) < 1e-4);
  if (adapter?.software) {
    assert.match(String(row["max |webgpu - cpu|"]), /software adapter: left out/);
    const asked = await backendAgreement(FIXTURE, pairs, { softwareAdapter: true });
    assert.ok(Number(asked["max |webgpu - cpu|"]) < 1e-4);
  } else if (adapter) assert.ok(Number(row["max |webgpu - cpu|"]) < 1e-4);
  else assert.equal(row["max |webgpu - cpu|"], "no adapter");
});
