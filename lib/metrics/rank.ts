/**
 * trec_eval's ordering of a query's documents, on strings: score descending (scores as the
 * release stores them: 32-bit floats for 9.0.8, see `trecScore`), ties broken by docno
 * descending in byte (strcmp) order. The run's rank column is ignored. The file engine
 * ranks the same way on bytes (`judge.ts`), with the same score comparison
 * ({@link compareScoresDesc}), so every path (grouped or ungrouped TREC runs, JSON runs,
 * convert, fusion) puts the same documents in the same order.
 *
 * @module
 */
import { DEFAULT_RELEASE, type TrecRelease, trecScore } from "./release.ts";

/**
 * Compares two docnos the way C `strcmp` compares their UTF-8 bytes (code point order).
 * JavaScript's `<` compares UTF-16 code units, which differs only when a character
 * outside the BMP meets one in U+E000..U+FFFF; this handles that case.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { compareDocnos } from "./rank.ts";
 * assert(compareDocnos("d2", "d10") > 0);
 * assert(compareDocnos("\u{1F600}", "\uFFFD") > 0); // UTF-8 order
 * ```
 */
export function compareDocnos(a: string, b: string): number {
  const n = a.length < b.length ? a.length : b.length;
  for (let i = 0; i < n; i++) {
    let ca = a.charCodeAt(i);
    let cb = b.charCodeAt(i);
    if (ca !== cb) {
      if (ca >= 0xd800 && cb >= 0xd800) {
        // Surrogates (code points >= U+10000) sort after U+E000..U+FFFF in UTF-8.
        ca = ca < 0xe000 ? ca + 0x2000 : ca - 0x800;
        cb = cb < 0xe000 ? cb + 0x2000 : cb - 0x800;
      }
      return ca - cb;
    }
  }
  return a.length - b.length;
}

/**
 * The one order on stored scores, descending, as trec_eval's `qsort` comparator (`>` then
 * `<`): a total order on every value a reader accepts, infinities included, so two scores
 * that overflow to the same infinity (9.0.8 stores `1e39` and `1e300` as +inf) tie and the
 * docno decides. A subtraction would give NaN for inf - inf and break the sort. NaN is
 * refused by every reader (it has no place in the order).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { compareScoresDesc } from "./rank.ts";
 * assert.equal(compareScoresDesc(Infinity, Infinity), 0); // a tie: the docno decides
 * assert(compareScoresDesc(2, 1) < 0 && compareScoresDesc(-Infinity, 0) > 0);
 * assert.equal(compareScoresDesc(0, -0), 0);
 * ```
 */
export function compareScoresDesc(a: number, b: number): number {
  return a > b ? -1 : a < b ? 1 : 0;
}

/**
 * Returns the indexes of `docnos` in trec_eval order (score desc, then docno desc), the
 * scores compared as `release` stores them (default 9.0.8: 32-bit floats). Runs are usually
 * already sorted by score, so an in-order input is detected in one pass and only groups of
 * tied scores are sorted.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { rankOrder } from "./rank.ts";
 * const order = rankOrder(["a", "b", "c"], [0.5, 0.9, 0.5]);
 * assert(order.join() === "1,2,0"); // b, then the tie c > a by docno desc
 * assert(rankOrder(["a", "b"], [0.30000001, 0.3]).join() === "1,0"); // a float tie in 9.0.8
 * assert(rankOrder(["a", "b"], [0.30000001, 0.3], "10.0").join() === "0,1");
 * // 1e300 and 3.5e38 overflow a 32-bit float: both +inf in 9.0.8, a tie (b > a by docno)
 * assert(rankOrder(["c", "a", "b"], [0.002, 1e300, 3.5e38]).join() === "2,1,0");
 * ```
 */
export function rankOrder(
  docnos: readonly string[],
  rawScores: ArrayLike<number>,
  release: TrecRelease = DEFAULT_RELEASE,
): Int32Array {
  const n = docnos.length;
  const scores = Float64Array.from({ length: n }, (_, i) => trecScore(rawScores[i], release));
  const order = new Int32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  let sortedByScore = true;
  for (let i = 1; i < n; i++) {
    if (scores[i] > scores[i - 1]) {
      sortedByScore = false;
      break;
    }
  }
  if (!sortedByScore) {
    order.sort((x, y) => {
      return compareScoresDesc(scores[x], scores[y]) || compareDocnos(docnos[y], docnos[x]);
    });
    return order;
  }
  // Already by score: sort only runs of equal scores by docno descending.
  let start = 0;
  while (start < n) {
    let end = start + 1;
    while (end < n && scores[end] === scores[start]) end++;
    if (end - start > 1) {
      const group = Array.from(order.subarray(start, end));
      group.sort((x, y) => compareDocnos(docnos[y], docnos[x]));
      order.set(group, start);
    }
    start = end;
  }
  return order;
}

/**
 * Ranks a query's scored documents in trec_eval order and returns the docnos.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { rankDocuments } from "./rank.ts";
 * const ranked = rankDocuments(new Map([["d1", 1], ["d3", 2], ["d2", 1]]));
 * assert(ranked.join() === "d3,d2,d1");
 * ```
 */
export function rankDocuments(
  docScores: ReadonlyMap<string, number>,
  release: TrecRelease = DEFAULT_RELEASE,
): string[] {
  const docnos = [...docScores.keys()];
  const scores = docnos.map((d) => docScores.get(d)!);
  return Array.from(rankOrder(docnos, scores, release), (i) => docnos[i]);
}
