/**
 * How many fuzz cases `fuzz_test.ts` runs (the doc quotes {@link FUZZ_TOTAL}, generated).
 *
 * @module
 */

/** The fast-check seed of the first property; each property adds its own offset. */
export const FUZZ_SEED = 20_261_129;

/** Cases per parser and kind of input, and the number of parsers fuzzed. */
export const FUZZ_PLAN = {
  targets: 10,
  randomBytes: 300,
  formatAlphabet: 700,
  mutatedValid: 2000,
} as const;

/** Every fuzz case of one `deno test tests/faults` run. */
export const FUZZ_TOTAL = FUZZ_PLAN.targets *
  (FUZZ_PLAN.randomBytes + FUZZ_PLAN.formatAlphabet + FUZZ_PLAN.mutatedValid);
