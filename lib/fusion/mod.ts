/**
 * Rank fusion (ranx's methods and normalizations): several runs in, one fused run out.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { fuse } from "./mod.ts";
 * const bm25 = new Map([["q", new Map([["a", 12], ["b", 7]])]]);
 * const ltr = new Map([["q", new Map([["a", 0.1], ["b", 0.9]])]]);
 * const f = fuse([bm25, ltr], { method: "combsum", norm: "min-max" });
 * assert(f.get("q")!.get("a") === 1 && f.get("q")!.get("b") === 1);
 * ```
 *
 * @module
 */
export { fuse, type FuseOptions, FUSION_METHODS, type FusionMethod } from "./fuse.ts";
export { type Normalization, NORMALIZATIONS, normalizeScores } from "./normalize.ts";
