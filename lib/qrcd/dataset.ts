/**
 * The QRCD v1.1 corpus (Qur'an QA 2022): its pinned files and splits. The QRCD task
 * (./task.ts) registers it in the kit's table of corpora.
 *
 * @module
 */
import { type DatasetEntry, githubRaw } from "../data/corpus_entry.ts";

const gh = githubRaw;
const QURAN_QA = ["motazsaad/Quran-QA", "c409c3dd0fbae91ee517837cb03e32554d8bd392"] as const;
const QURAN_QA_TEST = ["EmanElrefai/Quran_QA", "ccdb97a586dd5b56eef828476f0e7b68ff87669a"] as const;
const QRCD_LICENSE = ["RanaMalhas/QRCD", "459f974b26afc2c839c0be33009687cc72615e2b"] as const;
const QRCD = "QRCD v1.1";

/** QRCD v1.1: train and dev with answers, test without. */
export const QRCD_DATASET: DatasetEntry = {
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
};
