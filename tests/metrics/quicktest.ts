/**
 * trec_eval's `make quicktest` cases (the expected output file and the arguments), shared by
 * the 9.0.8 and 10.0 oracle tests.
 *
 * @module
 */

// The Makefile's quicktest target, less the preference, judgment-group and z-score modes.
export const QUICKTEST: [string, string[]][] = [
  ["out.test", ["qrels.test", "results.test"]],
  ["out.test.a", ["-m", "all_trec", "qrels.test", "results.test"]],
  ["out.test.aq", ["-m", "all_trec", "-q", "qrels.test", "results.test"]],
  ["out.test.aqc", ["-m", "all_trec", "-q", "-c", "qrels.test", "results.trunc"]],
  ["out.test.aqcM", ["-m", "all_trec", "-q", "-c", "-M100", "qrels.test", "results.trunc"]],
  ["out.test.aql", [
    "-m",
    "all_trec",
    "-mrelstring.20",
    "-q",
    "-l2",
    "qrels.rel_level",
    "results.test",
  ]],
  ["out.test.meas_params", [
    "-q",
    "-miprec_at_recall..10,.20,.25,.75,.50",
    "-m",
    "P.5,7,3",
    "-m",
    "recall.20,2000",
    "-m",
    "Rprec_mult.5.0,0.2,0.35",
    "-mutility.2,-1,0,0",
    "-m",
    "11pt_avg..25,.5,.75",
    "-mndcg.1=3,2=9,4=4.5",
    "-mndcg_cut.10,20,23.4",
    "-msuccess.2,5,20",
    "qrels.test",
    "results.test",
  ]],
];

/** 10.0's quicktest: 9.0.8's, with its comment-line cases after the first. */
export const QUICKTEST_10: [string, string[]][] = [
  QUICKTEST[0],
  ["out.test", ["qrels.test.with-comments", "results.test"]],
  ["out.comment.test", ["qrels.comment.test", "results.comment.test"]],
  ...QUICKTEST.slice(1),
];
