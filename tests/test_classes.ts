/**
 * The two classes of test files. A quick file imports `tests/quick.ts` first (which takes its
 * run permission) and runs in `./kit test --quick`; every other `*_test.ts` under `tests/` is
 * named in {@link NOT_QUICK} with what it needs that the quick set may not have (a browser, a
 * Jupyter kernel, Slurm, the real corpus, a Python or trec_eval oracle, a mount, child
 * processes: what makes it slow or tied to this machine). `./kit test` runs both. `tests/test_classes_test.ts`
 * fails on a file in neither class or in both, and on a quick file that names one of those
 * needs; the quick file's own isolate refuses a process at run time.
 *
 *     deno run --allow-read tests/test_classes.ts quick
 *
 * prints the files of `./kit test --quick`, one a line: the quick files and {@link DOC_EXAMPLES}
 * (not quick, as two examples start a process, but the doc examples are part of the quick run);
 * and on standard error how many files it leaves to the full suite.
 *
 * @module
 */

/** Every test file that is not quick, and what it needs that keeps it out of the quick set. */
export const NOT_QUICK: Record<string, string> = {
  "tests/api_test.ts": "child processes",
  "tests/bench/report_test.ts": "child processes",
  "tests/bench/compare_test.ts": "child processes",
  "tests/bench/eval_test.ts": "trec_eval",
  "tests/cli/args_test.ts": "a tmpfs or /dev/full, child processes",
  "tests/cli/cli_test.ts": "child processes",
  "tests/cli/doc_test.ts": "a browser (playwright)",
  "tests/cli/flag_limits_test.ts": "Slurm, child processes",
  "tests/cli/options_test.ts": "a browser (playwright)",
  "tests/cli/output_input_test.ts": "child processes",
  "tests/cli/score_refusals_test.ts": "child processes",
  "tests/data/doc_test.ts": "child processes",
  "tests/data/fetch_test.ts": "the real corpus",
  "tests/data/installed_test.ts": "child processes",
  "tests/data/real_corpora_test.ts": "the real corpus",
  "tests/data/run_checks_test.ts": "child processes",
  "tests/data/split_runs_test.ts": "the real corpus, child processes",
  "tests/doc_examples_test.ts":
    "child processes (two examples start `sleep`; the last test runs `deno test --doc --no-run`)",
  "tests/exercises/01_datasets_test.ts": "the real corpus",
  "tests/exercises/02_filters_test.ts": "the real corpus",
  "tests/exercises/03_scoring_test.ts": "the real corpus",
  "tests/exercises/04_metrics_test.ts": "the real corpus",
  "tests/exercises/05_significance_test.ts": "the real corpus",
  "tests/exercises/06_qrcd_test.ts": "the real corpus",
  "tests/exercises/07_heldout_test.ts": "the real corpus",
  "tests/exercises/08_labels_test.ts": "the real corpus",
  "tests/exercises/09_stability_test.ts": "the real corpus",
  "tests/exercises/10_robustness_test.ts": "the real corpus",
  "tests/exercises/11_pitfalls_test.ts": "the real corpus",
  "tests/exercises/12_qqa23_test.ts": "the real corpus",
  "tests/faults/bad_input_test.ts": "child processes",
  "tests/faults/cli_force_test.ts": "child processes",
  "tests/faults/download_test.ts": "the real corpus, a tmpfs or /dev/full",
  "tests/faults/input_files_test.ts": "child processes",
  "tests/faults/jacana_real_test.ts": "the real corpus",
  "tests/faults/scenarios_test.ts": "child processes",
  "tests/faults/write_test.ts": "a tmpfs or /dev/full",
  "tests/fusion/fuse_test.ts": "child processes",
  "tests/hints_test.ts": "notebooks run in a kernel, child processes",
  "tests/import_test.ts": "child processes",
  "tests/io/escape_test.ts": "a browser (playwright), notebooks run in a kernel",
  "tests/io/killed_temps_test.ts": "a browser (playwright), child processes",
  "tests/io/npm_package_test.ts": "child processes",
  "tests/io/output_test.ts": "child processes",
  "tests/io/whole_file_test.ts": "child processes",
  "tests/metrics/differential_test.ts": "trec_eval, child processes",
  "tests/metrics/doc_test.ts": "child processes",
  "tests/metrics/formats_test.ts": "child processes",
  "tests/metrics/gain_levels_test.ts": "child processes",
  "tests/metrics/properties_test.ts": "child processes",
  "tests/metrics/trec_eval_test.ts": "child processes",
  "tests/metrics/trec_input_test.ts": "trec_eval, child processes",
  "tests/metrics/trec_json_test.ts": "child processes",
  "tests/plot/bundles_test.ts": "a browser (playwright)",
  "tests/plot/figure_page_test.ts": "a browser (playwright)",
  "tests/plot/kernel_display_test.ts":
    "notebooks run in a kernel, a Python oracle, child processes",
  "tests/plot/plot_test.ts": "child processes",
  "tests/qqa23/corpus_test.ts": "the real corpus, a Python oracle, trec_eval, child processes",
  "tests/qqa23/eval_test.ts": "child processes",
  "tests/qqa23/oracle_test.ts": "the real corpus, a Python oracle, trec_eval, child processes",
  "tests/qqa23/report_test.ts":
    "a browser (playwright), notebooks run in a kernel, the real corpus, child processes",
  "tests/qqa23/rerank_test.ts": "the real corpus, child processes",
  "tests/qrcd/cli_test.ts": "the real corpus, child processes",
  "tests/qrcd/load_test.ts": "the real corpus",
  "tests/qrcd/real_scorer_test.ts": "the real corpus",
  "tests/report/cache_test.ts": "notebooks run in a kernel, child processes",
  "tests/report/browser_test.ts": "a browser (playwright)",
  "tests/report/course_test.ts": "a browser (playwright)",
  "tests/report/disk_full_test.ts":
    "notebooks run in a kernel, a tmpfs or /dev/full, child processes",
  "tests/report/families_test.ts": "a Python oracle",
  "tests/report/interrupt_test.ts":
    "a browser (playwright), notebooks run in a kernel, child processes",
  "tests/report/lessons_test.ts": "child processes",
  "tests/report/live_notebook_test.ts": "a browser (playwright), notebooks run in a kernel",
  "tests/report/lock_test.ts": "child processes",
  "tests/report/manifest_test.ts": "child processes",
  "tests/report/maths_slides_test.ts":
    "a browser (playwright), notebooks run in a kernel, child processes",
  "tests/report/nbconvert_test.ts": "a browser (playwright), notebooks run in a kernel",
  "tests/report/nbconvert_server_test.ts": "nbconvert (Python) against its command line",
  "tests/report/notebook_server_test.ts": "child processes",
  "tests/report/odd_folder_test.ts": "a browser (playwright), notebooks run in a kernel",
  "tests/report/outside_notebook_test.ts": "notebooks run in a kernel",
  "tests/report/page_check_test.ts": "a browser (playwright), notebooks run in a kernel",
  "tests/report/paper_table_test.ts": "child processes",
  "tests/report/run_numbering_test.ts": "the real corpus, trec_eval, child processes",
  "tests/report/runner_test.ts": "notebooks run in a kernel",
  "tests/report/screenshot_test.ts": "a browser (playwright)",
  "tests/report/slides_room_test.ts": "a browser (playwright)",
  "tests/report/stability_notebook_test.ts": "notebooks run in a kernel",
  "tests/report/syllabus_test.ts": "child processes",
  "tests/report/systems_pair_test.ts": "the real corpus",
  "tests/report/systems_report_test.ts": "child processes",
  "tests/report/systems_sections_test.ts": "a browser (playwright)",
  "tests/report/systems_test.ts":
    "notebooks run in a kernel, the real corpus, trec_eval, child processes",
  "tests/report/text_names_test.ts": "a browser (playwright), child processes",
  "tests/report/tie_order_notebook_test.ts": "notebooks run in a kernel",
  "tests/report/workspace_test.ts": "child processes",
  "tests/scoring/backend_test.ts": "child processes",
  "tests/scoring/bench_test.ts": "a WebGPU adapter and the PyTorch anchor where present",
  "tests/scoring/cluster_cache_test.ts": "child processes",
  "tests/scoring/cluster_files_test.ts": "Slurm, child processes",
  "tests/scoring/hf_folder_test.ts": "child processes",
  "tests/scoring/model_folder_test.ts": "child processes",
  "tests/scoring/pipeline_test.ts": "the real corpus",
  "tests/scoring/regimes_test.ts": "the real corpus",
  "tests/scoring/sbatch_cleanup_test.ts": "Slurm, child processes",
  "tests/scoring/score_cache_test.ts": "a tmpfs or /dev/full, child processes",
  "tests/scoring/shaped_test.ts": "a WebGPU adapter where present (and about 30 s of model runs)",
  "tests/scoring/shard_record_test.ts": "child processes",
  "tests/scoring/shard_test.ts": "Slurm, trec_eval, child processes",
  "tests/scoring/slurm_test.ts": "Slurm, child processes",
  "tests/scoring/threads_test.ts": "Slurm, child processes",
  "tests/stats/cli_test.ts": "child processes",
  "tests/stats/compare_identical_test.ts": "a Python oracle, child processes",
  "tests/stats/family_scipy_test.ts": "a Python oracle",
  "tests/stats/noise_interaction_test.ts": "the real corpus, a Python oracle",
  "tests/stats/p_value_test.ts": "a Python oracle, child processes",
  "tests/stats/query_set_test.ts": "the real corpus, trec_eval, child processes",
  "tests/stats/randomization_test.ts": "a Python oracle",
  "tests/stats/real_data_test.ts": "the real corpus",
  "tests/stats/scipy_anchor_test.ts": "a Python oracle",
  "tests/stats/seeds_cli_test.ts": "child processes",
};

/** The doc examples' file: not quick, yet `./kit test --quick` runs it (see the module's doc). */
export const DOC_EXAMPLES = "tests/doc_examples_test.ts";

/** The line that marks a quick file, relative to `file` (`tests/a/b_test.ts` → `../quick.ts`). */
export function quickMark(file: string): string {
  const depth = file.split("/").length - 2;
  return `import "${depth === 0 ? "./" : "../".repeat(depth)}quick.ts";`;
}

/** Whether `text` (the source of `file`) has the quick mark as its first import. */
export function isMarkedQuick(file: string, text: string): boolean {
  const first = /^import\b.*$/m.exec(text);
  return first !== null && first[0] === quickMark(file);
}

/** Every `*_test.ts` under `tests/` of `root`, relative to it, sorted. */
export function testFiles(root: string): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const e of Deno.readDirSync(`${root}/${dir}`)) {
      const path = `${dir}/${e.name}`;
      if (e.isDirectory && e.name !== "fixtures") walk(path);
      else if (e.isFile && e.name.endsWith("_test.ts")) found.push(path);
    }
  };
  walk("tests");
  return found.sort();
}

/** The test files of `root` split into the two classes (a file can be in both, or neither). */
export function classify(root: string): { quick: string[]; notQuick: string[] } {
  const files = testFiles(root);
  return {
    quick: files.filter((f) => isMarkedQuick(f, Deno.readTextFileSync(`${root}/${f}`))),
    notQuick: files.filter((f) => f in NOT_QUICK),
  };
}

if (import.meta.main) {
  if (Deno.args[0] !== "quick") {
    console.error("usage: deno run --allow-read tests/test_classes.ts quick");
    Deno.exit(2);
  }
  const root = new URL("..", import.meta.url).pathname.replace(/\/$/, "");
  const { quick, notQuick } = classify(root);
  console.log([DOC_EXAMPLES, ...quick].join("\n"));
  const left = notQuick.filter((f) => f !== DOC_EXAMPLES);
  console.error(
    `quick: ${quick.length} test files and the doc examples (${DOC_EXAMPLES}); left to ` +
      `./kit test: ${left.length} test files (browser, kernel, Slurm, real corpus, oracles, ` +
      "processes: tests/test_classes.ts says which)",
  );
}
