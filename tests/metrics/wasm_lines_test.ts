// The WebAssembly fast paths (lib/metrics/engine/wasm/lines.wat) against the JavaScript parsers
// they stand in for: on lines built from the fields' usual and unusual forms (blanks, tabs,
// CR, missing and extra fields, UTF-8, comments, scores of every length and syntax,
// relevances at every limit of the packed records), through read buffers small and large,
// both readers give the same columns, records, query tables, skipped lines and errors with
// the fast path (the default) and without it. And the committed module is its source's.
import "../quick.ts";
import { assert, assertEquals } from "../assert.ts";
import fc from "fast-check";
import { readRunChunks, runBlockChunks } from "../../lib/metrics/engine/run_reader.ts";
import { rankInto } from "../../lib/metrics/engine/judge.ts";
import { QrelsIndex } from "../../lib/metrics/engine/qrels_index.ts";
import type { SkippedLines } from "../../lib/metrics/engine/trec_scan.ts";
import type { TrecRelease } from "../../lib/metrics/release.ts";
import { LINES_WASM_BASE64 } from "../../lib/metrics/engine/wasm/lines_wasm.ts";
import { assembleLines } from "../../tools/build_wasm.ts";
import { mem } from "../helpers.ts";

Deno.test("lines_wasm.ts holds what lines.wat assembles to", async () => {
  assertEquals(Uint8Array.fromBase64(LINES_WASM_BASE64), await assembleLines());
});

const blank = fc.constantFrom(" ", " ", " ", "\t", "  ", " \t ");
const lineEnd = fc.constantFrom("\n", "\n", "\n", "\n", " \n", "\t\n", "\r\n", " \r\n", "\v\n");
// (Ids of up to 8 bytes are compared in one 8-byte load, longer ones byte by byte.)
const qid = fc.constantFrom(
  "q1",
  "q1",
  "q2",
  "q2",
  "q10",
  "q1x",
  "#q",
  "qé",
  "q",
  "q2345678",
  "q2345679",
  "q23456789",
  "topic-000000001",
  "topic-000000002",
);
const docno = fc.oneof(
  fc.constantFrom("d1", "d2", "d10", "d1\x7f", "dé", "a", "LA010189-0001", "x".repeat(300)),
  fc.tuple(
    fc.constantFrom("", "d", "clueweb09-en0000-00-", "y".repeat(260)),
    fc.stringMatching(/^[a-z0-9_]{1,6}$/),
  ).map(([p, s]) => p + s),
);

/** A score: plain decimals of 1-17 digits (the fast path takes 1-15) and other syntaxes. */
const score = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom("0.25", "1", "-3.5", "0.123456789012345") },
  fc.tuple(
    fc.boolean(),
    fc.stringMatching(/^[0-9]{0,9}$/),
    fc.option(fc.stringMatching(/^[0-9]{0,8}$/)),
  ).map(([neg, whole, frac]) => `${neg ? "-" : ""}${whole}${frac === null ? "" : "." + frac}`),
  fc.constantFrom("-0", "1e3", "+1", ".5", "5.", "inf", "nan", "0x10", "1.5abc", "--1"),
  // 17 digits whose mantissa over 10^scale rounds twice, away from the nearest double.
  fc.constantFrom("47376.918249459197", "198.02180581059402", "7278.8500558506334"),
);

/** A run line: usual most of the time; a field missing or extra, other blanks now and then. */
const runLine = fc.oneof(
  {
    weight: 30,
    arbitrary: fc.tuple(qid, blank, docno, blank, score, blank, lineEnd).map(
      ([q, b1, d, b2, s, b3, e]) => `${q}${b1}Q0${b1}${d}${b2}1${b3}${s}${b2}run${e}`,
    ),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      "\n",
      "q1 Q0 d1 1 0.5\n",
      "q1 Q0 d1 1 0.5 \n",
      "q1 Q0 d1 1 \t\n",
      "q1 Q0 d1 1 0.5 run extra\n",
      "# comment\n",
      "q1 Q0 d9 1 0.5 rün\n",
      "q1  Q0 d9 1 0.5 run\n",
      " q1 Q0 d9 1 0.5 run\n",
      "q1 Q0 d9 1 0.5 run",
    ),
  },
);

/** How a file is read: its text, the buffer, the release, tolerant or not, the fast path or not. */
interface Read {
  text: string;
  chunkBytes: number;
  release: TrecRelease;
  skip: boolean;
  wasm: boolean;
}

/**
 * Checks that `read` gives the same with the fast path as without it, on files of generated
 * `lines` (tolerant mode, which reads on past a bad line, two times in three); returns how many
 * rows or judgments were read in all.
 */
async function sameWithAndWithout<T>(
  lines: fc.Arbitrary<string>,
  maxLines: number,
  seed: number,
  read: (r: Read) => Promise<T>,
  size: (got: T) => number,
): Promise<number> {
  let total = 0;
  await fc.assert(
    fc.asyncProperty(
      fc.array(lines, { minLength: 1, maxLength: maxLines }),
      fc.constantFrom(16, 48, 256, 1 << 18),
      fc.constantFrom<TrecRelease>("9.0.8", "10.0"),
      fc.constantFrom(true, true, false),
      async (picked, chunkBytes, release, skip) => {
        const r = { text: picked.join(""), chunkBytes, release, skip };
        const fast = await read({ ...r, wasm: true });
        assertEquals(fast, await read({ ...r, wasm: false }));
        total += size(fast);
      },
    ),
    { numRuns: 400, seed },
  );
  return total;
}

/** The blocks, rows and runid a run reader gives, or its error. */
async function readRun({ text, chunkBytes, release, skip, wasm }: Read) {
  const skipped: SkippedLines | undefined = skip ? { count: 0, examples: [] } : undefined;
  const rows: unknown[] = [];
  let runId = "";
  try {
    for await (
      const c of readRunChunks(mem("run", text), {
        chunkBytes,
        release,
        skip: skipped,
        wasm,
        onRunId: (id) => runId = id,
      })
    ) {
      const l = c.lines;
      for (let b = 0; b < c.complete; b++) {
        for (let i = l.blockFirst[b]; i < l.blockFirst[b + 1]; i++) {
          const doc = new TextDecoder().decode(c.buf.subarray(l.docS[i], l.docE[i]));
          rows.push([l.blockQid[b], doc, l.docH[i], l.score[i], l.line[i]]);
        }
      }
    }
  } catch (e) {
    return { error: (e as Error).message, rows };
  }
  return { rows, runId, skipped };
}

Deno.test("the run fast path reads every line as the JavaScript parser does", async () => {
  const taken = await sameWithAndWithout(runLine, 60, 7, readRun, (got) => got.rows.length);
  assert(taken > 2000, `only ${taken} rows read`);
});

const relevance = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom("0", "1", "2") },
  fc.constantFrom("0", "1", "2", "3", "-1", "127", "128", "-127", "-128", "-129", "255"),
  fc.constantFrom("999999999", "-999999999", "1234567890", "-0", "+1", "1.0", "007", "2a", ""),
  fc.constantFrom("2147483647", "2147483648", "9999999999", "-9999999999", "0000000001"),
);
const qrelsDocno = fc.oneof(
  docno,
  fc.tuple(fc.constantFrom("LA0101-", "clueweb09-en0000-"), fc.integer({ min: 0, max: 99999 }))
    .map(([p, n]) => p + n),
);

/** A qrels line: usual most of the time. */
const qrelsLine = fc.oneof(
  {
    weight: 30,
    arbitrary: fc.tuple(qid, blank, qrelsDocno, blank, relevance, lineEnd).map(
      ([q, b1, d, b2, r, e]) => `${q}${b1}0${b2}${d}${b1}${r}${e}`,
    ),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      "\n",
      "# comment\n",
      "#q 0 d1 1\n",
      // (10.0: a comment, then a '#' line read as data, then comments again)
      "# c\n#q 0 d1 1\n#q 0 d2 1\n#q 0 d3 2\n",
      "q1 0 d1\n",
      "q1 0 d1 \n",
      "q1 0 d1 1 extra\n",
      " q1 0 d5 1\n",
      "q1 0 d5 1",
    ),
  },
);

/** What a qrels reader keeps (records, query table) and skips, or its error. */
async function readQrels({ text, chunkBytes, release, skip, wasm }: Read) {
  const skipped: SkippedLines | undefined = skip ? { count: 0, examples: [] } : undefined;
  try {
    const index = await QrelsIndex.read(mem("qrels", text), {
      chunkBytes,
      release,
      skip: skipped,
      wasm,
    });
    const state = index.state();
    return { state: { ...state, chunks: state.chunks.map((c) => [...c]) }, skipped };
  } catch (e) {
    return { error: (e as Error).message };
  }
}

Deno.test("the qrels fast path writes every record as the JavaScript parser does", async () => {
  const judged = await sameWithAndWithout(qrelsLine, 80, 9, readQrels, (g) => g.state?.count ?? 0);
  assert(judged > 1500, `only ${judged} judgments read`);
});

Deno.test("the qrels fast path fills record chunks to the byte where JavaScript starts anew", async () => {
  // 40,000 judgments of one query: records fill a 16 KiB chunk, then 1 MiB ones; the fast
  // path stops where a record would not fit, and the next one opens the new chunk.
  const lines: string[] = [];
  for (let i = 0; i < 40000; i++) {
    lines.push(`q1 0 clueweb09-en0000-${i * 7919 % 100003} ${i % 5}\n`);
  }
  const r = { text: lines.join(""), chunkBytes: 1 << 18, release: "9.0.8" as const, skip: false };
  const fast = await readQrels({ ...r, wasm: true });
  assert(fast.state && fast.state.chunks.length > 1);
  assertEquals(fast, await readQrels({ ...r, wasm: false }));
});

Deno.test("a docno of more than 65,535 bytes is refused with the fast path as without it", async () => {
  for (const len of [65535, 65536, 70000]) {
    const text = `q1 0 d1 1\nq1 0 ${"x".repeat(len)} 2\nq1 0 d2 0\n`;
    const r = { text, chunkBytes: 1 << 18, release: "9.0.8" as const, skip: false };
    const fast = await readQrels({ ...r, wasm: true });
    assertEquals(fast, await readQrels({ ...r, wasm: false }));
    assertEquals(fast.error !== undefined, len > 65535, `${len}: ${fast.error}`);
  }
});

Deno.test("the fast path ranks a block as rankInto does", async () => {
  // Blocks in score order with ties (and some not), docnos sharing prefixes of 0-20 bytes,
  // bytes above 0x7f (compared unsigned), tie groups of up to 20 rows (more than 16: left to
  // JavaScript).
  const doc = fc.tuple(
    fc.constantFrom("", "d", "doc-0000000", "clueweb09-en0000-00-", "é"),
    fc.stringMatching(/^[a-z0-9_]{0,10}$/),
    fc.constantFrom("", "", "x", "\u00ff", "a".repeat(9)),
  ).map(([p, s, t]) => p + s + t || "z");
  const block = fc.tuple(
    fc.array(fc.tuple(doc, fc.integer({ min: 0, max: 4 })), { minLength: 1, maxLength: 60 }),
    fc.boolean(),
  ).map(([rows, sorted]) => {
    const scores = rows.map(([, s]) => s);
    if (sorted) scores.sort((a, b) => b - a);
    return rows.map(([d], i) => [d, scores[i]] as const);
  });
  let fast = 0;
  await fc.assert(
    fc.asyncProperty(fc.array(block, { minLength: 1, maxLength: 8 }), async (blocks) => {
      const text = blocks.map((rows, q) =>
        rows.map(([d, s], r) => `q${q} Q0 ${d} ${r + 1} ${s} run\n`).join("")
      ).join("");
      const bytes = new TextEncoder().encode(text);
      for await (const chunk of runBlockChunks({ name: "run", bytes })) {
        for (const b of chunk) {
          const want = new Int32Array(b.count);
          rankInto(b, want, 0);
          if (b.wasm!.rankTies(b.first, b.count)) {
            fast++;
            assertEquals([...b.wasm!.order().subarray(0, b.count)], [...want]);
          }
        }
      }
    }),
    { numRuns: 300 },
  );
  assert(fast > 100, `the fast path ranked ${fast} blocks`);
});
