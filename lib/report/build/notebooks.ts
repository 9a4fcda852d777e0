/**
 * Which notebooks a report builds (`listNotebooks`) and page 00 as the report shows it: kept
 * apart from `build.ts`, which runs them.
 *
 * @module
 */
import { KitError } from "../../errors.ts";
import { runWays } from "../systems/spec.ts";

/** The notebook about the user's systems, run only when systems are given. */
export const SYSTEMS_NOTEBOOK = "00-your-systems.ipynb";

/**
 * Whether `--only VALUE` picks the notebook `name`: digits name its number (`1` and `01` pick
 * `01-...`, never `10-...` to `12-...`); otherwise the name's beginning, its number and hyphen
 * at least (`03-`, `03-rank`), so that an empty value (`--only "$N"`, N unset) picks nothing.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { onlyPicks } from "./notebooks.ts";
 * assert.equal(onlyPicks("01-datasets.ipynb", "1"), true);
 * assert.equal(onlyPicks("10-robustness.ipynb", "1"), false);
 * assert.equal(onlyPicks("10-robustness.ipynb", "10"), true);
 * assert.equal(onlyPicks("03-ranking.ipynb", "03-rank"), true);
 * assert.equal(onlyPicks("03-ranking.ipynb", ""), false);
 * assert.equal(onlyPicks("03-ranking.ipynb", "ranking"), false);
 * ```
 */
export function onlyPicks(name: string, value: string): boolean {
  if (/^\d+$/.test(value)) return /^\d\d-/.test(name) && Number(name.slice(0, 2)) === Number(value);
  return /^\d\d-/.test(value) && name.startsWith(value);
}

/**
 * The notebooks a report builds from a folder of `NN-name.ipynb`, in order: with `systems`,
 * `00-your-systems` alone (the lessons too with `lessons`); without, the lessons. `only`:
 * those each value picks ({@link onlyPicks}; each must pick one: an error names it).
 */
export function listNotebooks(
  dir: string,
  only: readonly string[] = [],
  options: { systems?: boolean; lessons?: boolean } = {},
): string[] {
  const all = [...Deno.readDirSync(dir)]
    .filter((e) => e.isFile && /^\d\d-.+\.ipynb$/.test(e.name))
    .map((e) => e.name)
    .sort();
  const lessons = all.filter((n) => n !== SYSTEMS_NOTEBOOK);
  const built = !options.systems
    ? lessons
    : options.lessons
    ? all
    : all.filter((n) => n === SYSTEMS_NOTEBOOK);
  for (const o of only) {
    if (built.some((n) => onlyPicks(n, o))) continue;
    const hint = !all.some((n) => onlyPicks(n, o))
      ? ""
      : onlyPicks(SYSTEMS_NOTEBOOK, o)
      ? ` (00 needs systems: ${runWays()})`
      : " (a lesson: with your systems, add --lessons)";
    const known = built.map((n) => n.slice(0, 2)).join(", ");
    throw new KitError(
      // A value with spaces (or none) is quoted, so that what was typed shows.
      `--only ${/^[!-~]+$/.test(o) ? o : JSON.stringify(o)} matches no notebook${hint}` +
        (known ? ` (the notebooks: ${known})` : ""),
      { file: dir },
    );
  }
  const names = built.filter((n) => only.length === 0 || only.some((o) => onlyPicks(n, o)));
  if (names.length === 0) {
    throw new KitError("no notebooks (NN-name.ipynb) found", { file: dir });
  }
  return names;
}

/**
 * Page 00 as the report shows it, without: the cells tagged `standalone` (for a reader of the
 * notebook alone); the sections with nothing to show (tagged `section:NAME`, NAME not in `shown`);
 * the cells tagged `answer-selection` when no answer-selection result is shown.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { withoutStandaloneOrEmptySections } from "./notebooks.ts";
 * const cell = (tags: string[]) => ({ cell_type: "code", source: "", metadata: { tags } });
 * const nb = { cells: [cell(["section:spread"]), cell(["section:results"]), cell([])] };
 * assert.equal(withoutStandaloneOrEmptySections(nb, ["results"]).cells.length, 2);
 * const alone = { cells: [cell(["standalone"]), cell([])] };
 * assert.equal(withoutStandaloneOrEmptySections(alone, []).cells.length, 1);
 * const intro = { cells: [cell(["answer-selection"]), cell([])] };
 * assert.equal(withoutStandaloneOrEmptySections(intro, ["qrcd"]).cells.length, 1);
 * assert.equal(withoutStandaloneOrEmptySections(intro, ["results"]).cells.length, 2);
 * ```
 */
export function withoutStandaloneOrEmptySections<
  T extends { cells: { metadata?: { tags?: string[] } }[] },
>(
  nb: T,
  shown: readonly string[],
): T {
  const keep = (tags: string[] = []) =>
    !tags.includes("standalone") &&
    (!tags.includes("answer-selection") || shown.includes("results")) &&
    tags.every((t) => !t.startsWith("section:") || shown.includes(t.slice("section:".length)));
  return { ...nb, cells: nb.cells.filter((c) => keep(c.metadata?.tags)) };
}
