/**
 * The corpora the kit knows, one entry each: its pinned files (checksums and upstream copies),
 * its named splits (each split's file and published sizes), and its reader. `fetch`, the
 * install marker, `loadSplit`, the commands' dataset choices and docs/cli.md read this table, so
 * adding a corpus is one entry here (`addDataset` adds one at run time, as the tests do).
 *
 * Layout of an installed corpus (and of a mirror folder, e.g. `../shared/datasets`):
 * `wikiqa/...`, `trecqa/jacana-xml/...`, `trecqa/jsonl/...`, `qrcd/...`.
 *
 * Checksums: text files are verified after normalizing CRLF to LF (public copies of the
 * WikiQA zip's members exist with both line ends, so the content, not the bytes, is pinned)
 * and installed with LF; binary files (gzip, PDF) are verified byte for byte.
 *
 * @module
 */
import { KitError } from "../errors.ts";
import type { FilterName } from "./filters.ts";
import { readJacanaXml, readTrecQaJsonl } from "./trecqa.ts";
import type { Question } from "./types.ts";
import { readWikiQaTsv } from "./wikiqa.ts";

/** Where the upstream copy of a file is. */
export type Upstream =
  | { kind: "url"; url: string }
  /** A member of a zip archive; a RegExp where the member's exact name is not pinned. */
  | { kind: "zip"; url: string; member: string | RegExp };

/** One file of a corpus. */
export interface FileSpec {
  /** Path inside the corpus folder, e.g. `wikiqa/WikiQA-train.tsv`. */
  path: string;
  /** sha256 (hex) of the content; for text files, of the LF-normalized content. */
  sha256: string;
  /** Text (CRLF normalized before hashing) or binary. */
  text: boolean;
  /** The upstream location. */
  upstream: Upstream;
}

/** A published size of a split under one filter setting, with its source. */
export interface PublishedSize {
  /** Questions (QRCD: distinct questions). */
  questions: number;
  /** Candidate sentences (answer selection). */
  candidates?: number;
  /** QRCD: passage-question records, distinct passages and gold answers. */
  records?: number;
  passages?: number;
  answers?: number;
  /** Where the number comes from. */
  source: string;
}

/** One named split of a corpus. */
export interface SplitEntry {
  /** Its file inside the corpus folder (one of the dataset's `files`). */
  file: string;
  /** Published sizes by filter setting (`raw`: as published). */
  published: Partial<Record<FilterName, PublishedSize>>;
}

/** A corpus: one entry of {@link DATASETS}. */
export interface DatasetEntry {
  /** Its name on the command line and its folder in the corpus layout. */
  name: string;
  /** One line for lists and help. */
  title: string;
  /**
   * `as2`: answer sentence selection (questions with labelled candidates, read by `read`,
   * filtered by `applyFilter`); `qrcd`: reading comprehension, read by lib/qrcd.
   */
  task: "as2" | "qrcd";
  /** Every pinned file, installed together. */
  files: readonly FileSpec[];
  /** The named splits, in the order lists show them. */
  splits: Readonly<Record<string, SplitEntry>>;
  /** Reads one split's file into questions (as2 corpora). */
  read?: (path: string, split: string) => Promise<Question[]>;
}

const WIKIQA_ZIP =
  "https://download.microsoft.com/download/E/5/F/E5FCFCEE-7005-4814-853D-DAA7C66507E0/WikiQACorpus.zip";

/** GitHub raw URL at a pinned commit. */
function gh(repo: string, commit: string, path: string): Upstream {
  return { kind: "url", url: `https://raw.githubusercontent.com/${repo}/${commit}/${path}` };
}
function wikiqa(name: string, sha256: string, text = true): FileSpec {
  return {
    path: `wikiqa/${name}`,
    sha256,
    text,
    upstream: { kind: "zip", url: WIKIQA_ZIP, member: `WikiQACorpus/${name}` },
  };
}
const CASTORINI = ["castorini/data", "056cbbcbf997cc0b35032430110c5e5e5525700a"] as const;
const LEXDECOMP = ["mcrisc/lexdecomp", "9b781db8cac9a132b6e97e7a21946a66c945aedf"] as const;
const QURAN_QA = ["motazsaad/Quran-QA", "c409c3dd0fbae91ee517837cb03e32554d8bd392"] as const;
const QURAN_QA_TEST = ["EmanElrefai/Quran_QA", "ccdb97a586dd5b56eef828476f0e7b68ff87669a"] as const;
const QRCD_LICENSE = ["RanaMalhas/QRCD", "459f974b26afc2c839c0be33009687cc72615e2b"] as const;

const YANG = "Yang et al. 2015";
const TANDA = "TANDA (Garg et al. 2020)";
const FILTERED_REF = "official -filtered.ref";
const WANG = "Wang et al. 2007, Yao et al. 2013";
const QRCD = "QRCD v1.1";

/** The corpora, in the order lists show them. */
export const DATASETS: DatasetEntry[] = [];

/** The split names of an answer-selection corpus in {@link DATASETS}, or undefined. */
function splitsOf(name: string | symbol): string[] | undefined {
  const entry = DATASETS.find((d) => d.name === name && d.task === "as2");
  return entry && Object.keys(entry.splits);
}

/** {@link SPLITS} as a plain object, for printing. */
function splitsNow(): Record<string, string[]> {
  return Object.fromEntries(datasetNames("as2").map((name) => [name, splitsOf(name)!]));
}

/**
 * The split names of each answer-selection corpus: a read-only view of {@link DATASETS}, read
 * from it whenever it is looked at (a corpus `addDataset` adds is in it), so that the two cannot
 * disagree. It prints as the plain object it stands for.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { SPLITS } from "./datasets.ts";
 * assert.deepEqual(SPLITS.wikiqa, ["train", "dev", "test"]);
 * assert.equal(Object.hasOwn(SPLITS, "qrcd"), false); // reading comprehension: no splits here
 * assert.match(Deno.inspect(SPLITS), /wikiqa: \[ "train", "dev", "test" \]/); // not `{}`
 * ```
 */
export const SPLITS: Readonly<Record<string, readonly string[]>> = new Proxy({
  // What Deno (and node:util) print: the view, not the proxy's empty target.
  [Symbol.for("Deno.customInspect")]: (inspect: typeof Deno.inspect, o: Deno.InspectOptions) =>
    inspect(splitsNow(), o),
}, {
  get: (target, name) => typeof name === "symbol" ? Reflect.get(target, name) : splitsOf(name),
  has: (_, name) => splitsOf(name) !== undefined,
  ownKeys: () => datasetNames("as2"),
  getOwnPropertyDescriptor: (_, name) => {
    const value = splitsOf(name);
    return value && { value, enumerable: true, configurable: true, writable: false };
  },
  set: () => false,
  defineProperty: () => false,
  deleteProperty: () => false,
});

/**
 * Adds a corpus to {@link DATASETS} (its splits are then in {@link SPLITS}), after checking that
 * its name is new and each split's file is one of its pinned files.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { addDataset } from "./datasets.ts";
 * assert.throws(() => addDataset({ name: "wikiqa", title: "", task: "as2", files: [], splits: {} }),
 *   /dataset 'wikiqa' is already defined/);
 * ```
 */
export function addDataset(entry: DatasetEntry): DatasetEntry {
  if (DATASETS.some((d) => d.name === entry.name)) {
    throw new KitError(`dataset '${entry.name}' is already defined`);
  }
  if (!/^[a-z0-9][a-z0-9_-]*$/.test(entry.name)) {
    throw new KitError(`dataset name '${entry.name}' is not a plain folder name`);
  }
  const paths = new Set(entry.files.map((f) => f.path));
  for (const [split, s] of Object.entries(entry.splits)) {
    if (!paths.has(s.file)) {
      throw new KitError(`dataset ${entry.name}: split ${split}'s file ${s.file} is not pinned`);
    }
  }
  if (entry.task === "as2" && !entry.read) {
    throw new KitError(`dataset ${entry.name}: an answer-selection corpus needs a reader`);
  }
  DATASETS.push(entry);
  return entry;
}

/**
 * The entry of a corpus by name; an unknown name is an error listing the known ones.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { findDataset } from "./datasets.ts";
 * assert.equal(findDataset("trecqa").splits["train-all"].file, "trecqa/jsonl/train-all.jsonl.gz");
 * assert.throws(() => findDataset("squad"), /unknown dataset 'squad' \(expected: wikiqa, trecqa/);
 * ```
 */
export function findDataset(name: string, task?: DatasetEntry["task"]): DatasetEntry {
  const entry = DATASETS.find((d) => d.name === name && (task === undefined || d.task === task));
  if (!entry) {
    throw new KitError(`unknown dataset '${name}' (expected: ${datasetNames(task).join(", ")})`);
  }
  return entry;
}

/**
 * The names of the corpora (of one task when given), in table order.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { datasetNames } from "./datasets.ts";
 * assert.deepEqual(datasetNames("as2").slice(0, 2), ["wikiqa", "trecqa"]);
 * ```
 */
export function datasetNames(task?: DatasetEntry["task"]): string[] {
  return DATASETS.filter((d) => task === undefined || d.task === task).map((d) => d.name);
}

addDataset({
  name: "wikiqa",
  title: "WikiQA (Yang et al. 2015): Bing questions, Wikipedia summary sentences",
  task: "as2",
  files: [
    wikiqa("WikiQA-train.tsv", "baf373f4c1003e3d383e1217a3fa76ee248e1f0a1b70e23359e619b9b1389999"),
    wikiqa("WikiQA-dev.tsv", "c44fb3a52182b95f0c48e49ae1f63b6159047cb5812e514d19ae6f069d09297a"),
    wikiqa("WikiQA-test.tsv", "c035f0db5685dcfe1b2f256ff204528752a1e06f6d1bcae9a1aefac05079b24c"),
    wikiqa("WikiQA-train.ref", "aed4d2e086c1b8736b30c6914934a81bff997f2259f1c80a70f41d1575ecde7d"),
    wikiqa("WikiQA-dev.ref", "ea76242babd382499c6a1490f2a799c7a7420f6d9828c3b488e19c82db36f01e"),
    wikiqa("WikiQA-test.ref", "a91e7aa065c350d9935a98de880c8a53825747c553a416b28ad3e1ba5a677d42"),
    wikiqa(
      "WikiQA-dev-filtered.ref",
      "f79cb9958ed6ed5fd734d4b8957aa3398c33a4cd204469a25b020f7c72fc36da",
    ),
    wikiqa(
      "WikiQA-test-filtered.ref",
      "b54e30ce1311138309a9417b8ea018b9d26b58404f835d321338182ff0dabbe4",
    ),
    // README.txt is CRLF in the public copies (raw sha256 8eaf9607... in the mirror's
    // SHA256SUMS); like every text file it is pinned and installed in its LF form.
    wikiqa("README.txt", "f2389af1c36eae18506dbaf51b599cbfd7533627fd0ead2b905c63cad2d2ac0e"),
    {
      path: "wikiqa/LICENSE.pdf",
      sha256: "0a7f8a724eb30c1ff1f322d007693b4a0c79a9025ee525c605dfe88dc44eac89",
      text: false,
      // The license's file name inside Microsoft's zip is not pinned: take its one PDF.
      upstream: { kind: "zip", url: WIKIQA_ZIP, member: /^WikiQACorpus\/[^/]*\.pdf$/i },
    },
  ],
  splits: {
    train: {
      file: "wikiqa/WikiQA-train.tsv",
      published: {
        raw: { questions: 2118, candidates: 20360, source: YANG },
        "no-all": { questions: 873, source: TANDA },
      },
    },
    dev: {
      file: "wikiqa/WikiQA-dev.tsv",
      published: {
        raw: { questions: 296, candidates: 2733, source: YANG },
        "no-all": { questions: 126, source: TANDA },
        clean: { questions: 122, source: FILTERED_REF },
      },
    },
    test: {
      file: "wikiqa/WikiQA-test.tsv",
      published: {
        raw: { questions: 633, candidates: 6165, source: YANG },
        "no-all": { questions: 243, source: TANDA },
        clean: { questions: 237, source: FILTERED_REF },
      },
    },
  },
  read: (path) => readWikiQaTsv(path),
});

addDataset({
  name: "trecqa",
  title: "TREC-QA (Wang et al. 2007): TREC 8-13 questions, jacana XML and Wang's TRAIN-ALL",
  task: "as2",
  files: [
    ...(["TRAIN", "DEV", "TEST"] as const).map((s, i) => ({
      path: `trecqa/jacana-xml/${s}.xml`,
      sha256: [
        "8c36007a23b754807344f08b52bc1baeaa6fa5dc85b8ad49f340cc8acc438b66",
        "87f6ed5818fcb885dc8e8206c83cce658d7187118d1e093d841629a08d9291bc",
        "fb96ee795015c98299fe78f1e697eb9e74789b1db6b1bbc0203416dedc0c467f",
      ][i],
      text: true,
      upstream: gh(...CASTORINI, `TrecQA/data/${s}.xml`),
    })),
    {
      path: "trecqa/jacana-xml/README.md",
      sha256: "c3823861f0faa63e26c222a2204211cb7c36bad744579db6e072c5a81c6dbafd",
      text: true,
      upstream: gh(...CASTORINI, "TrecQA/README.md"),
    },
    {
      path: "trecqa/jsonl/train-all.jsonl.gz",
      sha256: "20a68643dd4fde1e889b11afd260655c5b8dfed6c00de5c1678fa51577d8ed02",
      text: false,
      upstream: gh(...LEXDECOMP, "trec-qa/train-all.jsonl.gz"),
    },
    {
      path: "trecqa/jsonl/dev.jsonl",
      sha256: "9c5976698e2798ada7e269d5774bbd12c5fa923776fd1305334412333704029a",
      text: true,
      upstream: gh(...LEXDECOMP, "trec-qa/dev.jsonl"),
    },
    {
      path: "trecqa/jsonl/test.jsonl",
      sha256: "b2646549a41a878cd92c2abf3fa5ac6226717962d6ede54e653a213aeaa31c94",
      text: true,
      upstream: gh(...LEXDECOMP, "trec-qa/test.jsonl"),
    },
    {
      path: "trecqa/jsonl/README.md",
      sha256: "8bdd1f8888f9a44b8651dd8b8cbe5afbddce80376101c85a79abd3437f543a04",
      text: true,
      upstream: gh(...LEXDECOMP, "trec-qa/README.md"),
    },
    {
      path: "trecqa/jsonl/MIT.LICENSE",
      sha256: "98affbef69745e0192a50b945e2a16307bb1616d8f04800492cc79e419711be0",
      text: true,
      upstream: gh(...LEXDECOMP, "LICENSE"),
    },
  ],
  splits: {
    "train-all": {
      file: "trecqa/jsonl/train-all.jsonl.gz",
      published: { raw: { questions: 1229, candidates: 53417, source: WANG } },
    },
    train: {
      file: "trecqa/jacana-xml/TRAIN.xml",
      published: { raw: { questions: 94, candidates: 4718, source: WANG } },
    },
    dev: {
      file: "trecqa/jacana-xml/DEV.xml",
      published: {
        raw: { questions: 82, candidates: 1148, source: WANG },
        clean: { questions: 65, source: TANDA },
      },
    },
    test: {
      file: "trecqa/jacana-xml/TEST.xml",
      published: {
        raw: { questions: 100, candidates: 1517, source: WANG },
        clean: { questions: 68, source: TANDA },
      },
    },
  },
  read: (path, split) => split === "train-all" ? readTrecQaJsonl(path, split) : readJacanaXml(path),
});

addDataset({
  name: "qrcd",
  title: "QRCD v1.1 (Qur'an QA 2022): passage-question pairs with answer spans",
  task: "qrcd",
  files: [
    {
      path: "qrcd/qrcd_v1.1_train.jsonl",
      sha256: "3e867fb2c999cdb2bbbbbd5fd1f9f11141106993256bb991b07a524c3e63be83",
      text: true,
      upstream: gh(...QURAN_QA, "quranqa/datasets/qrcd_v1.1_train.jsonl"),
    },
    {
      path: "qrcd/qrcd_v1.1_dev.jsonl",
      sha256: "20709f850d9eb42e94ffba7190607f43ced485057c73df705a20fd0a71a34dcd",
      text: true,
      upstream: gh(...QURAN_QA, "quranqa/datasets/qrcd_v1.1_dev.jsonl"),
    },
    {
      path: "qrcd/qrcd_v1.1_test_noAnswers.jsonl",
      sha256: "f461e9eee7281edf411566c6322a62f7722ef153fe59d4ee269c783c4ae70e87",
      text: true,
      upstream: gh(...QURAN_QA_TEST, "datasets/qrcd_v1_1_test.jsonl"),
    },
    {
      path: "qrcd/README.md",
      sha256: "ce07342e21a21c96112dfeaef97c00324172954c4c4cd795125867f8d6acc09f",
      text: true,
      upstream: gh(...QURAN_QA, "quranqa/datasets/README.md"),
    },
    {
      path: "qrcd/LICENSE.md",
      sha256: "c5acd4edf2c725494e290127e76eea129e47bc381c091bed6607d88e6a3a2583",
      text: true,
      upstream: gh(...QRCD_LICENSE, "LICENSE.md"),
    },
  ],
  splits: {
    train: {
      file: "qrcd/qrcd_v1.1_train.jsonl",
      published: {
        raw: { records: 710, questions: 118, passages: 468, answers: 861, source: QRCD },
      },
    },
    dev: {
      file: "qrcd/qrcd_v1.1_dev.jsonl",
      published: {
        raw: { records: 109, questions: 17, passages: 101, answers: 128, source: QRCD },
      },
    },
    test: {
      file: "qrcd/qrcd_v1.1_test_noAnswers.jsonl",
      published: {
        raw: { records: 274, questions: 34, passages: 256, source: `${QRCD} (no answers)` },
      },
    },
  },
});
