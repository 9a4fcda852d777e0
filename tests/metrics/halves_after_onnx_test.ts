/**
 * A process that scored on onnxruntime-web's `wasm` backend and then evaluates large files: the
 * wasm build sets `globalThis.Worker` to `node:worker_threads`' Worker, which refused the module
 * worker of the halves ("must be an absolute path"); the halves use the runtime's own Worker
 * (`lib/io/web_worker.ts`) and still give the one-thread route's values.
 */
import "../quick.ts";
import { assert, assertEquals } from "../assert.ts";
import { createWebSession } from "../../lib/scoring/model/web.ts";
import { readInHalves } from "../../lib/metrics/engine/halves.ts";

Deno.test("halves after a wasm scoring session: a Web Worker still reads the second half", async () => {
  const before = globalThis.Worker;
  const bytes = await Deno.readFile("tests/fixtures/tiny-model/qa/model.onnx");
  const session = await createWebSession(bytes, "wasm");
  await session.run(1, 3, { ids: [2, 20, 3], mask: [1, 1, 1], typeIds: [0, 0, 0] });
  await session.release();
  // The condition this test is about: onnxruntime-web has replaced the global.
  assert(globalThis.Worker !== before, "onnxruntime-web no longer replaces globalThis.Worker");
  const dir = await Deno.makeTempDir({ prefix: "kit-halves-onnx-" });
  try {
    await Deno.writeTextFile(`${dir}/qrels`, "q1 0 a 1\nq2 0 b 1\n");
    await Deno.writeTextFile(`${dir}/run`, "q1 Q0 a 1 1 r\nq2 Q0 c 1 2 r\nq2 Q0 b 2 1 r\n");
    const halves = await readInHalves(`${dir}/qrels`, `${dir}/run`, ["recip_rank"], {
      release: "9.0.8",
      evaluator: {},
      firstShare: 0.2, // q1 here, q2 on the worker
    });
    assert(halves !== undefined, "the halves gave up: the worker did not start");
    const result = halves.evaluator.result({
      complete: false,
      runOnlyQueries: [],
      missing: [],
      runId: halves.runId,
    });
    assertEquals([...result.perQuery], [["q1", { recip_rank: 1 }], ["q2", { recip_rank: 0.5 }]]);
  } finally {
    globalThis.Worker = before;
    await Deno.remove(dir, { recursive: true });
  }
});
