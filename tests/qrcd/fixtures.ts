/**
 * Small hand-made QRCD records for the metric tests. Passages are short surahs typed for the
 * tests (112, 97, 103) or authored sentences; every offset is found with indexOf and checked.
 */
import type { PassageQuestion, SpanPrediction } from "../../lib/qrcd/mod.ts";

/** Builds a record; each answer's start is its first occurrence in the passage. */
export function record(pqId: string, passage: string, answers: string[]): PassageQuestion {
  const sep = pqId.lastIndexOf("_");
  const [surah, verses] = pqId.slice(0, sep).split(":");
  return {
    pqId,
    questionId: pqId.slice(sep + 1),
    passageId: pqId.slice(0, sep),
    passage,
    surah: Number(surah),
    verses,
    question: "سؤال؟",
    answers: answers.map((text) => {
      const start = passage.indexOf(text);
      if (start < 0) throw new Error(`fixture answer "${text}" is not in its passage`);
      return { text, start };
    }),
    line: 0,
  };
}

/** Predictions in rank order with decreasing scores. */
export function preds(...answers: string[]): SpanPrediction[] {
  return answers.map((answer, i) => ({ answer, rank: i + 1, score: 1 - i / 10 }));
}

/** Surah 112; gold: لم يلد ولم يولد (4 tokens). */
export const IKHLAS = record(
  "112:1-4_1",
  "قل هو الله أحد. الله الصمد. لم يلد ولم يولد. ولم يكن له كفوا أحد.",
  ["لم يلد ولم يولد"],
);

/** Surah 97:1-2; gold: في ليلة القدر (normalizes to 2 tokens: في is a stopword). */
export const QADR = record(
  "97:1-2_2",
  "إنا أنزلناه في ليلة القدر. وما أدراك ما ليلة القدر.",
  ["في ليلة القدر"],
);

/** Authored sentence with a colon and a comma glued to the next word. */
export const TEACHER = record(
  "1:1_3",
  "قال المعلم:العلم نور،والجهل ظلام. ثم سكت.",
  ["العلم نور"],
);

/** Surah 103:3 (part); two gold answers, and a gold span that starts inside a word. */
export const ASR = record(
  "103:3_4",
  "إلا الذين آمنوا وعملوا الصالحات وتواصوا بالحق وتواصوا بالصبر.",
  ["عملوا الصالحات", "وتواصوا بالصبر"],
);
