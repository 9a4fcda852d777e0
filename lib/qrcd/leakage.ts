/**
 * Leakage between QRCD slices: shared records, question ids, question texts and passages.
 *
 * @module
 */
import { KitError } from "../errors.ts";
import {
  normalizeForLeakage,
  type Overlap,
  overlaps,
  slicesOf,
  type Split,
} from "../stats/split.ts";

/** The fields of a QRCD record the leakage check reads. */
export interface QrcdRecordLike {
  /** `"{surah}:{verses}_{question id}"`. */
  pq_id: string;
  question: string;
  passage: string;
}

/**
 * The question id of a QRCD `pq_id`: the part after the last `_`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { qrcdQuestionId } from "./leakage.ts";
 * assert(qrcdQuestionId("2:8-16_364") === "364");
 * ```
 */
export function qrcdQuestionId(pqId: string): string {
  const i = pqId.lastIndexOf("_");
  if (i < 0) throw new KitError(`QRCD pq_id '${pqId}' has no '_<question id>' suffix`);
  return pqId.slice(i + 1);
}

/** Leakage between QRCD slices. */
export interface QrcdLeakageReport {
  /** The same pq_id (passage-question pair) in two slices. */
  sharedRecords: Overlap[];
  /** The same question id in two slices. */
  sharedQuestionIds: Overlap[];
  /** The same question text (normalized) in two slices. */
  sharedQuestionTexts: Overlap[];
  /** The same passage text (normalized) in two slices; expected across QRCD's official splits. */
  sharedPassages: Overlap[];
  /** Number of shared distinct passages per pair of slices, e.g. `{"train/dev": 72}`. */
  sharedPassagesByPair: Record<string, number>;
  /** True when no question or record is shared (shared passages alone do not leak answers). */
  questionsDisjoint: boolean;
}

/**
 * Checks QRCD slices (records with `pq_id`, `question`, `passage`) for shared records,
 * questions and passages. Items are identified by `pq_id` in the report.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkQrcdLeakage } from "./leakage.ts";
 * const r = checkQrcdLeakage({
 *   train: [{ pq_id: "1:1-7_1", question: "q one", passage: "P" }],
 *   dev: [{ pq_id: "2:1-5_2", question: "q two", passage: "P" }],
 * });
 * assert(r.questionsDisjoint && r.sharedPassagesByPair["train/dev"] === 1);
 * ```
 */
export function checkQrcdLeakage<T extends QrcdRecordLike>(
  slicesOrSplit: Record<string, readonly T[]> | Split<T>,
): QrcdLeakageReport {
  const slices: Record<string, readonly QrcdRecordLike[]> = slicesOf(slicesOrSplit);
  const id = (r: QrcdRecordLike) => r.pq_id;
  const sharedRecords = overlaps(slices, id, id);
  const sharedQuestionIds = overlaps(slices, (r) => qrcdQuestionId(r.pq_id), id);
  const sharedQuestionTexts = overlaps(slices, (r) => normalizeForLeakage(r.question), id);
  const sharedPassages = overlaps(slices, (r) => normalizeForLeakage(r.passage), id);
  const names = Object.keys(slices);
  const sharedPassagesByPair: Record<string, number> = {};
  for (let i = 0; i < names.length; i++) {
    for (let j = i + 1; j < names.length; j++) {
      sharedPassagesByPair[`${names[i]}/${names[j]}`] = sharedPassages.filter((o) =>
        o.slices.includes(names[i]) && o.slices.includes(names[j])
      ).length;
    }
  }
  return {
    sharedRecords,
    sharedQuestionIds,
    sharedQuestionTexts,
    sharedPassages,
    sharedPassagesByPair,
    questionsDisjoint: sharedRecords.length === 0 && sharedQuestionIds.length === 0 &&
      sharedQuestionTexts.length === 0,
  };
}
