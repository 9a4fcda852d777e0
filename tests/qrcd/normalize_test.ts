import "../quick.ts";
import assert from "node:assert/strict";
import {
  LIGHT_SEGMENTATION,
  lightSegmentToken,
  NO_SEGMENTATION,
  normalizeText,
  removePrefixes,
  removePunctuation,
  STOPWORDS,
} from "../../lib/qrcd/mod.ts";
import { ASCII_PUNCTUATION, pySplit } from "../../lib/qrcd/normalize.ts";

Deno.test("the deleted set is Python's string.punctuation plus ، ؛ ؟ and nothing else", () => {
  assert.equal(ASCII_PUNCTUATION.length, 32);
  for (let c = 0x21; c < 0x7f; c++) {
    const ch = String.fromCharCode(c);
    const isPunct = !/[0-9A-Za-z]/.test(ch);
    assert.equal(removePunctuation(ch), isPunct ? "" : ch, `U+${c.toString(16)}`);
  }
  assert.equal(removePunctuation("،؛؟"), "");
  // Other Arabic marks are kept: full stop U+06D4, percent U+066A, ornate parentheses, tatweel.
  for (const ch of ["\u06D4", "\u066A", "\uFD3E", "\uFD3F", "\u0640"]) {
    assert.equal(removePunctuation(ch), ch);
  }
});

Deno.test("normalization deletes punctuation, drops the seven stopwords, collapses whitespace", () => {
  assert.equal(STOPWORDS.size, 7);
  assert.equal(
    normalizeText("من الى إلى عن على في حتى"),
    "",
  );
  assert.equal(normalizeText("  ذهب\tالى\n البيت ، ثم عاد؟ "), "ذهب البيت ثم عاد");
  // A stopword glued to punctuation becomes a stopword token after deletion and is dropped.
  assert.equal(normalizeText("(في) سبيل"), "سبيل");
  // No letter normalization: alef forms and taa marbuta stay distinct.
  assert.equal(normalizeText("أحمد احمد رحمة رحمه"), "أحمد احمد رحمة رحمه");
});

Deno.test("whitespace is Python's: NBSP and ideographic space split, ZWSP and BOM do not", () => {
  assert.deepEqual(pySplit("a\u00a0b\u3000c\u2009d\x1ce\x85f"), ["a", "b", "c", "d", "e", "f"]);
  assert.deepEqual(pySplit("a\u200bb\ufeffc"), ["a\u200bb\ufeffc"]);
  assert.deepEqual(pySplit("   "), []);
});

Deno.test("no segmentation leaves every token as it is", () => {
  assert.equal(removePrefixes("والكتاب بالحق للناس", NO_SEGMENTATION), "والكتاب بالحق للناس");
});

Deno.test("light segmentation marks و ف, then ب ك ل or لل, then ال, when enough letters remain", () => {
  const cases: [string, string][] = [
    ["والكتاب", "و+ال+كتاب"],
    ["فبأي", "ف+بأي"], // أي would keep only 2 letters
    ["فبالحق", "ف+ب+ال+حق"],
    ["بالحق", "ب+ال+حق"],
    ["كالعهن", "ك+ال+عهن"],
    ["للناس", "لل+ناس"],
    ["وللآخرة", "و+لل+آخرة"],
    ["الصمد", "ال+صمد"],
    ["والله", "و+الله"],
    ["لله", "لله"],
    ["وهو", "وهو"],
    ["ولد", "ولد"],
    ["فيه", "فيه"],
  ];
  for (const [word, want] of cases) assert.equal(lightSegmentToken(word), want, word);
  assert.equal(
    removePrefixes("والكتاب، بالحق للناس.", LIGHT_SEGMENTATION),
    "كتاب حق ناس",
  );
});
