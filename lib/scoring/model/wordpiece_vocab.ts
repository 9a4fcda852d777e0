/**
 * A generated WordPiece vocabulary of BERT's size (30,522 entries) and the Hugging Face
 * `tokenizer.json` around it, for models of a real shape built without a download. BERT's
 * own vocabulary cannot be downloaded here, so this one keeps what matters for timing and
 * for the tokenizer code path: the size (the word-embedding table is 30,522 x hidden),
 * BERT uncased's special-token ids (`[PAD]` 0, `[UNK]` 100, `[CLS]` 101, `[SEP]` 102,
 * `[MASK]` 103, `[unused0]`..`[unused993]` around them), the same normalizer and
 * pre-tokenizer (lowercase, accents stripped, split on whitespace and punctuation).
 *
 * After the 999 special entries come, in this order: single characters (printable ASCII
 * without capitals, Greek, Cyrillic and Arabic letters, and every character of the words
 * below) and their `##` continuations (letters and digits); every word of the kit's bundled
 * samples (`data/samples`: WikiQA, TREC-QA, QRCD), most frequent first, so the benchmark's
 * pairs tokenize to whole words as common English does with BERT's vocabulary; then letter
 * pairs and triples, word-initial and `##`, in alphabetical order until 30,522 entries, so
 * other words split into pieces of two or three letters (more tokens per word than BERT's
 * vocabulary gives).
 *
 * @module
 */
import { SAMPLES_DIR } from "../../data/paths.ts";

/** BERT's vocabulary size (bert-base-uncased, MiniLM). */
export const BERT_VOCAB_SIZE = 30522;

/** Words of a text as BERT's normalizer leaves them: lowercase, accents stripped. */
function normalizedWords(text: string): string[] {
  return (text.toLowerCase().normalize("NFD").replace(/\p{Mn}/gu, "").match(/\p{L}+/gu) ?? []);
}

/** Every word of the bundled sample files with its count. */
async function sampleWordCounts(dir: string): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  const walk = async (d: string) => {
    const entries = [];
    for await (const e of Deno.readDir(d)) entries.push(e);
    entries.sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
    for (const e of entries) {
      const path = `${d}/${e.name}`;
      if (e.isDirectory) await walk(path);
      else if (e.isFile && !e.name.endsWith(".md")) {
        for (const w of normalizedWords(await Deno.readTextFile(path))) {
          counts.set(w, (counts.get(w) ?? 0) + 1);
        }
      }
    }
  };
  await walk(dir);
  return counts;
}

const range = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => String.fromCodePoint(from + i));

/**
 * The vocabulary: 30,522 distinct tokens, index = id.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { generatedVocabulary } from "./wordpiece_vocab.ts";
 * const vocab = await generatedVocabulary();
 * assert.equal(vocab.length, 30522);
 * assert.deepEqual([vocab[0], vocab[100], vocab[101], vocab[102]], ["[PAD]", "[UNK]", "[CLS]", "[SEP]"]);
 * assert(vocab.includes("light") && vocab.includes("##zz"));
 * ```
 */
export async function generatedVocabulary(samplesDir = SAMPLES_DIR): Promise<string[]> {
  const tokens: string[] = [];
  const seen = new Set<string>();
  const add = (t: string) => {
    if (tokens.length < BERT_VOCAB_SIZE && !seen.has(t)) {
      seen.add(t);
      tokens.push(t);
    }
  };
  add("[PAD]");
  for (let i = 0; i < 99; i++) add(`[unused${i}]`);
  for (const t of ["[UNK]", "[CLS]", "[SEP]", "[MASK]"]) add(t);
  for (let i = 99; i < 994; i++) add(`[unused${i}]`);

  const counts = await sampleWordCounts(samplesDir);
  const words = [...counts.keys()].sort((a, b) =>
    counts.get(b)! - counts.get(a)! || (a < b ? -1 : a > b ? 1 : 0)
  );
  const chars = [
    ...range(33, 64),
    ...range(91, 126),
    ...range(0x3b1, 0x3c9),
    ...range(0x430, 0x44f),
    ...range(0x621, 0x64a),
    ...[...new Set(words.flatMap((w) => [...w]))].sort(),
  ];
  for (const c of chars) add(c);
  for (const c of chars) if (/[\p{L}\p{N}]/u.test(c)) add(`##${c}`);
  for (const w of words) add(w);
  const letters = range(97, 122);
  const pairs = letters.flatMap((a) => letters.map((b) => a + b));
  const triples = pairs.flatMap((ab) => letters.map((c) => ab + c));
  for (const group of [pairs, triples]) {
    for (const p of group) add(p);
    for (const p of group) add(`##${p}`);
  }
  if (tokens.length !== BERT_VOCAB_SIZE) {
    throw new Error(`generated vocabulary has ${tokens.length} tokens, not ${BERT_VOCAB_SIZE}`);
  }
  return tokens;
}

/** How a BERT tokenizer normalizes, and its special tokens (BertTokenizer's defaults). */
export interface BertTokenizerOptions {
  /** Lowercase (and strip accents, unless `stripAccents` is false): `do_lower_case`. */
  lowercase?: boolean;
  /** `strip_accents`: null follows `lowercase`. */
  stripAccents?: boolean | null;
  /** `tokenize_chinese_chars`: a CJK character is a word of its own. */
  chineseChars?: boolean;
  /** Special token strings: `unk_token`, `cls_token`, `sep_token`, `pad_token`, `mask_token`. */
  specials?: Partial<Record<"unk" | "cls" | "sep" | "pad" | "mask", string>>;
}

/**
 * `tokenizer.json` (Hugging Face `tokenizers` format) of a BERT WordPiece tokenizer over
 * `vocab` (uncased unless told otherwise), and its `tokenizer_config.json`: what
 * `transformers` builds from a `vocab.txt` (BertTokenizerFast's conversion).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { bertTokenizerFiles } from "./wordpiece_vocab.ts";
 * const { tokenizer, config } = bertTokenizerFiles(["[PAD]", "[UNK]", "[CLS]", "[SEP]", "a"], 512);
 * assert.equal((tokenizer.model as { type: string }).type, "WordPiece");
 * assert.equal(config.model_max_length, 512);
 * ```
 */
export function bertTokenizerFiles(
  vocab: readonly string[],
  maxLength: number,
  options: BertTokenizerOptions = {},
): { tokenizer: Record<string, unknown>; config: Record<string, unknown> } {
  const ids = Object.fromEntries(vocab.map((t, i) => [t, i]));
  const name = {
    unk: "[UNK]",
    cls: "[CLS]",
    sep: "[SEP]",
    pad: "[PAD]",
    mask: "[MASK]",
    ...options.specials,
  };
  const lowercase = options.lowercase ?? true;
  const specials = [name.pad, name.unk, name.cls, name.sep, name.mask].filter((t) => t in ids);
  const special = (token: string, typeId: number) => ({
    SpecialToken: { id: token, type_id: typeId },
  });
  const sequence = (id: string, typeId: number) => ({ Sequence: { id, type_id: typeId } });
  const tokenizer = {
    version: "1.0",
    truncation: null,
    padding: null,
    added_tokens: specials.map((t) => ({
      id: ids[t],
      content: t,
      single_word: false,
      lstrip: false,
      rstrip: false,
      normalized: false,
      special: true,
    })),
    normalizer: {
      type: "BertNormalizer",
      clean_text: true,
      handle_chinese_chars: options.chineseChars ?? true,
      strip_accents: options.stripAccents ?? null,
      lowercase,
    },
    pre_tokenizer: { type: "BertPreTokenizer" },
    post_processor: {
      type: "TemplateProcessing",
      single: [special(name.cls, 0), sequence("A", 0), special(name.sep, 0)],
      pair: [
        special(name.cls, 0),
        sequence("A", 0),
        special(name.sep, 0),
        sequence("B", 1),
        special(name.sep, 1),
      ],
      special_tokens: Object.fromEntries(
        [name.cls, name.sep].map((t) => [t, { id: t, ids: [ids[t]], tokens: [t] }]),
      ),
    },
    decoder: { type: "WordPiece", prefix: "##", cleanup: true },
    model: {
      type: "WordPiece",
      unk_token: name.unk,
      continuing_subword_prefix: "##",
      max_input_chars_per_word: 100,
      vocab: ids,
    },
  };
  const config = {
    do_lower_case: lowercase,
    model_max_length: maxLength,
    tokenizer_class: "BertTokenizer",
    cls_token: name.cls,
    sep_token: name.sep,
    pad_token: name.pad,
    unk_token: name.unk,
    mask_token: name.mask,
  };
  return { tokenizer, config };
}
