/**
 * A model's tokenizer, read from its `tokenizer.json` with `@huggingface/tokenizers`
 * (pure JS, same ids as the Python/Rust tokenizers), or, in a folder that has only a BERT
 * `vocab.txt`, built from it as `transformers` builds BertTokenizerFast (WordPiece, the
 * folder's `tokenizer_config.json` for casing and special tokens). On top of it: pair
 * encoding with longest-first truncation and the special-token template of the model's
 * post-processor, and token character offsets (which the JS library does not give) for span
 * extraction.
 *
 * @module
 */
import { Tokenizer } from "npm:@huggingface/tokenizers@0.2.0";
import { KitError } from "../../errors.ts";
import { readJsonFile } from "../../io/json.ts";
import { readLines } from "../../io/text.ts";
import { readWholeFile } from "../../io/whole_file.ts";
import { exists } from "../../io/atomic.ts";
import { bertTokenizerFiles } from "./wordpiece_vocab.ts";

/** Token ids and token-type ids of one encoded input. */
export interface Encoded {
  /** Token ids, special tokens included. */
  ids: number[];
  /** Segment ids (0 for the first text, 1 for the second where the model uses them). */
  typeIds: number[];
}

/** A token with its [start, end) character offsets in the text it came from. */
export interface TokenSpan {
  /** Vocabulary id. */
  id: number;
  /** Start offset (UTF-16 code units). */
  start: number;
  /** End offset (exclusive). */
  end: number;
}

type Piece = { special: number[]; typeId: number } | { seq: "A" | "B"; typeId: number };

interface TemplateItem {
  SpecialToken?: { id: string; type_id: number };
  Sequence?: { id: "A" | "B"; type_id: number };
}

interface PostProcessorJson {
  type: string;
  pair?: TemplateItem[];
  special_tokens?: Record<string, { ids: number[] }>;
  sep?: [string, number];
  cls?: [string, number];
  processors?: PostProcessorJson[];
}

/** Reads the pair template (`[CLS] A [SEP] B [SEP]` etc.) from a post-processor. */
function pairTemplate(pp: PostProcessorJson | null | undefined): Piece[] {
  if (!pp) return [{ seq: "A", typeId: 0 }, { seq: "B", typeId: 1 }];
  switch (pp.type) {
    case "TemplateProcessing":
      return (pp.pair ?? []).map((item) => {
        if (item.SpecialToken) {
          const ids = pp.special_tokens?.[item.SpecialToken.id]?.ids;
          if (!ids) throw new KitError(`tokenizer.json: unknown special ${item.SpecialToken.id}`);
          return { special: ids, typeId: item.SpecialToken.type_id };
        }
        return { seq: item.Sequence!.id, typeId: item.Sequence!.type_id };
      });
    case "BertProcessing":
      return [
        { special: [pp.cls![1]], typeId: 0 },
        { seq: "A", typeId: 0 },
        { special: [pp.sep![1]], typeId: 0 },
        { seq: "B", typeId: 1 },
        { special: [pp.sep![1]], typeId: 1 },
      ];
    case "RobertaProcessing":
      return [
        { special: [pp.cls![1]], typeId: 0 },
        { seq: "A", typeId: 0 },
        { special: [pp.sep![1], pp.sep![1]], typeId: 0 },
        { seq: "B", typeId: 0 },
        { special: [pp.sep![1]], typeId: 0 },
      ];
    case "Sequence": {
      const inner = (pp.processors ?? []).find((p) =>
        ["TemplateProcessing", "BertProcessing", "RobertaProcessing"].includes(p.type)
      );
      return pairTemplate(inner ?? null);
    }
    default:
      return pairTemplate(null);
  }
}

const PUNCT = /[\p{P}!-\/:-@\[-`{-~]/u;
const CJK = /[\u4E00-\u9FFF\u3400-\u4DBF\uF900-\uFAFF\u{20000}-\u{2FA1F}]/u;
// deno-lint-ignore no-control-regex
const SKIP = /[\s\x00-\x08\x0B\x0C\x0E-\x1F\x7F\uFFFD\u200B-\u200F\u2028\u2029\uFEFF]/u;

/** A loaded tokenizer with the operations the kit's models need. */
export class ModelTokenizer {
  /** The underlying `@huggingface/tokenizers` tokenizer. */
  readonly tokenizer: Tokenizer;
  /** The pair template: special tokens and sequences with their type ids. */
  readonly template: Piece[];
  /** How many special tokens a pair adds. */
  readonly specialsInPair: number;
  /** Id used to pad batches. */
  readonly padId: number;
  /** WordPiece models split words on punctuation and give sub-word offsets. */
  readonly wordPiece: boolean;
  /** The unknown token's string (`[UNK]` for BERT). */
  readonly unkToken: string;
  /** The file it was read from: `tokenizer.json`, or `vocab.txt` when the folder has only that. */
  file = "tokenizer.json";
  /** `model_max_length` of tokenizer_config.json, when it is a real limit. */
  readonly modelMaxLength: number | undefined;

  /** Builds from parsed `tokenizer.json` and `tokenizer_config.json` contents. */
  constructor(tokenizerJson: Record<string, unknown>, tokenizerConfig: Record<string, unknown>) {
    this.tokenizer = new Tokenizer(tokenizerJson, tokenizerConfig);
    this.template = pairTemplate(tokenizerJson.post_processor as PostProcessorJson);
    this.specialsInPair = this.template.reduce(
      (n, p) => n + ("special" in p ? p.special.length : 0),
      0,
    );
    const padToken = (tokenizerConfig.pad_token as string | undefined) ??
      ((tokenizerJson.padding as { pad_token?: string } | null)?.pad_token);
    this.padId = (padToken ? this.tokenizer.token_to_id(padToken) : undefined) ?? 0;
    const model = tokenizerJson.model as { type?: string; unk_token?: string } | undefined;
    this.wordPiece = model?.type === "WordPiece";
    this.unkToken = model?.unk_token ?? "[UNK]";
    const mml = tokenizerConfig.model_max_length;
    this.modelMaxLength = typeof mml === "number" && mml < 1e6 ? mml : undefined;
  }

  /**
   * Reads `tokenizer.json` (and `tokenizer_config.json` when present) from a model folder;
   * without `tokenizer.json`, a BERT WordPiece tokenizer from its `vocab.txt`.
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import { ModelTokenizer } from "./tokenizer.ts";
   * const t = await ModelTokenizer.load("tests/fixtures/tiny-model/qa");
   * assert(t.encodeText("Hamlet").length >= 1);
   * ```
   */
  static async load(dir: string): Promise<ModelTokenizer> {
    const read = (name: string, kind: "config" | "tokenizer") =>
      readJsonFile(`${dir}/${name}`, { expect: "object", optional: true, kind });
    const config = (await read("tokenizer_config.json", "config")) ?? {};
    const json = await read("tokenizer.json", "tokenizer");
    const tj = json ?? await tokenizerFromVocab(dir, config);
    try {
      const t = new ModelTokenizer(tj, config);
      if (json === undefined) t.file = "vocab.txt";
      return t;
    } catch (e) {
      if (e instanceof KitError) throw e;
      throw new KitError(
        `not a tokenizer the kit can use (${(e as Error).message}); expected a Hugging Face ` +
          "tokenizer.json",
        { file: `${dir}/tokenizer.json` },
        { cause: e },
      );
    }
  }

  /**
   * One past the largest token id the tokenizer can give (added tokens included): the rows
   * of the embedding table the model needs.
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import { ModelTokenizer } from "./tokenizer.ts";
   * const t = await ModelTokenizer.load("tests/fixtures/tiny-model/cross-encoder");
   * assert(t.vocabularySize > 0 && t.vocabularySize <= 202);
   * ```
   */
  get vocabularySize(): number {
    let top = -1;
    for (const id of this.tokenizer.get_vocab(true).values()) if (id > top) top = id;
    return top + 1;
  }

  /** Token ids of `text` without special tokens. */
  encodeText(text: string): number[] {
    return this.tokenizer.encode(text, { add_special_tokens: false }).ids;
  }

  /** Puts two id sequences into the pair template. */
  assemble(a: number[], b: number[]): Encoded {
    const ids: number[] = [];
    const typeIds: number[] = [];
    for (const p of this.template) {
      const part = "special" in p ? p.special : p.seq === "A" ? a : b;
      for (const id of part) {
        ids.push(id);
        typeIds.push(p.typeId);
      }
    }
    return { ids, typeIds };
  }

  /**
   * Encodes a (question, candidate) pair in at most `maxLength` tokens, truncating the
   * longer text first one token at a time (ties cut the second text).
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import { ModelTokenizer } from "./tokenizer.ts";
   * const t = await ModelTokenizer.load("tests/fixtures/tiny-model/cross-encoder");
   * const e = t.encodePair("who wrote hamlet?", "Hamlet is a tragedy.".repeat(20), 16);
   * assert(e.ids.length === 16 && e.typeIds[15] === 1);
   * ```
   */
  encodePair(a: string, b: string, maxLength: number): Encoded {
    const x = this.encodeText(a);
    const y = this.encodeText(b);
    const budget = maxLength - this.specialsInPair;
    if (budget < 2) throw new KitError(`maxLength ${maxLength} leaves no room for the texts`);
    let nx = x.length, ny = y.length;
    while (nx + ny > budget) {
      if (nx > ny) nx--;
      else ny--;
    }
    return this.assemble(x.slice(0, nx), y.slice(0, ny));
  }

  /**
   * Tokens of `text` with character offsets. Words are split as BERT's pre-tokenizer
   * does (whitespace, punctuation, CJK characters; whitespace only for other models) and
   * tokenized one by one, which gives the same ids as tokenizing the whole text for
   * WordPiece models. WordPiece pieces get their own offsets when normalization kept the
   * word's length; otherwise every piece carries the whole word's span.
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import { ModelTokenizer } from "./tokenizer.ts";
   * const t = await ModelTokenizer.load("tests/fixtures/tiny-model/qa");
   * const toks = t.tokensWithOffsets("Hi, Hamlet!");
   * assert(toks[0].start === 0 && toks.at(-1)!.start === 10 && toks.at(-1)!.end === 11);
   * ```
   */
  tokensWithOffsets(text: string): TokenSpan[] {
    const out: TokenSpan[] = [];
    const words: [number, number][] = [];
    let start = -1;
    const flush = (end: number) => {
      if (start >= 0) words.push([start, end]);
      start = -1;
    };
    let i = 0;
    for (const ch of text) {
      const len = ch.length;
      if (SKIP.test(ch)) flush(i);
      else if (this.wordPiece && (PUNCT.test(ch) || CJK.test(ch))) {
        flush(i);
        words.push([i, i + len]);
      } else if (start < 0) start = i;
      i += len;
    }
    flush(i);
    const bytePrefix = !this.wordPiece;
    for (const [s, e] of words) {
      const word = text.slice(s, e);
      const needsSpace = bytePrefix && s > 0 && /\s/.test(text[s - 1]);
      const enc = this.tokenizer.encode(needsSpace ? " " + word : word, {
        add_special_tokens: false,
      });
      const pieceLen = enc.tokens.map((t) => t.startsWith("##") ? t.length - 2 : t.length);
      const exact = this.wordPiece && !enc.tokens.includes(this.unkToken) &&
        pieceLen.reduce((a, b) => a + b, 0) === e - s;
      let at = s;
      enc.ids.forEach((id, k) => {
        if (exact) {
          out.push({ id, start: at, end: at + pieceLen[k] });
          at += pieceLen[k];
        } else out.push({ id, start: s, end: e });
      });
    }
    return out;
  }
}

/**
 * The `tokenizer.json` of a folder's BERT `vocab.txt` (one token a line, the line's index its
 * id), with `tokenizer_config.json`'s `do_lower_case`, `strip_accents`,
 * `tokenize_chinese_chars` and special tokens (BertTokenizer's defaults where absent).
 */
async function tokenizerFromVocab(
  dir: string,
  config: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const file = `${dir}/vocab.txt`;
  if (!(await exists(file))) {
    throw new KitError("model folder has neither tokenizer.json nor vocab.txt", { file: dir });
  }
  const vocab: string[] = [];
  const seen = new Map<string, number>();
  // Read whole first (a regular file within the tokenizer limit), then line by line.
  const bytes = await readWholeFile(file, "tokenizer");
  for await (const { text, line } of readLines({ name: file, bytes })) {
    const first = seen.get(text);
    if (first !== undefined) {
      throw new KitError(
        `the token '${text}' is on lines ${first} and ${line}: its id is ambiguous`,
        { file, line },
      );
    }
    seen.set(text, line);
    vocab.push(text);
  }
  const str = (key: string) => typeof config[key] === "string" ? config[key] as string : undefined;
  const bool = (key: string) =>
    typeof config[key] === "boolean" ? config[key] as boolean : undefined;
  const specials = {
    unk: str("unk_token") ?? "[UNK]",
    cls: str("cls_token") ?? "[CLS]",
    sep: str("sep_token") ?? "[SEP]",
    pad: str("pad_token") ?? "[PAD]",
    mask: str("mask_token") ?? "[MASK]",
  };
  const missing = [specials.unk, specials.cls, specials.sep].filter((t) => !seen.has(t));
  if (missing.length) {
    throw new KitError(`vocab.txt has no ${missing.join(", ")}: not a BERT vocabulary`, { file });
  }
  const stripAccents = config.strip_accents;
  return bertTokenizerFiles(vocab, 512, {
    lowercase: bool("do_lower_case") ?? true,
    stripAccents: typeof stripAccents === "boolean" ? stripAccents : null,
    chineseChars: bool("tokenize_chinese_chars") ?? true,
    specials,
  }).tokenizer;
}
