/**
 * Answer sentence selection (the TANDA protocol): rank every candidate sentence of a question;
 * MAP (primary), MRR, P@1 and nDCG@10 over every question of the split with trec_eval 9.0.8's
 * semantics. Its corpora, readers and filters are lib/data/, its measures lib/metrics/, its
 * scoring lib/scoring/ (the kit grew around it); this entry is what the shared code asks.
 *
 * @module
 */
import { AS2_CORPORA } from "../data/as2_corpora.ts";
import { loadExport } from "./load.ts";
import type { Task } from "./task.ts";
import type { Command } from "../cli/command.ts";

/** The answer-selection task. */
export const AS2_TASK: Task = {
  name: "as2",
  title: "answer sentence selection (TANDA protocol): rank every candidate sentence",
  corpora: AS2_CORPORA,
  measures: [
    { name: "map", label: "MAP", official: "map", primary: true },
    { name: "recip_rank", label: "MRR", official: "recip_rank" },
    { name: "P_1", label: "P@1", official: "P.1" },
    { name: "ndcg_cut_10", label: "nDCG@10", official: "ndcg_cut.10" },
  ],
  missing: "a question of the split missing from the run scores 0 (trec_eval -c)",
  baselines: [
    { name: "BM25 (kit)", command: "./kit score --model lexical:bm25" },
    { name: "ltr (kit)", command: "./kit score --model ltr" },
  ],
  page: "your systems under the protocol: results, published rows, the family of paired tests, " +
    "ties, the pair's error analysis, breakdowns",
  doc: "docs/datasets.md",
  evalCommands: async () => ({
    as2: await loadExport<Command>(import.meta.url, "../cli/eval_as2.ts", "as2Command"),
  }),
};
