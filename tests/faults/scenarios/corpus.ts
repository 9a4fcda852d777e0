/**
 * A fetched corpus changed after installation. Each scenario installs the real corpus into
 * its own folder (`data fetch --mirror` from the fetched cache), changes it as a user or a
 * tool might, and runs the commands that read it.
 *
 * @module
 */
import { assert, assertEquals } from "../../assert.ts";
import { ARGS, type Ctx, readOr, refused, type Run, type Scenario, succeeded } from "./kit.ts";

async function install(ctx: Ctx, dataset: string, dir = "cache"): Promise<void> {
  succeeded(await ctx.kit(ARGS.fetch(dataset, ctx.corpora, dir)));
}

/** MAP and MRR of `run` on WikiQA test (clean) read from `dir`, via `eval as2 --json`. */
async function as2(ctx: Ctx, run: string, dir = "cache", dataset = "wikiqa"): Promise<Run> {
  return await ctx.kit([
    "eval",
    "as2",
    "--dataset",
    dataset,
    "--split",
    "test",
    "--dir",
    dir,
    "--json",
    run,
  ]);
}

function map(r: Run): string {
  succeeded(r, "eval as2");
  return (JSON.parse(r.stdout) as { map: number }).map.toFixed(4);
}

/**
 * Installs WikiQA and writes a run of its test split (`wc.run`): each candidate scored by the
 * words it shares with its question (a Word Cnt without stop words, computed here so the
 * scenario does not wait for `score`); returns its MAP.
 */
async function wikiqaWithRun(ctx: Ctx): Promise<string> {
  await install(ctx, "wikiqa");
  const rows = (await Deno.readTextFile(`${ctx.dir}/${TEST_TSV}`)).split("\n").slice(1);
  const words = (s: string) => new Set(s.toLowerCase().split(/\W+/).filter(Boolean));
  const lines: string[] = [];
  for (const row of rows) {
    const f = row.split("\t");
    if (f.length !== 7) continue;
    const q = words(f[1]);
    const shared = [...words(f[5])].filter((w) => q.has(w)).length;
    lines.push(`${f[0]} Q0 ${f[4]} 0 ${shared} wc`);
  }
  await Deno.writeTextFile(`${ctx.dir}/wc.run`, lines.join("\n") + "\n");
  return map(await as2(ctx, "wc.run"));
}

/**
 * Changes one label, keeping the file's size: the only correct answer of the first question
 * with one correct and several wrong answers becomes wrong, so the question leaves the clean
 * split (as in the issue: a number moves and nothing says why).
 */
async function flipOneLabel(path: string): Promise<string> {
  const lines = (await Deno.readTextFile(path)).split("\n");
  const byQuestion = new Map<string, number[]>();
  lines.forEach((l, i) => {
    const f = l.split("\t");
    if (i > 0 && f.length === 7) byQuestion.set(f[0], [...(byQuestion.get(f[0]) ?? []), i]);
  });
  for (const [qid, rows] of byQuestion) {
    const labels = rows.map((i) => lines[i].split("\t")[6]);
    if (labels.filter((l) => l === "1").length === 1 && labels.length >= 3) {
      const i = rows[labels.indexOf("1")];
      lines[i] = lines[i].replace(/\t1$/, "\t0");
      await Deno.writeTextFile(path, lines.join("\n"));
      return `${qid}, line ${i + 1}`;
    }
  }
  throw new Error("no question to change a label in");
}

const TEST_TSV = "cache/wikiqa/WikiQA-test.tsv";

/** The corpus scenarios. */
export const CORPUS_SCENARIOS: Scenario[] = [
  {
    cls: "corpus",
    tried: "one label of the installed `WikiQA-test.tsv` changed (1 to 0, same size), then " +
      "`eval as2`; the same edit in a folder of the user's own; then `data fetch` to restore",
    needs: ["corpora"],
    async run(ctx) {
      const before = await wikiqaWithRun(ctx);
      const where = await flipOneLabel(`${ctx.dir}/${TEST_TSV}`);
      const doc = refused(
        await as2(ctx, "wc.run"),
        TEST_TSV,
        /changed after it was installed.*same size.*deno task data fetch wikiqa --dir cache/,
      );
      // An edited copy of the user's own (no install marker) is read, and the number moves.
      await Deno.mkdir(`${ctx.dir}/mine/wikiqa`, { recursive: true });
      await Deno.copyFile(`${ctx.dir}/${TEST_TSV}`, `${ctx.dir}/mine/wikiqa/WikiQA-test.tsv`);
      const edited = map(await as2(ctx, "wc.run", "mine"));
      assert(edited !== before, `the flip (${where}) did not move MAP`);
      const restore = await ctx.kit(ARGS.fetch("wikiqa", ctx.corpora, "cache"));
      succeeded(restore);
      assert(restore.stderr.includes("installed wikiqa/WikiQA-test.tsv"), restore.stderr);
      assertEquals(map(await as2(ctx, "wc.run")), before);
      return `${doc}; the edited copy in a folder of its own is read (MAP of a word-overlap run ${before} ` +
        `-> ${edited}); \`data fetch\` reinstalls that file and MAP is ${before} again`;
    },
  },
  {
    cls: "corpus",
    tried: "the installed `WikiQA-test.tsv` cut short by its last line",
    needs: ["corpora"],
    async run(ctx) {
      await install(ctx, "wikiqa");
      const text = await Deno.readTextFile(`${ctx.dir}/${TEST_TSV}`);
      await Deno.writeTextFile(
        `${ctx.dir}/${TEST_TSV}`,
        text.slice(0, text.lastIndexOf("\n", text.length - 2) + 1),
      );
      const r = await ctx.kit(["data", "qrels", "wikiqa", "--split", "test", "--dir", "cache"]);
      return refused(r, TEST_TSV, /changed after it was installed.*bytes, installed/);
    },
  },
  {
    cls: "corpus",
    tried: "an installed file deleted (`WikiQA-dev.tsv`), then `data stats --split test`",
    needs: ["corpora"],
    async run(ctx) {
      await install(ctx, "wikiqa");
      await Deno.remove(`${ctx.dir}/cache/wikiqa/WikiQA-dev.tsv`);
      const r = await ctx.kit(["data", "stats", "wikiqa", "--split", "test", "--dir", "cache"]);
      return refused(
        r,
        "cache/wikiqa/WikiQA-dev.tsv",
        /is missing: it belongs to the installed wikiqa corpus/,
      );
    },
  },
  {
    cls: "corpus",
    tried: "the installed `WikiQA-test.tsv` only touched (new time, same content)",
    needs: ["corpora"],
    async run(ctx) {
      const before = await wikiqaWithRun(ctx);
      const later = new Date(Date.now() + 60_000);
      await Deno.utime(`${ctx.dir}/${TEST_TSV}`, later, later);
      const r = await as2(ctx, "wc.run");
      assertEquals(map(r), before);
      const note = r.stderr.split("\n").find((l) => l.startsWith("note:"));
      assert(note?.includes("content is the pinned one"), r.stderr);
      return `read (hashed once: same sha256), MAP unchanged (${before}), with a note`;
    },
  },
  {
    cls: "corpus",
    tried: "the install marker `.installed.json` damaged (cut in half)",
    needs: ["corpora"],
    async run(ctx) {
      await install(ctx, "wikiqa");
      const marker = `${ctx.dir}/cache/wikiqa/.installed.json`;
      const text = await Deno.readTextFile(marker);
      await Deno.writeTextFile(marker, text.slice(0, text.length / 2));
      const r = await ctx.kit(["data", "qrels", "wikiqa", "--split", "test", "--dir", "cache"]);
      return refused(r, "cache/wikiqa/.installed.json", /install marker is damaged/);
    },
  },
  {
    cls: "corpus",
    tried: "the default cache (`QA_KIT_DATA_DIR`) with a label changed: the message names " +
      "the plain command",
    needs: ["corpora"],
    async run(ctx) {
      await install(ctx, "wikiqa");
      await flipOneLabel(`${ctx.dir}/${TEST_TSV}`);
      const r = await ctx.kit(["data", "qrels", "wikiqa", "--split", "test"], {
        env: { QA_KIT_DATA_DIR: `${ctx.dir}/cache` },
      });
      assertEquals(r.code, 2, r.stderr);
      assert(/restore it with 'deno task data fetch wikiqa'/.test(r.stderr), r.stderr);
      return "exit 2, `... restore it with 'deno task data fetch wikiqa' (offline: add " +
        "--mirror DIR); ...`";
    },
  },
  {
    cls: "corpus",
    tried: "TREC-QA: a `</positive>` deleted from the installed `TEST.xml`; the same file " +
      "in a folder of the user's own",
    needs: ["corpora"],
    async run(ctx) {
      await install(ctx, "trecqa");
      const path = `${ctx.dir}/cache/trecqa/jacana-xml/TEST.xml`;
      const text = await Deno.readTextFile(path);
      await Deno.writeTextFile(path, text.replace("</positive>\n", ""));
      const args = ["data", "stats", "trecqa", "--split", "test", "--dir"];
      const doc = refused(
        await ctx.kit([...args, "cache"]),
        "cache/trecqa/jacana-xml/TEST.xml",
        /changed after it was installed/,
      );
      await Deno.mkdir(`${ctx.dir}/mine/trecqa/jacana-xml`, { recursive: true });
      await Deno.copyFile(path, `${ctx.dir}/mine/trecqa/jacana-xml/TEST.xml`);
      const own = refused(
        await ctx.kit([...args, "mine"]),
        "mine/trecqa/jacana-xml/TEST.xml",
        /<(positive|negative)> inside the <positive> block opened on line \d+/,
      );
      return `${doc}; own copy: ${own}`;
    },
  },
  {
    cls: "corpus",
    tried: "QRCD: one character of the installed dev file changed, then `eval qrcd dev RUN`",
    needs: ["corpora"],
    async run(ctx) {
      await install(ctx, "qrcd");
      const baseline = await ctx.kit([
        "eval",
        "qrcd-baseline",
        "--split",
        "dev",
        "--dir",
        "cache",
        "--out",
        "team_run01.json",
      ]);
      succeeded(baseline);
      const path = `${ctx.dir}/cache/qrcd/qrcd_v1.1_dev.jsonl`;
      const text = await Deno.readTextFile(path);
      await Deno.writeTextFile(path, text.replace('"start_char": 1', '"start_char": 2'));
      assert((await readOr(path)) !== text, "the edit did not change the file");
      const r = await ctx.kit(["eval", "qrcd", "dev", "team_run01.json", "--dir", "cache"]);
      return refused(r, "cache/qrcd/qrcd_v1.1_dev.jsonl", /changed after it was installed/);
    },
  },
];
