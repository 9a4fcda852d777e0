/**
 * Fuzzing every parser of the kit with fast-check (fixed seeds, so CI is deterministic):
 * random bytes, random text over each format's own alphabet, and valid files put through
 * random mutations (bytes flipped, deleted or inserted, format tokens such as `NaN`, `1e999`,
 * tabs, quotes and tags spliced in, lines duplicated, swapped or cut, CRLF, BOM, gzip and
 * truncated gzip). Whatever comes in, a parser either returns or throws `KitError`: a
 * `TypeError`, `RangeError` or any other exception is a bug. Where a parse succeeds, what is
 * computed from it stays in range: trec_eval measures and QRCD's pRR / EM / F1@1 in [0, 1].
 *
 * The number of cases is fixed by `FUZZ_PLAN` (fuzz_plan.ts); the test prints the count and
 * checks that every planned case ran.
 */
import "../quick.ts";
import fc from "fast-check";
import { gzipSync } from "fflate";
import { assert, assertEquals } from "../assert.ts";
import { readJacanaXml, readTrecQaJsonl, readWikiQaTsv } from "../../lib/data/mod.ts";
import { KitError } from "../../lib/errors.ts";
import { readText } from "../../lib/io/text.ts";
import { evaluateTrecFiles, readQrels, readRun } from "../../lib/metrics/mod.ts";
import { evaluateQrcd, loadQrcd, parseSpanRun } from "../../lib/qrcd/mod.ts";
import { parseJsonWithLines } from "../../lib/io/json_scan.ts";
import { mem } from "../helpers.ts";
import { EVAL_QRELS, EVAL_RUN, READERS } from "./matrix.ts";
import { FUZZ_PLAN, FUZZ_SEED, FUZZ_TOTAL } from "./fuzz_plan.ts";

const MEASURES = [
  "map",
  "recip_rank",
  "P.5",
  "ndcg_cut.10",
  "Rprec",
  "recall.10",
  "success.1",
  "map_cut.5",
];

function inUnitRange(v: number, what: string): void {
  assert(Number.isFinite(v) && v >= 0 && v <= 1, `${what} = ${v} is outside [0, 1]`);
}

function checkTrecResult(r: Awaited<ReturnType<typeof evaluateTrecFiles>>): void {
  for (const [m, v] of Object.entries(r.summary)) if (!m.startsWith("num_")) inUnitRange(v, m);
  for (const [q, row] of r.perQuery) {
    for (const [m, v] of Object.entries(row)) {
      if (!m.startsWith("num_")) inUnitRange(v, `${q} ${m}`);
    }
  }
}

function checkQrcd(r: ReturnType<typeof evaluateQrcd>): void {
  inUnitRange(r.pRR, "pRR");
  inUnitRange(r.exactMatch, "exact match");
  inUnitRange(r.f1At1, "F1@1");
}

const validText = (title: string) =>
  READERS.find((r) => r.title === title)!.lines.join("\n") + "\n";
const QRCD_GOLD_TEXT = validText("QRCD JSONL");
const QRCD_GOLD = await loadQrcd(mem("gold.jsonl", QRCD_GOLD_TEXT));
const QRCD_RUN = parseSpanRun(validText("QRCD run JSON"), "run.json").run;

/** A parser under fuzz: a valid file to mutate and what to do with bytes. */
interface Target {
  name: string;
  valid: string;
  parse(bytes: Uint8Array): Promise<void>;
}

const TARGETS: Target[] = [
  {
    name: "WikiQA TSV",
    valid: validText("WikiQA TSV"),
    parse: async (b) => void await readWikiQaTsv(mem("f.tsv", b)),
  },
  {
    name: "TREC qrels",
    valid: validText("TREC qrels, WikiQA .ref"),
    parse: async (b) => void await readQrels(mem("f.qrels", b)),
  },
  {
    name: "TREC run",
    valid: EVAL_RUN,
    parse: async (b) => void await readRun(mem("f.run", b)),
  },
  {
    name: "trec eval, run side",
    valid: EVAL_RUN,
    parse: async (b) =>
      checkTrecResult(
        await evaluateTrecFiles(mem("q", EVAL_QRELS), mem("f.run", b), MEASURES, { warn: false }),
      ),
  },
  {
    name: "trec eval, qrels side",
    valid: EVAL_QRELS,
    parse: async (b) =>
      checkTrecResult(
        await evaluateTrecFiles(mem("f.qrels", b), mem("r", EVAL_RUN), MEASURES, {
          warn: false,
          complete: true,
        }),
      ),
  },
  {
    name: "jacana XML",
    valid: validText("TREC-QA jacana XML"),
    parse: async (b) => void await readJacanaXml(mem("f.xml", b)),
  },
  {
    name: "TREC-QA JSONL",
    valid: validText("TREC-QA JSONL"),
    parse: async (b) => void await readTrecQaJsonl(mem("f.jsonl", b), "dev"),
  },
  {
    name: "QRCD JSONL (+ scoring)",
    valid: QRCD_GOLD_TEXT,
    parse: async (b) => checkQrcd(evaluateQrcd(await loadQrcd(mem("f.jsonl", b)), QRCD_RUN)),
  },
  {
    name: "QRCD run JSON (+ scoring)",
    valid: validText("QRCD run JSON"),
    parse: async (b) => {
      const { run } = parseSpanRun(await readText(mem("f.json", b)), "f.json");
      checkQrcd(evaluateQrcd(QRCD_GOLD, run));
    },
  },
  {
    name: "strict JSON scanner",
    valid: validText("QRCD run JSON"),
    parse: async (b) => void parseJsonWithLines(await readText(mem("f.json", b)), "f.json"),
  },
];

const TOKENS = [
  "\t",
  "\n",
  "\r\n",
  "\r",
  " ",
  '"',
  "\\",
  "{",
  "}",
  "[",
  "]",
  ",",
  ":",
  "#",
  "NaN",
  "Infinity",
  "-inf",
  "1e999",
  "-0",
  "0x1F",
  "1.0",
  "null",
  "\uFEFF",
  "\u0000",
  "\u00e9",
  "\u0627\u0644\u0644\u0647",
  "<QApairs id='1.1'>",
  "</QApairs>",
  "<positive>",
  "</question>",
  "Q0",
  '"label": 2',
  '"start_char": -1',
  '"rank": 0',
  "\\u12",
];

type Mutation =
  | { kind: "flip"; at: number; value: number }
  | { kind: "delete"; at: number; len: number }
  | { kind: "insert"; at: number; bytes: Uint8Array }
  | { kind: "token"; at: number; token: string }
  | { kind: "dupLine"; line: number }
  | { kind: "swapLines"; a: number; b: number }
  | { kind: "truncate"; at: number };

const at = fc.nat({ max: 100_000 });
const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant("flip" as const), at, value: fc.integer({ min: 0, max: 255 }) }),
  fc.record({ kind: fc.constant("delete" as const), at, len: fc.integer({ min: 1, max: 30 }) }),
  fc.record({ kind: fc.constant("insert" as const), at, bytes: fc.uint8Array({ maxLength: 8 }) }),
  fc.record({ kind: fc.constant("token" as const), at, token: fc.constantFrom(...TOKENS) }),
  fc.record({ kind: fc.constant("dupLine" as const), line: at }),
  fc.record({ kind: fc.constant("swapLines" as const), a: at, b: at }),
  fc.record({ kind: fc.constant("truncate" as const), at }),
);

const enc = new TextEncoder();

function splitLines(b: Uint8Array): Uint8Array[] {
  const out: Uint8Array[] = [];
  let start = 0;
  for (let i = 0; i < b.length; i++) {
    if (b[i] === 10) {
      out.push(b.subarray(start, i + 1));
      start = i + 1;
    }
  }
  if (start < b.length) out.push(b.subarray(start));
  return out;
}

function join(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let off = 0;
  for (const p of parts) {
    out.set(p, off);
    off += p.length;
  }
  return out;
}

function mutate(b: Uint8Array, m: Mutation): Uint8Array {
  const pos = (x: number) => (b.length === 0 ? 0 : x % (b.length + 1));
  switch (m.kind) {
    case "flip": {
      if (b.length === 0) return b;
      const out = b.slice();
      out[m.at % b.length] = m.value;
      return out;
    }
    case "delete": {
      const p = pos(m.at);
      return join([b.subarray(0, p), b.subarray(p + m.len)]);
    }
    case "insert":
    case "token": {
      const p = pos(m.at);
      const ins = m.kind === "insert" ? m.bytes : enc.encode(m.token);
      return join([b.subarray(0, p), ins, b.subarray(p)]);
    }
    case "dupLine": {
      const lines = splitLines(b);
      if (lines.length === 0) return b;
      const i = m.line % lines.length;
      return join([...lines.slice(0, i + 1), lines[i], ...lines.slice(i + 1)]);
    }
    case "swapLines": {
      const lines = splitLines(b);
      if (lines.length < 2) return b;
      const [i, j] = [m.a % lines.length, m.b % lines.length];
      [lines[i], lines[j]] = [lines[j], lines[i]];
      return join(lines);
    }
    case "truncate":
      return b.subarray(0, pos(m.at));
  }
}

const wrapping = fc.record({
  crlf: fc.boolean(),
  bom: fc.boolean(),
  gzip: fc.constantFrom("none", "none", "none", "gzip", "gzip-cut"),
  cut: fc.double({ min: 0, max: 1, noNaN: true }),
});

function wrap(b: Uint8Array, w: { crlf: boolean; bom: boolean; gzip: string; cut: number }) {
  let out = b;
  if (w.crlf) {
    out = join(
      splitLines(out).map((l) =>
        l[l.length - 1] === 10 ? join([l.subarray(0, -1), Uint8Array.of(13, 10)]) : l
      ),
    );
  }
  if (w.bom) out = join([Uint8Array.of(0xef, 0xbb, 0xbf), out]);
  if (w.gzip !== "none") out = gzipSync(out, { mtime: 0 });
  if (w.gzip === "gzip-cut") out = out.subarray(0, Math.floor(out.length * w.cut));
  return out;
}

const counts = { cases: 0, read: 0, kitError: 0 };

async function mustOnlyThrowKitError(target: Target, bytes: Uint8Array): Promise<void> {
  counts.cases++;
  try {
    await target.parse(bytes);
    counts.read++;
  } catch (e) {
    if (e instanceof KitError) {
      counts.kitError++;
      return;
    }
    const shown = new TextDecoder().decode(bytes.subarray(0, 400));
    throw new Error(
      `${target.name}: ${(e as Error)?.name}: ${(e as Error)?.message} on input ${
        JSON.stringify(shown)
      }`,
      { cause: e },
    );
  }
}

for (const [t, target] of TARGETS.entries()) {
  const valid = enc.encode(target.valid);
  const alphabet = [...new Set([...target.valid, "\t", "\n", "\r", '"', "\uFEFF", "\uFFFD"])];
  Deno.test(`fuzz ${target.name}: only KitError escapes`, async () => {
    const plan = FUZZ_PLAN[target.name];
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ maxLength: 300 }),
        (b) => mustOnlyThrowKitError(target, b),
      ),
      { seed: FUZZ_SEED + 3 * t, numRuns: plan.randomBytes },
    );
    await fc.assert(
      fc.asyncProperty(
        fc.string({ unit: fc.constantFrom(...alphabet), maxLength: 400 }),
        (s) => mustOnlyThrowKitError(target, enc.encode(s)),
      ),
      { seed: FUZZ_SEED + 3 * t + 1, numRuns: plan.formatAlphabet },
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(mutation, { minLength: 1, maxLength: 4 }),
        wrapping,
        (ms, w) => mustOnlyThrowKitError(target, wrap(ms.reduce(mutate, valid), w)),
      ),
      { seed: FUZZ_SEED + 3 * t + 2, numRuns: plan.mutatedValid },
    );
  });
}

Deno.test("fuzz: every planned case ran", () => {
  console.log(
    `fuzz: ${counts.cases} cases over ${TARGETS.length} parsers ` +
      `(${counts.read} read, ${counts.kitError} rejected with KitError, ` +
      "0 other exceptions)",
  );
  assertEquals(counts.cases, FUZZ_TOTAL);
  assertEquals(TARGETS.map((t) => t.name).sort(), Object.keys(FUZZ_PLAN).sort());
  // The mutations must reach both outcomes, or the fuzzer is not testing much.
  assert(counts.read > FUZZ_TOTAL * 0.02, `only ${counts.read} inputs read`);
  assert(counts.kitError > FUZZ_TOTAL * 0.05, `only ${counts.kitError} inputs rejected`);
});
