/**
 * The worker of `halves.ts`: reads the second half of the qrels into shared memory, joins it to
 * the first half (read by the other thread, which joins the two the same way), then judges,
 * ranks and measures the second half of the run against the joined index, with the one-thread
 * code. A `KitError` is answered as a failure (the caller then reads on one thread,
 * which reports it with its line).
 *
 * @module
 */
import { KitError } from "../../errors.ts";
import { evaluateRunRange } from "./grouped_run.ts";
import type { HalvesReply, HalvesRequest } from "./halves.ts";
import { QrelsIndex } from "./qrels_index.ts";

const scope = self as unknown as {
  onmessage: (e: MessageEvent<HalvesRequest>) => void;
  postMessage: (m: HalvesReply) => void;
};

/**
 * This thread's part of the qrels (the second), once asked for: the run's request may come
 * while it is still being read (requests are answered in order, the run's after it).
 */
let own: Promise<QrelsIndex | undefined> = Promise.resolve(undefined);

async function answer(request: HalvesRequest): Promise<HalvesReply> {
  const { path, range, release, chunkBytes } = request;
  if (request.type === "qrels") {
    const reading = QrelsIndex.read(path, { release, chunkBytes, range });
    own = reading;
    return { type: "qrels", index: (await reading).state() };
  }
  // The same join as the other thread's: its part first, then this one's.
  const qrels = QrelsIndex.fromState(request.first);
  const mine = await own;
  if (mine) qrels.append(mine);
  const part = await evaluateRunRange(
    qrels,
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
