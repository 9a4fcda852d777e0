/**
 * Held-out splits by query and the checks that they do not leak. A query (with all its
 * candidates, or all the records of one question) goes to exactly one slice: train (fit),
 * test (development-time evaluation and tuning) or validation (checked once, at the end).
 *
 * Determinism: query ids are sorted, then shuffled with mulberry32(seed), so the split depends
 * only on the set of ids and the seed, not on the input order.
 * Stratification: queries with and without a positive are shuffled separately and interleaved
 * evenly (stratum member j of n_k gets position key (j + 0.5) / n_k) before the list is cut,
 * so each slice holds each stratum in proportion, give or take one query.
 *
 * @module
 */
import { KitError } from "../errors.ts";
import type { Question } from "../data/types.ts";
import { DEFAULT_SEED, mulberry32, type Seed, shuffleInPlace } from "./random.ts";

/** The three slices of a held-out evaluation. */
export const SLICES = ["train", "test", "validation"] as const;
/** A slice name. */
export type SliceName = typeof SLICES[number];

/** Sizes of the slices: proportions (any non-negative weights) or counts of queries. */
export type SliceSizes = Record<SliceName, number>;

/** Options of {@link splitByQuery}. */
export interface SplitOptions<T> {
  /** Number of queries per slice, e.g. `{train: 125, test: 32, validation: 10}`. */
  counts?: SliceSizes;
  /**
   * Shares per slice (normalized to sum 1); the counts are rounded by largest remainder.
   * Default `{train: 0.75, test: 0.19, validation: 0.06}` when `counts` is not given.
   */
  proportions?: SliceSizes;
  /** Seed (default 42). */
  seed?: Seed;
  /** Keep the share of queries with a positive equal across slices (default false). */
  stratify?: boolean;
  /** The query id of an item (default: `item.id`, for `Question`). */
  queryOf?: (item: T) => string;
  /** Whether a query's items hold a positive (default: a candidate with label > 0). */
  hasPositive?: (items: T[]) => boolean;
}

/** A split: the items and the query ids of each slice. */
export interface Split<T> {
  train: T[];
  test: T[];
  validation: T[];
  /** Items of queries no slice asked for (when counts sum to less than the queries). */
  unused: T[];
  /** Query ids per slice, in split order. */
  queries: Record<SliceName | "unused", string[]>;
  /** Queries with a positive per slice. */
  withPositive: Record<SliceName | "unused", number>;
  seed: Seed;
  stratified: boolean;
}

function defaultQueryOf<T>(item: T): string {
  const id = (item as unknown as Question).id;
  if (typeof id !== "string") throw new KitError("item has no string id; pass queryOf");
  return id;
}

function defaultHasPositive<T>(items: T[]): boolean {
  return items.some((item) =>
    ((item as unknown as Question).candidates ?? []).some((c) => c.label > 0)
  );
}

/** Rounds `total * weights` to integers summing to `total` (largest remainder). */
function apportion(total: number, weights: number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  if (!(sum > 0) || weights.some((w) => !(w >= 0))) {
    throw new KitError(`proportions must be non-negative with a positive sum, got ${weights}`);
  }
  const exact = weights.map((w) => total * w / sum);
  const counts = exact.map(Math.floor);
  let left = total - counts.reduce((a, b) => a + b, 0);
  const order = exact.map((x, i) => [x - Math.floor(x), i]).sort((a, b) =>
    b[0] - a[0] || a[1] - b[1]
  );
  for (const [, i] of order) {
    if (left-- <= 0) break;
    counts[i]++;
  }
  return counts;
}

/**
 * Splits `items` by query into train / test / validation.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { splitByQuery } from "./split.ts";
 * const qs = Array.from({ length: 20 }, (_, i) => ({
 *   id: `q${i}`, text: `question ${i}`, candidates: [{ id: "c", text: "", label: i % 2 }],
 * }));
 * const s = splitByQuery(qs, { counts: { train: 12, test: 5, validation: 3 }, seed: 1, stratify: true });
 * assert(s.train.length === 12 && s.test.length === 5 && s.validation.length === 3);
 * assert(s.withPositive.train === 6);
 * ```
 */
export function splitByQuery<T>(items: readonly T[], options: SplitOptions<T> = {}): Split<T> {
  const queryOf = options.queryOf ?? defaultQueryOf;
  const hasPositive = options.hasPositive ?? defaultHasPositive;
  const seed = options.seed ?? DEFAULT_SEED;
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const q = queryOf(item);
    const g = groups.get(q);
    if (g) g.push(item);
    else groups.set(q, [item]);
  }
  const ids = [...groups.keys()].sort();
  let counts: number[];
  if (options.counts && options.proportions) {
    throw new KitError("give either counts or proportions, not both");
  }
  if (options.counts) {
    counts = SLICES.map((s) => options.counts![s]);
    if (counts.some((c) => !Number.isInteger(c) || c < 0)) {
      throw new KitError(`counts must be non-negative integers, got ${counts}`);
    }
    const sum = counts.reduce((a, b) => a + b, 0);
    if (sum > ids.length) {
      throw new KitError(`counts ask for ${sum} queries but there are ${ids.length}`);
    }
  } else {
    const p = options.proportions ?? { train: 0.75, test: 0.19, validation: 0.06 };
    counts = apportion(ids.length, SLICES.map((s) => p[s]));
  }

  const random = mulberry32(seed);
  let order: string[];
  if (options.stratify) {
    const pos = ids.filter((q) => hasPositive(groups.get(q)!));
    const posSet = new Set(pos);
    const neg = ids.filter((q) => !posSet.has(q));
    shuffleInPlace(pos, random);
    shuffleInPlace(neg, random);
    const keyed = [
      ...pos.map((q, j) => [(j + 0.5) / pos.length, 0, q] as const),
      ...neg.map((q, j) => [(j + 0.5) / neg.length, 1, q] as const),
    ];
    keyed.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    order = keyed.map((k) => k[2]);
  } else {
    order = shuffleInPlace(ids.slice(), random);
  }

  const bounds = [0, counts[0], counts[0] + counts[1], counts[0] + counts[1] + counts[2]];
  const sliceIds = {
    train: order.slice(bounds[0], bounds[1]),
    test: order.slice(bounds[1], bounds[2]),
    validation: order.slice(bounds[2], bounds[3]),
    unused: order.slice(bounds[3]),
  };
  const collect = (qs: string[]) => qs.flatMap((q) => groups.get(q)!);
  const positives = (qs: string[]) => qs.filter((q) => hasPositive(groups.get(q)!)).length;
  return {
    train: collect(sliceIds.train),
    test: collect(sliceIds.test),
    validation: collect(sliceIds.validation),
    unused: collect(sliceIds.unused),
    queries: sliceIds,
    withPositive: {
      train: positives(sliceIds.train),
      test: positives(sliceIds.test),
      validation: positives(sliceIds.validation),
      unused: positives(sliceIds.unused),
    },
    seed,
    stratified: options.stratify ?? false,
  };
}

/** A value found in more than one slice, with where. */
export interface Overlap {
  /** The shared value (an id, a normalized text). */
  key: string;
  /** Slice names it occurs in. */
  slices: string[];
  /** Ids of the items holding it, per slice. */
  ids: Record<string, string[]>;
}

/** The named slices of a split (train, test, validation; unused ones are not a slice). */
export function slicesOf<T>(
  x: Record<string, readonly T[]> | Split<T>,
): Record<string, readonly T[]> {
  if ("queries" in x && "stratified" in x) {
    const s = x as Split<T>;
    return { train: s.train, test: s.test, validation: s.validation };
  }
  return x as Record<string, readonly T[]>;
}

/**
 * Lowercase, NFC, whitespace collapsed: "the same text" for leakage checks.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { normalizeForLeakage } from "./split.ts";
 * assert(normalizeForLeakage("  Who  wrote\tHamlet? ") === "who wrote hamlet?");
 * ```
 */
export function normalizeForLeakage(text: string): string {
  return text.normalize("NFC").toLowerCase().replace(/\s+/g, " ").trim();
}

/** Values present in two or more slices. */
export function overlaps<T>(
  slices: Record<string, readonly T[]>,
  keyOf: (item: T) => string,
  idOf: (item: T) => string,
): Overlap[] {
  const where = new Map<string, Map<string, Set<string>>>();
  for (const [slice, items] of Object.entries(slices)) {
    for (const item of items) {
      const key = keyOf(item);
      let bySlice = where.get(key);
      if (!bySlice) where.set(key, bySlice = new Map());
      let ids = bySlice.get(slice);
      if (!ids) bySlice.set(slice, ids = new Set());
      ids.add(idOf(item));
    }
  }
  const out: Overlap[] = [];
  for (const [key, bySlice] of where) {
    if (bySlice.size < 2) continue;
    out.push({
      key,
      slices: [...bySlice.keys()],
      ids: Object.fromEntries([...bySlice].map(([s, ids]) => [s, [...ids]])),
    });
  }
  return out.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/** Leakage between the slices of an answer-selection split. */
export interface LeakageReport {
  /** Question ids present in two or more slices. */
  sharedIds: Overlap[];
  /** Question texts (normalized) present in two or more slices, under different or equal ids. */
  duplicateTexts: Overlap[];
  /** True when nothing is shared. */
  clean: boolean;
}

/**
 * Checks slices of questions (named arrays, or a {@link Split}) for leakage: the same id in
 * two slices, and the same question text (after {@link normalizeForLeakage}) in two slices.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkLeakage } from "./split.ts";
 * const q = (id: string, text: string) => ({ id, text, candidates: [] });
 * const r = checkLeakage({ train: [q("1", "Who?"), q("2", "What  is X")], test: [q("3", "what is x")] });
 * assert(!r.clean && r.sharedIds.length === 0 && r.duplicateTexts[0].key === "what is x");
 * ```
 */
export function checkLeakage(
  slicesOrSplit: Record<string, readonly Question[]> | Split<Question>,
): LeakageReport {
  const slices = slicesOf(slicesOrSplit);
  const sharedIds = overlaps(slices, (q) => q.id, (q) => q.id);
  const duplicateTexts = overlaps(slices, (q) => normalizeForLeakage(q.text), (q) => q.id);
  return {
    sharedIds,
    duplicateTexts,
    clean: sharedIds.length === 0 && duplicateTexts.length === 0,
  };
}
