/**
 * The jacana case on the real TREC-QA TEST.xml: the intact file gives 100 questions,
 * 1517 candidates and 284 positives; deleting a `</positive>`, turning it into `</negative>`,
 * or turning a `</negative>` into `</positive>` (every 12th of each, about 130 edits) must be
 * an error on the line of the first tag that no longer fits, never 1516 candidates and 283
 * positives.
 */
import { assert, assertEquals } from "../assert.ts";
import { readJacanaXml } from "../../lib/data/mod.ts";
import { KitError } from "../../lib/errors.ts";
import { realDataTest } from "../helpers.ts";

const enc = new TextEncoder();

async function read(lines: string[]) {
  return await readJacanaXml({ name: "TEST.xml", bytes: enc.encode(lines.join("\n")) });
}

/** The 1-based line of the next jacana tag after `i` (0-based), where the error must be. */
function nextTagLine(lines: string[], i: number): number {
  for (let j = i; j < lines.length; j++) {
    if (/^\s*<\/?(QApairs|question|positive|negative)\b/.test(lines[j])) return j + 1;
  }
  return -1;
}

realDataTest(
  "real TEST.xml: every 12th closing tag lost or swapped is an error on its line",
  "trecqa",
  async (dir) => {
    const lines = (await Deno.readTextFile(`${dir}/trecqa/jacana-xml/TEST.xml`)).split("\n");
    const intact = await read(lines);
    assertEquals(intact.length, 100);
    assertEquals(intact.reduce((n, q) => n + q.candidates.length, 0), 1517);
    assertEquals(
      intact.reduce((n, q) => n + q.candidates.filter((c) => c.label === 1).length, 0),
      284,
    );

    const at = (tag: string) => lines.flatMap((l, i) => l.trim() === tag ? [i] : []);
    const positives = at("</positive>");
    const negatives = at("</negative>");
    assertEquals([positives.length, negatives.length], [284, 1233]);
    let tried = 0;
    const expectError = async (edited: string[], line: number, says: RegExp, what: string) => {
      tried++;
      try {
        const qs = await read(edited);
        const n = qs.reduce((k, q) => k + q.candidates.length, 0);
        throw new Error(`${what}: read without an error (${n} candidates)`);
      } catch (e) {
        assert(e instanceof KitError, `${what}: ${e}`);
        assertEquals(e.line, line, `${what}: ${e.message}`);
        assert(says.test(e.message), `${what}: ${e.message}`);
      }
    };
    for (const i of positives.filter((_, k) => k % 12 === 0)) {
      const deleted = lines.filter((_, j) => j !== i);
      await expectError(
        deleted,
        nextTagLine(deleted, i),
        /inside the <positive> block|does not close the <positive> block/,
        `</positive> on line ${i + 1} deleted`,
      );
      const swapped = lines.map((l, j) => j === i ? "</negative>" : l);
      await expectError(
        swapped,
        i + 1,
        /<\/negative> does not close the <positive> block/,
        `</positive> on line ${i + 1} -> </negative>`,
      );
    }
    for (const i of negatives.filter((_, k) => k % 12 === 0)) {
      const swapped = lines.map((l, j) => j === i ? "</positive>" : l);
      await expectError(
        swapped,
        i + 1,
        /<\/positive> does not close the <negative> block/,
        `</negative> on line ${i + 1} -> </positive>`,
      );
    }
    assert(tried > 120, `only ${tried} edits tried`);
  },
);
