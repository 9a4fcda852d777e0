/**
 * The worker of `halves.ts`: reads the second half of the qrels into shared memory, then
 * judges, ranks and measures the second half of the run against the joined index, with the
 * one-thread code. A `KitError` is answered as a failure (the caller then reads on one thread,
 * which reports it with its line).
 *
 * @module
 */
import { KitError } from "../errors.ts";
import { evaluateRunRange } from "./grouped_run.ts";
import type { HalvesReply, HalvesRequest } from "./halves.ts";
import { QrelsIndex } from "./qrels_index.ts";

const scope = self as unknown as {
  onmessage: (e: MessageEvent<HalvesRequest>) => void;
  postMessage: (m: HalvesReply) => void;
};

async function answer(request: HalvesRequest): Promise<HalvesReply> {
  const { path, range, release, chunkBytes } = request;
  if (request.type === "qrels") {
    const index = await QrelsIndex.read(path, { release, chunkBytes, range });
    return { type: "qrels", index: index.state() };
  }
  const part = await evaluateRunRange(
    QrelsIndex.fromState(request.qrels),
    path,
    range,
    request.measures,
    request.options,
    { release, chunkBytes },
  );
  return { type: "run", pass: part.pass, values: part.evaluator.state(), runId: part.runId };
}

scope.onmessage = (e) => {
  answer(e.data).then((reply) => scope.postMessage(reply), (err) => {
    const kit = err instanceof KitError;
    scope.postMessage({
      type: "failed",
      kit,
      problem: kit ? err.problem : String((err as Error)?.stack ?? err),
    });
  });
};
