/**
 * Inputs that are not regular files, or too large (see input_files.ts): every case as a real
 * process, one test per row of the whole-file limits table (a file one byte over the limit,
 * through the reader that reads that kind), and `docs/bad-input.md`'s two generated tables.
 */
import { readShardRecord } from "../../lib/scoring/shard_record.ts";
import { assert, assertEquals } from "../assert.ts";
import { KitError } from "../../lib/errors.ts";
import { readInstallMarker } from "../../lib/data/installed.ts";
import { readSplit } from "../../lib/data/splits.ts";
import { inlineAsset } from "../../lib/io/npm_package.ts";
import {
  readWholeFileSync,
  tooLargeProblem,
  WHOLE_FILE_LIMITS,
  type WholeFileKind,
} from "../../lib/io/whole_file.ts";
import { readMarker } from "../../lib/report/build/foreign.ts";
import { readSpecFile } from "../../lib/report/systems/spec.ts";
import { readLtrModel } from "../../lib/scoring/ltr_file.ts";
import { ScoreCache } from "../../lib/scoring/model/cache.ts";
import { loadModel } from "../../lib/scoring/model/model.ts";
import { formatMarkdown, spliceDoc } from "./matrix.ts";
import { INPUT_CASES, inputDocParts, modelFolder, runInputCases } from "./input_files.ts";

const outcomes = await runInputCases();

INPUT_CASES.forEach((c, i) => {
  const o = outcomes[i];
  if (o.kind === "skipped") console.error(`skipping "${c.tried}": ${o.why}`);
  Deno.test({
    name: `input file: ${c.tried.replace(/`/g, "")}`,
    ignore: o.kind === "skipped",
    fn() {
      if (o.kind === "failed") throw o.error;
    },
  });
});

// A case skipped here (root without setpriv) would show as "not run here": the doc is then
// not compared, and this says so.
const skipped = outcomes.some((o) => o.kind === "skipped");
if (skipped) {
  console.error("not checking the input-file table of docs/bad-input.md: a case was skipped");
}

Deno.test({
  name: "docs/bad-input.md holds the whole-file limits and the input-file cases",
  ignore: skipped,
  async fn() {
    const path = new URL("../../docs/bad-input.md", import.meta.url);
    const doc = await Deno.readTextFile(path);
    assertEquals(
      doc,
      await formatMarkdown(spliceDoc(doc, inputDocParts(outcomes))),
      "docs/bad-input.md is out of date: run deno run --allow-all tests/faults/update_doc.ts",
    );
  },
});

/** Loads a model folder on cpu (and releases it). */
async function load(m: string): Promise<void> {
  await (await loadModel(m, { backend: "cpu" })).session.release();
}

/**
 * Each kind's reader, given a folder: where it reads the file (made one byte over the limit
 * there), and the read, which must refuse it with the limit's message.
 */
const READERS: Record<WholeFileKind, (dir: string) => Promise<[string, () => unknown]>> = {
  weights: async (dir) => {
    const m = await modelFolder(dir);
    return [`${m}/model.onnx`, () => load(m)];
  },
  tokenizer: async (dir) => {
    const m = await modelFolder(dir);
    return [`${m}/tokenizer.json`, () => load(m)];
  },
  config: async (dir) => {
    const m = await modelFolder(dir);
    return [`${m}/config.json`, () => load(m)];
  },
  ranker: (dir) => Promise.resolve([`${dir}/m.json`, () => readLtrModel(`${dir}/m.json`)]),
  spec: (dir) => Promise.resolve([`${dir}/spec.json`, () => readSpecFile(`${dir}/spec.json`)]),
  manifest: (dir) =>
    Promise.resolve([`${dir}/.kit-report`, () => {
      const m = readMarker(dir);
      // A marker that cannot be read makes the folder one the kit did not write: said, not thrown.
      throw new KitError(m.kind === "invalid" ? m.why : `read as ${m.kind}`, {
        file: `${dir}/.kit-report`,
      });
    }]),
  marker: async (dir) => {
    await Deno.mkdir(`${dir}/wikiqa`);
    return [`${dir}/wikiqa/.installed.json`, () => readInstallMarker("wikiqa", dir)];
  },
  corpus: async (dir) => {
    await Deno.mkdir(`${dir}/wikiqa`);
    return [`${dir}/wikiqa/WikiQA-test.tsv`, () => readSplit("wikiqa", "test", dir)];
  },
  shardRecord: (dir) =>
    Promise.resolve([`${dir}/r.0.run.shard.json`, () => readShardRecord(`${dir}/r.0.run`)]),
  scoreCache: async (dir) => {
    const path = (await ScoreCache.open(dir, "key", "label")).path; // where it would be
    return [path, () => ScoreCache.open(dir, "key", "label")];
  },
  // Read again only to give a duplicate judgment's line: the helper itself.
  qrels: (dir) =>
    Promise.resolve([`${dir}/q.qrels`, () => readWholeFileSync(`${dir}/q.qrels`, "qrels")]),
  asset: (dir) =>
    Promise.resolve([`${dir}/plotly.min.js`, () => inlineAsset(`${dir}/plotly.min.js`, "script")]),
};

for (const kind of Object.keys(WHOLE_FILE_LIMITS) as WholeFileKind[]) {
  const { what, bytes } = WHOLE_FILE_LIMITS[kind];
  Deno.test(`whole-file limit: ${what}, one byte over ${bytes} bytes, is refused before reading`, async () => {
    const dir = await Deno.makeTempDir({ prefix: "kit-limit-" });
    try {
      const [path, read] = await READERS[kind](dir);
      await Deno.writeFile(path, new Uint8Array());
      await Deno.truncate(path, bytes + 1); // sparse: no disk used, and nothing to read
      let error: unknown;
      try {
        await read();
      } catch (e) {
        error = e;
      }
      assert(error instanceof KitError, `${kind}: ${error ?? "read"} instead of a KitError`);
      assert(
        error.message.includes(`${path}: `) || error.file === path,
        `${kind}: the message does not name ${path}: ${error.message}`,
      );
      assert(
        error.message.includes(tooLargeProblem(kind, bytes + 1)),
        `${kind}: '${error.message}' lacks '${tooLargeProblem(kind, bytes + 1)}'`,
      );
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });
}
