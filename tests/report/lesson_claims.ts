/**
 * The lessons' comparative claims and the tests behind them. A Markdown cell that compares
 * numbers (one system beats, is better or worse than, improves on, drops below, or shows no
 * difference from another) must sit under a code cell of its section that runs a test and prints
 * its p or interval: a call of one of {@link TEST_CALLS}. A cell whose claim needs no test (a
 * definition such as "higher is better", a question of an exercise) says why in its metadata,
 * `kit.reviewed`: the reviewed exceptions, each beside its text.
 *
 * A section runs from a `#`/`##` heading to the next; `###` headings stay in their section. The
 * sentence that ends in a question mark asks and claims nothing. The
 * Summary and Exercises sections restate or ask: their comparative sentences need a reviewed
 * reason too, or a test in the lesson's body under the same words.
 *
 * @module
 */

/**
 * The comparative words and their forms ("drops" as a number falls: "drops to", "drops by"; a
 * filter that drops questions compares nothing).
 */
export const COMPARATIVE =
  /\b(beats?|beaten|beating|better|worse|improves?|improved|improvement|improving|(drops?|dropped|dropping) (by|to|below|from)|no difference|outperforms?|outperformed)\b/i;

/**
 * The kit's functions that run a test and print its p value or interval (lib/mod.ts): a code
 * cell calling one of them backs the comparisons after it in its section.
 */
export const TEST_CALLS = [
  "pairedTTest",
  "pairedRandomizationTest",
  "pairedBootstrapCI",
  "bootstrapCI",
  "signTest",
  "compareSystems",
  "testFamily",
  "pairedSeedTests",
  "pairedVarianceTest",
  "varianceRatioTest",
  "noiseInteraction",
  "compareOverRuns",
  "singleRunComparisons",
  "comparisonRows",
  "robustnessRows",
  "tConfidenceInterval",
  "overfittingWarning",
  "heldOutExperiment",
  "showSection",
] as const;

const TEST_CALL = new RegExp(`\\b(${TEST_CALLS.join("|")})\\(`);

interface Cell {
  cell_type: string;
  source: string | string[];
  metadata?: { tags?: string[]; kit?: { reviewed?: string } };
}
const text = (s: string | string[]) => Array.isArray(s) ? s.join("") : s;

/** A comparative sentence without a test above it in its section. */
export interface UnbackedClaim {
  cell: number;
  section: string;
  sentence: string;
}

/** Prose of a Markdown cell: code, formulas and HTML comments left out. */
function prose(md: string): string {
  return md.replace(/```[\s\S]*?```/g, " ").replace(/`[^`\n]*`/g, " ")
    .replace(/\$\$[\s\S]+?\$\$/g, " ").replace(/\$[^$\n]+\$/g, " ")
    .replace(/<!--[\s\S]*?-->/g, " ");
}

/**
 * The comparative sentences of a lesson that no test backs (see the module's rule).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { unbackedClaims } from "./lesson_claims.ts";
 * const md = (s: string, kit?: { reviewed: string }) => ({
 *   cell_type: "markdown", source: s, metadata: kit ? { kit } : {},
 * });
 * const code = (s: string) => ({ cell_type: "code", source: s });
 * const nb = { cells: [
 *   md("## A\n\nltr beats BM25."),
 *   code("pairedTTest(a, b)"),
 *   md("So ltr beats BM25, p 0.01."),
 *   md("## B\n\nBM25 is worse here."),
 *   md("Higher is better.", { reviewed: "a definition" }),
 * ] };
 * assert.deepEqual(unbackedClaims(nb).map((c) => [c.cell, c.sentence]), [
 *   [0, "ltr beats BM25."],
 *   [3, "BM25 is worse here."],
 * ]);
 * ```
 */
export function unbackedClaims(nb: { cells: Cell[] }): UnbackedClaim[] {
  const found: UnbackedClaim[] = [];
  let section = "", tested = false;
  for (const [i, c] of nb.cells.entries()) {
    const src = text(c.source);
    if (c.cell_type === "code") {
      if (TEST_CALL.test(src)) tested = true;
      continue;
    }
    if (c.cell_type !== "markdown") continue;
    // a heading may open the cell or stand inside it: the text after it is the next section's
    for (const block of prose(src).split(/^(?=#{1,2}\s)/m)) {
      const heading = /^#{1,2}\s+(.*)$/m.exec(block);
      if (heading && block.startsWith("#")) {
        section = heading[1].trim();
        tested = false;
      }
      if (tested || c.metadata?.kit?.reviewed) continue;
      const body = block.split("\n").filter((l) => !/^\s*#/.test(l)).join(" ");
      for (const sentence of body.split(/(?<=[.!?:;])\s+/)) {
        // a question asks; it claims nothing
        if (COMPARATIVE.test(sentence) && !sentence.trim().endsWith("?")) {
          found.push({ cell: i, section, sentence: sentence.trim().replace(/\s+/g, " ") });
        }
      }
    }
  }
  return found;
}
