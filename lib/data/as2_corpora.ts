/**
 * The answer-selection corpora (WikiQA, TREC-QA): their pinned files, splits with published
 * sizes and readers. The answer-selection task (lib/tasks/as2.ts) registers them.
 *
 * @module
 */
import { type DatasetEntry, type FileSpec, githubRaw } from "./corpus_entry.ts";
import { readJacanaXml, readTrecQaJsonl } from "./trecqa.ts";
import { readWikiQaTsv } from "./wikiqa.ts";

const WIKIQA_ZIP =
  "https://download.microsoft.com/download/E/5/F/E5FCFCEE-7005-4814-853D-DAA7C66507E0/WikiQACorpus.zip";

const gh = githubRaw;
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

const YANG = "Yang et al. 2015";
const TANDA = "TANDA (Garg et al. 2020)";
const FILTERED_REF = "official -filtered.ref";
const WANG = "Wang et al. 2007, Yao et al. 2013";

const WIKIQA: DatasetEntry = {
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
};

const TRECQA: DatasetEntry = {
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
};

/** WikiQA and TREC-QA, in the order lists show them. */
export const AS2_CORPORA: readonly DatasetEntry[] = [WIKIQA, TRECQA];
