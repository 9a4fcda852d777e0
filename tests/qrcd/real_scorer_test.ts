import assert from "node:assert/strict";
import {
  evaluateQrcd,
  LIGHT_SEGMENTATION,
  loadQrcdSplit,
  type PassageQuestion,
  type SpanPrediction,
  type SpanRun,
} from "../../lib/qrcd/mod.ts";
import { realDataTest } from "../helpers.ts";

/**
 * A deterministic run that exercises every scorer rule on real records: gold answers, gold with a
 * trailing Arabic comma, a stopword alone, empty answers, gold without its first word (partial),
 * text outside the passage, random passage slices, up to 8 predictions, 10% of ids missing, one
 * extra id.
 */
function mixedRun(gold: PassageQuestion[]): SpanRun {
  let seed = 12345;
  const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const run: SpanRun = new Map();
  for (const r of gold) {
    if (rnd() < 0.1) continue;
    const n = 1 + Math.floor(rnd() * 8);
    const preds: SpanPrediction[] = [];
    for (let i = 0; i < n; i++) {
      const k = rnd();
      const g = r.answers[Math.floor(rnd() * r.answers.length)].text;
      let a: string;
      if (k < 0.2) a = g;
      else if (k < 0.3) a = g + "،";
      else if (k < 0.4) a = "في";
      else if (k < 0.45) a = "";
      else if (k < 0.55) a = g.split(" ").slice(1).join(" ");
      else if (k < 0.6) a = "كلمة " + g;
      else {
        const s = Math.floor(rnd() * r.passage.length);
        a = r.passage.slice(s, s + Math.floor(rnd() * 60));
      }
      preds.push({ answer: a, rank: i + 1, score: 1 - i / 10 });
    }
    run.set(r.pqId, preds);
  }
  run.set("999:1_1", [{ answer: "x", rank: 1, score: 1 }]);
  return run;
}

realDataTest(
  "real train and dev: a mixed run scores exactly what the official scorer computes",
  "qrcd",
  async (real) => {
    // Reference values: the official quranqa22_eval.py logic with an identity segmenter, run with
    // CPython 3.11 on the same run written to JSON.
    const want = {
      train: [0.48534269042092537, 0.29295774647887324, 0.3704779488933035],
      dev: [0.5310700428310366, 0.3119266055045872, 0.4068952879223367],
    };
    const wantLight = {
      train: [0.48736994648172455, 0.29295774647887324, 0.3745188388163283],
      dev: [0.5253087933771267, 0.3119266055045872, 0.40776903191534675],
    };
    for (const split of ["train", "dev"] as const) {
      const gold = await loadQrcdSplit(split, { dir: real });
      const r = evaluateQrcd(gold, mixedRun(gold));
      assert.deepEqual([r.pRR, r.exactMatch, r.f1At1], want[split], split);
      assert.deepEqual(r.extra, ["999:1_1"]);
      // The light rules, reimplemented separately in Python and plugged into the same code.
      const l = evaluateQrcd(gold, mixedRun(gold), { segmenter: LIGHT_SEGMENTATION });
      assert.deepEqual([l.pRR, l.exactMatch, l.f1At1], wantLight[split], `${split} light`);
    }
  },
);
