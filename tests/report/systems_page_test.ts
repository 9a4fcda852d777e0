/**
 * The systems page's sentence on the p-values of a measure's pairs (lib/report/systems_page.ts):
 * true for one pair (no correction needed) and for several (Holm's method, or none when asked).
 */
import assert from "node:assert/strict";
import { correctionSentence } from "../../lib/report/systems_page.ts";

const systems = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ name: `s${i}`, label: String.fromCharCode(97 + i) }));

Deno.test("the correction sentence: one pair needs none; several are adjusted with Holm's method", () => {
  const one = correctionSentence({ systems: systems(2), correction: "none" });
  assert.equal(
    one,
    "With two systems there is one pair per measure, so p needs no correction for multiple " +
      "comparisons.",
  );
  assert.doesNotMatch(one, /adjusted with no correction/);
  assert.equal(
    correctionSentence({ systems: systems(3), correction: "holm" }),
    "p is adjusted with Holm's method over the 3 pairs of a measure (multiple comparisons).",
  );
  assert.match(
    correctionSentence({ systems: systems(4), correction: "bonferroni" }),
    /the Bonferroni correction over the 6 pairs/,
  );
  assert.match(
    correctionSentence({ systems: systems(3), correction: "none" }),
    /not adjusted for the 3 pairs of a measure/,
  );
});
