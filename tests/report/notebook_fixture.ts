/**
 * Notebooks for the tests that run them: the nbformat 4.5 JSON of a notebook on the Deno kernel,
 * from its cells' sources. One helper, so that the runner's, the cache's and the interrupt
 * tests' fixtures are written the same way (cells with ids, code cells with no outputs yet).
 */

/** A cell of a fixture notebook: its source alone is a code cell. */
export type FixtureCell = string | { source: string; markdown?: boolean; id?: string };

/**
 * The JSON text of a Deno notebook of these cells; a cell's id is the one given, else `c<i>`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { denoNotebook } from "./notebook_fixture.ts";
 * const nb = JSON.parse(denoNotebook(["1 + 1", { source: "# Title", markdown: true }]));
 * assert.deepEqual(nb.cells.map((c: { id: string }) => c.id), ["c0", "c1"]);
 * assert.equal(nb.metadata.kernelspec.name, "deno");
 * ```
 */
export function denoNotebook(cells: readonly FixtureCell[]): string {
  return JSON.stringify({
    cells: cells.map((cell, i) => {
      const { source, markdown, id } = typeof cell === "string" ? { source: cell } : cell;
      const common = { id: id ?? `c${i}`, source, metadata: {} };
      return markdown
        ? { ...common, cell_type: "markdown" }
        : { ...common, cell_type: "code", outputs: [], execution_count: null };
    }),
    metadata: { kernelspec: { name: "deno", display_name: "Deno", language: "typescript" } },
    nbformat: 4,
    nbformat_minor: 5,
  });
}
