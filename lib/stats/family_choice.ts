/**
 * Which family is tested, chosen on purpose before the results are seen: the pairs whose p
 * are adjusted together decide every decision (Bonferroni multiplies each p by m), so the
 * family is a choice the page names, not a consequence of how many runs were passed.
 *
 * - `all`: all pairs involving your systems: yours among themselves (i < j, in order), then
 *   each of yours against each baseline (the systems report's family);
 * - `mine`: your systems among themselves;
 * - `baseline:NAME`: each of your systems against NAME (one of yours or a baseline), the form
 *   of PyTerrier's `Experiment(..., baseline=...)`: m = k - 1 for k systems compared,
 *   NAME included.
 *
 * `otherReadings` (family.ts) shows how the decisions of the chosen family would read under the
 * other families: for the reader, never for choosing the family after the fact. Re-exported by
 * `family.ts` (this module imports nothing from it).
 *
 * @module
 */
import { KitError } from "../errors.ts";

/** A family of pairs chosen on purpose ({@link familyPairs}). */
export type FamilyChoice = "all" | "mine" | `baseline:${string}`;

/**
 * Reads a family choice: `all`, `mine` or `baseline:NAME` (NAME not empty); a KitError naming
 * the three forms on anything else.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseFamily } from "./family.ts";
 * assert.equal(parseFamily("baseline:BM25 (kit)"), "baseline:BM25 (kit)");
 * assert.throws(() => parseFamily("every"), /all, mine or baseline:NAME/);
 * ```
 */
export function parseFamily(text: string): FamilyChoice {
  if (text === "all" || text === "mine") return text;
  if (text.startsWith("baseline:") && text.length > "baseline:".length) {
    return text as `baseline:${string}`;
  }
  throw new KitError(
    `unknown family '${text}': expected all, mine or baseline:NAME (all pairs involving your ` +
      "systems; your systems among themselves; each of your systems against NAME)",
  );
}

/**
 * The pairs of a family: `all`, yours among themselves (i < j) then each of yours × each
 * baseline; `mine`, yours among themselves; `baseline:NAME`, (u, NAME) for each of yours u
 * other than NAME (NAME one of `users` or `baselines`, a KitError listing them otherwise).
 * Empty when the family has no pair (`mine` with one system of yours): `testFamily` refuses
 * an empty family.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { familyPairs } from "./family.ts";
 * const users = ["a", "b", "c"], baselines = ["BM25 (kit)"];
 * assert.equal(familyPairs(users, baselines, "all").length, 3 + 3);
 * assert.deepEqual(familyPairs(users, baselines, "mine"), [["a", "b"], ["a", "c"], ["b", "c"]]);
 * assert.deepEqual(familyPairs(users, baselines, "baseline:b"), [["a", "b"], ["c", "b"]]);
 * assert.throws(() => familyPairs(users, baselines, "baseline:x"), /a, b, c, BM25 \(kit\)/);
 * ```
 */
export function familyPairs(
  users: readonly string[],
  baselines: readonly string[],
  choice: FamilyChoice,
): [string, string][] {
  const mine = users.flatMap((a, i) => users.slice(i + 1).map((b): [string, string] => [a, b]));
  if (choice === "all") {
    return [...mine, ...users.flatMap((a) => baselines.map((b): [string, string] => [a, b]))];
  }
  if (choice === "mine") return mine;
  const name = choice.slice("baseline:".length);
  if (!users.includes(name) && !baselines.includes(name)) {
    throw new KitError(
      `the family's baseline '${name}' is none of the systems: ` +
        [...users, ...baselines].join(", "),
    );
  }
  return users.filter((u) => u !== name).map((u) => [u, name]);
}

/**
 * A family choice in words, for the page: "all pairs involving your systems", "your systems
 * among themselves", "each of your systems against NAME".
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { familyDescription } from "./family.ts";
 * assert.equal(familyDescription("baseline:BM25 (kit)"), "each of your systems against BM25 (kit)");
 * ```
 */
export function familyDescription(choice: FamilyChoice): string {
  return choice === "all"
    ? "all pairs involving your systems"
    : choice === "mine"
    ? "your systems among themselves"
    : `each of your systems against ${choice.slice("baseline:".length)}`;
}
