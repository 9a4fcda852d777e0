/**
 * Section `warnings`: how each run departs from the protocol, as `eval as2` says it.
 *
 * @module
 */
import { warningsBlock } from "../../notebook/blocks.ts";
import type { PageSection } from "../section.ts";

export const warningsSection: PageSection = {
  name: "warnings",
  nothing: "No answer-selection system: nothing to check against a split.",
  has: (r) => r.systems.length > 0,
  show: (r) => [warningsBlock(r.warnings)],
};
