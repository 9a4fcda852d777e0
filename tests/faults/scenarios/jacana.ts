/**
 * TREC-QA jacana XML with malformed tags. Each case changes the clean file of the bad-input
 * matrix (two questions: a question, a positive and a negative, then a question and a
 * positive) and must be an error on the given line, never a file read with candidates merged.
 *
 * @module
 */
import { assert, assertEquals } from "../../assert.ts";
import { readJacanaXml } from "../../../lib/data/mod.ts";
import { KitError } from "../../../lib/errors.ts";
import { READERS } from "../matrix.ts";
import { refused, SAMPLE, type Scenario } from "./kit.ts";

const CLEAN: string[] = READERS.find((r) => r.title === "TREC-QA jacana XML")!.lines;
const enc = new TextEncoder();

/** An edit of the clean lines: replace, delete or insert before 0-based indices. */
type Edit = { at: number; replace?: string; delete?: true; insert?: string[] };

function edited(edits: Edit[]): string[] {
  const out = [...CLEAN];
  // From the end, so earlier indices stay valid.
  for (const e of [...edits].sort((a, b) => b.at - a.at)) {
    if (e.replace !== undefined) out[e.at] = e.replace;
    else if (e.delete) out.splice(e.at, 1);
    else out.splice(e.at, 0, ...e.insert!);
  }
  return out;
}

async function parse(lines: string[], name = "DEV.xml") {
  return await readJacanaXml({ name, bytes: enc.encode(lines.join("\n") + "\n") });
}

function tagCase(tried: string, edits: Edit[], line: number, says: RegExp): Scenario {
  return {
    cls: "jacana",
    tried,
    async run() {
      let questions: unknown;
      try {
        questions = await parse(edited(edits));
      } catch (e) {
        assert(e instanceof KitError, `not a KitError: ${e}`);
        assertEquals(e.line, line, e.message);
        assert(says.test(e.message), `'${e.message}' does not match ${says}`);
        return `\`${e.message}\``;
      }
      throw new Error(`read without an error: ${JSON.stringify(questions)}`);
    },
  };
}

const ANNOTATION = "x\tx\tx";

/** The malformed-tag scenarios. */
export const JACANA_SCENARIOS: Scenario[] = [
  tagCase(
    "a `</positive>` deleted (the issue's case)",
    [{ at: 14, delete: true }],
    15,
    /<negative> inside the <positive> block opened on line 9 \(expected <\/positive> first\)/,
  ),
  tagCase(
    "a `</positive>` turned into `</negative>` (the issue's case)",
    [{ at: 14, replace: "</negative>" }],
    15,
    /<\/negative> does not close the <positive> block opened on line 9/,
  ),
  tagCase(
    "`</positive>` and the next `<negative>` both deleted (blocks merge, tags pair up)",
    [{ at: 14, delete: true }, { at: 15, delete: true }],
    20,
    /<\/negative> does not close the <positive> block/,
  ),
  tagCase(
    "a `</negative>` turned into `</positive>`",
    [{ at: 21, replace: "</positive>" }],
    22,
    /<\/positive> does not close the <negative> block opened on line 16/,
  ),
  tagCase(
    "a `</question>` deleted",
    [{ at: 7, delete: true }],
    8,
    /<positive> inside the <question> block opened on line 2/,
  ),
  tagCase(
    "an opening `<negative>` deleted",
    [{ at: 15, delete: true }],
    16,
    /unexpected line 'It\tis\told' \(expected a jacana tag\)/,
  ),
  tagCase(
    "an extra `<negative>` nested in a `<positive>`",
    [{ at: 10, insert: ["<negative>"] }],
    11,
    /<negative> inside the <positive> block/,
  ),
  tagCase(
    "`</QApairs>` inside a block",
    [{ at: 10, insert: ["</QApairs>"] }],
    11,
    /<\/QApairs> does not close the <positive> block/,
  ),
  tagCase(
    "a `<QApairs>` inside a block",
    [{ at: 10, insert: ["<QApairs id='9'>"] }],
    11,
    /<QApairs> inside the <positive> block/,
  ),
  tagCase(
    "a stray `</positive>` between blocks",
    [{ at: 15, insert: ["</positive>"] }],
    16,
    /<\/positive> closes nothing: no <positive> block is open/,
  ),
  tagCase(
    "a stray `</QApairs>` before any `<QApairs>`",
    [{ at: 0, insert: ["</QApairs>"] }],
    1,
    /<\/QApairs> without an open <QApairs>/,
  ),
  tagCase(
    "an unknown tag (`<neutral>` ... `</neutral>`)",
    [{ at: 15, replace: "<neutral>" }, { at: 21, replace: "</neutral>" }],
    16,
    /unknown tag <neutral>/,
  ),
  tagCase(
    "a tag in another case (`<Positive>`)",
    [{ at: 8, replace: "<Positive>" }],
    9,
    /unknown tag <Positive>/,
  ),
  tagCase(
    "a tag with an attribute (`<positive id='x'>`)",
    [{ at: 8, replace: "<positive id='x'>" }],
    9,
    /expected <positive> without attributes/,
  ),
  tagCase(
    "a `<QApairs>` left open (the next one opens)",
    [{ at: 22, delete: true }],
    23,
    /<QApairs> opened before the previous one \(line 1\) was closed/,
  ),
  tagCase(
    "a `<QApairs>` left open at the end of the file",
    [{ at: 38, delete: true }],
    24,
    /unclosed <QApairs id='1\.2'>: the file ends before <\/QApairs>/,
  ),
  tagCase(
    "a block left open at the end of the file",
    [{ at: 37, delete: true }, { at: 38, delete: true }],
    32,
    /unclosed <positive> block: the file ends before <\/positive>/,
  ),
  tagCase(
    '`<QApairs id="1.1">` (double quotes)',
    [{ at: 0, replace: '<QApairs id="1.1">' }],
    1,
    /expected <QApairs id='\.\.\.'>/,
  ),
  tagCase(
    "`<QApairs>` without an id",
    [{ at: 0, replace: "<QApairs>" }],
    1,
    /expected <QApairs id='\.\.\.'>/,
  ),
  tagCase(
    "a block outside any `<QApairs>`",
    [{ at: 0, delete: true }],
    1,
    /<question> outside <QApairs>/,
  ),
  tagCase(
    "a second `<question>` in one `<QApairs>`",
    [{ at: 15, replace: "<question>" }, { at: 21, replace: "</question>" }],
    16,
    /a second <question> in QApairs 1\.1 \(the first is on line 2\)/,
  ),
  tagCase(
    "a candidate before the question",
    [{ at: 24, replace: "<positive>" }, { at: 30, replace: "</positive>" }],
    25,
    /<positive> before the <question> of QApairs 1\.2/,
  ),
  tagCase(
    "a `<negative>` block with a sixth line",
    [{ at: 18, insert: [ANNOTATION] }],
    23,
    /<negative> block has 6 lines, expected 5/,
  ),
  tagCase(
    "an empty `<negative></negative>` block",
    [{ at: 16, delete: true }, { at: 17, delete: true }, { at: 18, delete: true }, {
      at: 19,
      delete: true,
    }, { at: 20, delete: true }],
    17,
    /<negative> block has 0 lines, expected 5/,
  ),
  tagCase(
    "a `<positive>` with 6 lines (answer tokens without their positions)",
    [{ at: 14, insert: ["Jane\tDoe"] }],
    16,
    /<positive> block has 6 lines, expected 5 or 7/,
  ),
  tagCase(
    "a `<positive>` whose answer positions do not match its answer tokens",
    [{ at: 14, insert: ["Jane\tDoe", "1"] }],
    16,
    /expected 2 tab-separated answer positions/,
  ),
  {
    cls: "jacana",
    tried: "indented tags and CRLF line ends (neighbours that must still read)",
    async run() {
      const clean = await parse(CLEAN);
      const indented = CLEAN.map((l) => l.startsWith("<") ? `  ${l}` : l);
      assertEquals(await parse(indented), clean);
      const crlf = await readJacanaXml({
        name: "DEV.xml",
        bytes: enc.encode(CLEAN.join("\r\n") + "\r\n"),
      });
      assertEquals(crlf, clean);
      return "read, the same questions and candidates as the clean file";
    },
  },
  {
    cls: "jacana",
    tried: "`data stats trecqa --split dev --dir COPY`, the samples' `DEV.xml` with a " +
      "`</positive>` deleted",
    async run(ctx) {
      await Deno.mkdir(`${ctx.dir}/copy/trecqa/jacana-xml`, { recursive: true });
      const text = await Deno.readTextFile(SAMPLE.jacanaDev);
      await Deno.writeTextFile(
        `${ctx.dir}/copy/trecqa/jacana-xml/DEV.xml`,
        text.replace("</positive>", ""),
      );
      const r = await ctx.kit(["data", "stats", "trecqa", "--split", "dev", "--dir", "copy"]);
      return refused(
        r,
        "copy/trecqa/jacana-xml/DEV.xml",
        /inside the <positive> block opened on line \d+/,
      );
    },
  },
];
