/**
 * How many fuzz cases `fuzz_test.ts` runs, per parser and kind of input; the doc quotes
 * {@link FUZZ_TOTAL}.
 *
 * The TREC file readers get fewer cases: each call costs ~4-10 ms even for a 3-line file
 * (lib/metrics/trec_bytes.ts allocates a 4 MiB read buffer per call), against ~0.3 ms for the
 * other parsers, and the whole area's tests must stay under about a minute on 2 cores.
 *
 * @module
 */

/** The fast-check seed of the first property; each property adds its own offset. */
export const FUZZ_SEED = 20_261_129;

/** Cases of one parser: random bytes, random text over its alphabet, mutated valid files. */
export interface FuzzCases {
  randomBytes: number;
  formatAlphabet: number;
  mutatedValid: number;
}

const FAST: FuzzCases = { randomBytes: 300, formatAlphabet: 700, mutatedValid: 2000 };
const TREC: FuzzCases = { randomBytes: 50, formatAlphabet: 100, mutatedValid: 250 };

/** Cases per parser (the names of fuzz_test.ts's targets). */
export const FUZZ_PLAN: Record<string, FuzzCases> = {
  "WikiQA TSV": FAST,
  "TREC qrels": TREC,
  "TREC run": TREC,
  "trec eval, run side": TREC,
  "trec eval, qrels side": TREC,
  "jacana XML": FAST,
  "TREC-QA JSONL": FAST,
  "QRCD JSONL (+ scoring)": FAST,
  "QRCD run JSON (+ scoring)": FAST,
  "strict JSON scanner": FAST,
};

/** Every fuzz case of one `deno test tests/faults` run. */
export const FUZZ_TOTAL = Object.values(FUZZ_PLAN).reduce(
  (n, c) => n + c.randomBytes + c.formatAlphabet + c.mutatedValid,
  0,
);
