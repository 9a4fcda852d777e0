/**
 * The worker half of `parallel.ts`: reads a byte range of a qrels file, or evaluates a byte
 * range of a run against shared qrels, and answers with plain data.
 *
 * @module
 */
import { KitError } from "../errors.ts";
import { QueryEvaluator } from "./evaluate.ts";
import type { WorkerReply } from "./parallel.ts";
import { type FileRange, QrelsIndex, type QrelsParts } from "./trec_bytes.ts";
import { evaluateRunStream, NotGrouped } from "./trec_files.ts";

interface QrelsJob {
  op: "qrels";
  range: FileRange;
  chunkBytes?: number;
}
interface RunJob {
  op: "run";
  qrelsPath: string;
  qrels: QrelsParts;
  range: FileRange;
  measures: string[];
  level: number;
  chunkBytes?: number;
}

const scope = self as unknown as {
  onmessage: (e: MessageEvent<QrelsJob | RunJob>) => void;
  postMessage: (m: WorkerReply) => void;
};

scope.onmessage = async (e) => {
  const job = e.data;
  try {
    if (job.op === "qrels") {
      const idx = await QrelsIndex.read(job.range, {
        shared: true,
        allowEmpty: true,
        chunkBytes: job.chunkBytes,
      });
      scope.postMessage({ ok: idx.parts() });
      return;
    }
    const qrels = QrelsIndex.fromParts(job.qrelsPath, [job.qrels]);
    const ev = new QueryEvaluator(job.measures, job.level);
    const stretch = await evaluateRunStream(qrels, job.range, ev, job.chunkBytes);
    scope.postMessage({ ok: { stretch, data: ev.export() } });
  } catch (err) {
    if (err instanceof NotGrouped) {
      scope.postMessage({ notGrouped: true });
      return;
    }
    const kit = err instanceof KitError;
    scope.postMessage({
      error: {
        kit,
        problem: kit ? err.problem : String((err as Error)?.stack ?? err),
        file: kit ? err.file : undefined,
        line: kit ? err.line : undefined,
      },
    });
  }
};
