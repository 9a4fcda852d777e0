/**
 * The table's first block, in trec_eval's order: the run id, the number of queries and the
 * document counts (summed, not averaged, over queries).
 *
 * @module
 */
import { defineMeasure } from "./measure.ts";
import { relevantRetrieved } from "./query.ts";
import { hits, numRelevant } from "./brute.ts";

/** runid, num_q, num_ret, num_rel, num_rel_ret. */
export const COUNTS = [
  defineMeasure({
    name: "runid",
    description: "the run's name: the runid column of the run file's last line",
    params: "none",
    aggregate: "meta",
    summaryOnly: true,
    compute: () => 0,
    // A file-level value: the property tests check it against the run file's last line.
    reference: () => "runid",
  }),
  defineMeasure({
    name: "num_q",
    description: "number of queries averaged over (with -c: every query of the qrels)",
    params: "none",
    integer: true,
    aggregate: "meta",
    summaryOnly: true,
    compute: () => 1,
    reference: () => 1,
  }),
  defineMeasure({
    name: "num_ret",
    description: "number of documents retrieved (after -M and -J); summed over queries",
    params: "none",
    integer: true,
    aggregate: "sum",
    compute: (q) => q.rels.length,
    reference: (q) => q.ranking.length,
  }),
  defineMeasure({
    name: "num_rel",
    description:
      "number of relevant documents in the qrels (retrieved or not); summed over queries. " +
      "With -c, trec_eval 9.0.8 sums the judgments > 0 of every qrels query, whatever -l",
    params: "none",
    integer: true,
    aggregate: "sum",
    compute: (q) => q.numRel,
    completeSum: (judged) => {
      let c = 0;
      for (let i = 0; i < judged.length && judged[i] > 0; i++) c++;
      return c;
    },
    reference: (q) => numRelevant(q),
  }),
  defineMeasure({
    name: "num_rel_ret",
    description: "number of relevant documents retrieved; summed over queries",
    params: "none",
    integer: true,
    aggregate: "sum",
    compute: relevantRetrieved,
    reference: (q) => hits(q),
  }),
];
