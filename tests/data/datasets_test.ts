/**
 * The DATASETS table: a corpus is one entry. A small answer-selection corpus added here by one
 * `addDataset` call is fetched from a mirror with its checksum, installed with its marker,
 * loaded and filtered by name, listed with the others, and evaluated by `eval as2`, with no
 * other change anywhere.
 */
import "../quick.ts";
import { printed } from "../helpers.ts";
import assert from "node:assert/strict";
import {
  addDataset,
  datasetNames,
  DATASETS,
  findDataset,
  SPLITS,
} from "../../lib/data/datasets.ts";
import { fetchDataset, sha256Hex } from "../../lib/data/fetch.ts";
import { isInstalled } from "../../lib/data/paths.ts";
import { loadSplit } from "../../lib/data/splits.ts";
import { splitStats } from "../../lib/data/stats.ts";
import { readWikiQaTsv } from "../../lib/data/wikiqa.ts";
import { dataCommands } from "../../lib/cli/data.ts";
import { evalCommands } from "../../lib/cli/eval.ts";
import { KitError } from "../../lib/errors.ts";

const HEADER = "QuestionID\tQuestion\tDocumentID\tDocumentTitle\tSentenceID\tSentence\tLabel";
// Three questions: mixed labels (kept by every filter), all incorrect (dropped by no-all and
// clean), mixed again.
const TSV = [
  HEADER,
  "T1\tWho wrote Hamlet?\tD1\tHamlet\tD1-0\tHamlet is a tragedy .\t0",
  "T1\tWho wrote Hamlet?\tD1\tHamlet\tD1-1\tShakespeare wrote Hamlet .\t1",
  "T2\tWhere is Rome?\tD2\tRome\tD2-0\tRome has seven hills .\t0",
  "T3\tWhat is H2O?\tD3\tWater\tD3-0\tH2O is water .\t1",
  "T3\tWhat is H2O?\tD3\tWater\tD3-1\tWater boils at 100 C .\t0",
  "",
].join("\n");

Deno.test("datasets: a corpus added by one entry is fetched, loaded, listed and evaluated", async () => {
  const mirror = await Deno.makeTempDir({ prefix: "kit-tiny-mirror-" });
  const cache = await Deno.makeTempDir({ prefix: "kit-tiny-cache-" });
  try {
    await Deno.mkdir(`${mirror}/tinyqa`);
    const bytes = new TextEncoder().encode(TSV);
    await Deno.writeFile(`${mirror}/tinyqa/tiny-test.tsv`, bytes);

    // The one entry.
    addDataset({
      name: "tinyqa",
      title: "a three-question corpus in WikiQA's format",
      task: "as2",
      files: [{
        path: "tinyqa/tiny-test.tsv",
        sha256: await sha256Hex(bytes),
        text: true,
        upstream: { kind: "url", url: "http://127.0.0.1:9/tiny-test.tsv" },
      }],
      splits: {
        test: {
          file: "tinyqa/tiny-test.tsv",
          published: { raw: { questions: 3, candidates: 5, source: "this test" } },
        },
      },
      read: (path) => readWikiQaTsv(path),
    });

    assert.equal(DATASETS.at(-1)!.name, "tinyqa");
    assert.deepEqual(SPLITS.tinyqa, ["test"]);
    assert.ok(datasetNames("as2").includes("tinyqa") && datasetNames("qrcd").length === 1);

    const report = await fetchDataset("tinyqa", { mirror, dir: cache, log: () => {} });
    assert.deepEqual(report.installed, ["tinyqa/tiny-test.tsv"]);
    assert.ok(isInstalled("tinyqa", cache));

    const raw = await loadSplit("tinyqa", "test", { dir: cache, filter: "raw" });
    assert.equal(splitStats(raw.questions).questions, 3);
    assert.equal(splitStats(raw.questions).candidates, 5);
    const clean = await loadSplit("tinyqa", "test", { dir: cache, filter: "clean" });
    assert.deepEqual(clean.questions.map((q) => q.id), ["T1", "T3"]);
    await assert.rejects(
      () => loadSplit("tinyqa", "dev", { dir: cache }),
      /unknown tinyqa split 'dev' \(expected: test\)/,
    );

    // The commands take the name from the table.
    const stats = JSON.parse(
      await printed(() => dataCommands.stats.run(["tinyqa", "--dir", cache, "--json"])),
    );
    assert.equal(stats.test.questions, 2); // the protocol's filter for test: clean
    // A run ranking the correct sentence second for T1 and first for T3: clean MAP (1/2 + 1) / 2.
    const run = `${cache}/tiny.run`;
    await Deno.writeTextFile(
      run,
      "T1 Q0 D1-0 1 2 r\nT1 Q0 D1-1 2 1 r\nT3 Q0 D3-0 1 2 r\nT3 Q0 D3-1 2 1 r\n",
    );
    const out = JSON.parse(
      await printed(async () =>
        (await evalCommands()).as2.run([
          "--dataset",
          "tinyqa",
          "--split",
          "test",
          "--dir",
          cache,
          run,
          "--json",
        ])
      ),
    );
    assert.equal(out.numQ, 2);
    assert.equal(out.map, 0.75);
  } finally {
    const i = DATASETS.findIndex((d) => d.name === "tinyqa");
    if (i >= 0) DATASETS.splice(i, 1);
    assert.equal(SPLITS.tinyqa, undefined); // read from the table: gone with its entry
    await Deno.remove(mirror, { recursive: true });
    await Deno.remove(cache, { recursive: true });
  }
});

Deno.test("datasets: an entry is checked when added", () => {
  const file = {
    path: "x/a.tsv",
    sha256: "0".repeat(64),
    text: true,
    upstream: { kind: "url" as const, url: "http://127.0.0.1:9/a" },
  };
  const base = { title: "x", task: "as2" as const, files: [file], read: () => Promise.resolve([]) };
  assert.throws(
    () => addDataset({ ...base, name: "wikiqa", splits: {} }),
    /'wikiqa' is already defined/,
  );
  assert.throws(() => addDataset({ ...base, name: "../x", splits: {} }), /not a plain folder name/);
  assert.throws(
    () => addDataset({ ...base, name: "x", splits: { test: { file: "x/b.tsv", published: {} } } }),
    /split test's file x\/b.tsv is not pinned/,
  );
  assert.throws(
    () => addDataset({ ...base, read: undefined, name: "x", splits: {} }),
    /needs a reader/,
  );
  assert.equal(datasetNames().includes("x"), false);
  assert.throws(() => findDataset("x"), KitError);
});

Deno.test("datasets: the built-in table (files pinned once, splits, published sizes)", () => {
  assert.deepEqual(datasetNames(), ["wikiqa", "trecqa", "qrcd", "qqa23"]);
  assert.deepEqual(SPLITS, {
    wikiqa: ["train", "dev", "test"],
    trecqa: ["train-all", "train", "dev", "test"],
  });
  const paths = DATASETS.flatMap((d) => d.files.map((f) => f.path));
  assert.equal(new Set(paths).size, paths.length, "a file pinned twice");
  for (const d of DATASETS) {
    for (const f of d.files) assert.ok(f.path.startsWith(`${d.name}/`), f.path);
    assert.match(d.files.map((f) => f.sha256).join(""), /^([0-9a-f]{64})+$/);
  }
  assert.equal(findDataset("wikiqa").splits.test.published.clean?.questions, 237);
});
