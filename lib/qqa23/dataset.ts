/**
 * The Qur'an QA 2023 Task A corpus (passage retrieval): the Thematic Qur'an Passage Collection
 * (QPC v1.1, 1,266 passages), the AyaTEC v1.2 questions of the three splits and their qrels, with
 * the organisers' licence and Task A README. The task (./task.ts) registers it in the kit's table.
 *
 * Upstream: the organisers' repository (gitlab bigirqu/quran-qa-2023) as a zip in a public GitHub
 * copy, `cistariq/quran-qa-2023-main-v2` at a pinned commit; every member below was read from that
 * zip and its sha256 equals the shared mirror's file (and the second public copy,
 * `mohjackone/iqrok` `src/quran_model/quran-qa-2023/`, lays the files out the same way). The
 * questions sit in `Task-A/data/` itself, the collection in `Task-A/data/Thematic_QPC/`, the qrels
 * in `Task-A/data/qrels/`.
 *
 * Every file is pinned and installed byte for byte (`text: false`): the licence (CC BY-NC-ND 4.0
 * and the organisers' terms) forbids modified copies, so not even line ends are rewritten. The
 * files are LF already; a copy with CRLF is a different file and is refused.
 *
 * @module
 */
import type { DatasetEntry, FileSpec } from "../data/corpus_entry.ts";

/** The organisers' repository as one zip, in a public GitHub copy at a pinned commit. */
export const QQA23_ZIP = "https://raw.githubusercontent.com/cistariq/quran-qa-2023-main-v2/" +
  "1b5ddf3f9fccf4513e640379e0d8adce6140903c/quran-qa-2023-main.zip";

/** The folder every member of {@link QQA23_ZIP} is under. */
const ROOT = "quran-qa-2023-main";

function member(name: string, inZip: string, sha256: string): FileSpec {
  return {
    path: `qqa23/${name}`,
    sha256,
    text: false,
    upstream: { kind: "zip", url: QQA23_ZIP, member: `${ROOT}/${inZip}` },
  };
}

const AYATEC = "AyaTEC v1.2 (Qur'an QA 2023 Task A README)";

/** Qur'an QA 2023 Task A: the passage collection, questions and qrels of train, dev and test. */
export const QQA23_DATASET: DatasetEntry = {
  name: "qqa23",
  title: "Qur'an QA 2023 Task A (AyaTEC v1.2): passage retrieval over the 1,266-passage QPC",
  task: "qqa23",
  files: [
    member(
      "QQA23_TaskA_QPC_v1.1.tsv",
      "Task-A/data/Thematic_QPC/QQA23_TaskA_QPC_v1.1.tsv",
      "0a86c33c465ab6cf9321924d2c03b23ed72f8360134ae92ba4bd4a90c93be08c",
    ),
    member(
      "QQA23_TaskA_ayatec_v1.2_train.tsv",
      "Task-A/data/QQA23_TaskA_ayatec_v1.2_train.tsv",
      "3b707f9a857a668b71a2dadea9aa6545f038e656f6092e6d78ec0c4c99a3a0a9",
    ),
    member(
      "QQA23_TaskA_ayatec_v1.2_dev.tsv",
      "Task-A/data/QQA23_TaskA_ayatec_v1.2_dev.tsv",
      "baae0a5dfe7adc3e300dc79f504527897e84c2e3dacb19789638ecb29e97229b",
    ),
    member(
      "QQA23_TaskA_ayatec_v1.2_test.tsv",
      "Task-A/data/QQA23_TaskA_ayatec_v1.2_test.tsv",
      "33c82bd0918f2742360fccb7598e655241fb5cfeeeecb7f2b009ec59b16e1155",
    ),
    member(
      "QQA23_TaskA_ayatec_v1.2_qrels_train.gold",
      "Task-A/data/qrels/QQA23_TaskA_ayatec_v1.2_qrels_train.gold",
      "48e64e24a715bd77b824d9a4c17863c39614fe198a0a44fed23e76a6bea0cfe6",
    ),
    member(
      "QQA23_TaskA_ayatec_v1.2_qrels_dev.gold",
      "Task-A/data/qrels/QQA23_TaskA_ayatec_v1.2_qrels_dev.gold",
      "6f74218f1259aa144c795f19d0e4fb99095f927511ee708fa7ee4125f37a3590",
    ),
    member(
      "QQA23_TaskA_ayatec_v1.2_qrels_test.gold",
      "Task-A/data/qrels/QQA23_TaskA_ayatec_v1.2_qrels_test.gold",
      "e23e4cf0628eb2ff39562852a5632de0d948c8f643b5eb8e08b1d8b69cba0332",
    ),
    member(
      "README-TaskA.md",
      "Task-A/README.md",
      "335d0b3ca5f8bdd985de65a09bd731757f7a72a433f01459a881617b3cf80c22",
    ),
    member(
      "LICENSE",
      "LICENSE",
      "fe51421c83b70d8f7689c9af9de4e66d2798b43548fbe7efa2bef1a3ce73bbbf",
    ),
  ],
  splits: {
    train: {
      file: "qqa23/QQA23_TaskA_ayatec_v1.2_train.tsv",
      published: { raw: { questions: 174, source: AYATEC } },
    },
    dev: {
      file: "qqa23/QQA23_TaskA_ayatec_v1.2_dev.tsv",
      published: { raw: { questions: 25, source: AYATEC } },
    },
    test: {
      file: "qqa23/QQA23_TaskA_ayatec_v1.2_test.tsv",
      published: { raw: { questions: 52, source: AYATEC } },
    },
  },
};
