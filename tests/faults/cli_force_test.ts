/**
 * Every CLI command that writes a file refuses to replace an existing one without `--force`
 * (exit status 2, one line naming the file, the file unchanged) and replaces it with
 * `--force`. Commands run in-process through `main`, as the command line runs them.
 */
import { assert, assertEquals } from "../assert.ts";
import { commandList, main } from "../../lib/cli/main.ts";
import type { Command } from "../../lib/cli/command.ts";
import { scoreCommand } from "../../lib/cli/score.ts";
import { KitError } from "../../lib/errors.ts";
import { readQrels, readRun } from "../../lib/metrics/mod.ts";
import { readSpanRun } from "../../lib/qrcd/mod.ts";

const SAMPLE_QRELS = "data/samples/runs/wikiqa-test-clean.qrels";
const SAMPLE_RUN = "data/samples/runs/wikiqa-test.run";
const PRECIOUS = "the user's own file, not to be lost\n";

/** Runs argv through `main` (or one command) with stdout/stderr captured. */
async function cli(argv: string[], cmd?: Command) {
  const out: string[] = [], err: string[] = [];
  const [log, error, warn] = [console.log, console.error, console.warn];
  console.log = (...a: unknown[]) => out.push(a.join(" "));
  console.error = (...a: unknown[]) => err.push(a.join(" "));
  console.warn = (...a: unknown[]) => err.push(a.join(" "));
  try {
    let code: number;
    if (cmd) {
      try {
        code = (await cmd.run(argv)) ?? 0;
      } catch (e) {
        if (!(e instanceof KitError)) throw e;
        err.push(`error: ${e.message}`);
        code = 2;
      }
    } else code = await main(argv);
    return { code, out: out.join("\n"), err: err.join("\n") };
  } finally {
    [console.log, console.error, console.warn] = [log, error, warn];
  }
}

/** The writing commands, each with its arguments for an output path and a reader for it. */
const WRITERS: {
  name: string;
  argv: (out: string) => string[];
  cmd?: Command;
  check: (out: string) => Promise<void>;
}[] = [
  {
    name: "data qrels",
    argv: (out) => ["data", "qrels", "wikiqa", "--split", "dev", "--dir", "samples", "--out", out],
    check: async (out) => assert((await readQrels(out)).size > 0),
  },
  {
    name: "eval qrcd-baseline",
    argv: (out) => ["eval", "qrcd-baseline", "--split", "dev", "--dir", "samples", "--out", out],
    check: async (out) => assert((await readSpanRun(out)).run.size > 0),
  },
  {
    name: "eval compare",
    argv: (out) => [
      "eval",
      "compare",
      "--qrels",
      SAMPLE_QRELS,
      SAMPLE_RUN,
      SAMPLE_RUN,
      "--name",
      "a",
      "--name",
      "b",
      "--trials",
      "50",
      "--seed",
      "1",
      "--out",
      out,
    ],
    check: async (out) => assert((await Deno.readTextFile(out)).includes("| a")),
  },
  {
    name: "score",
    cmd: scoreCommand,
    argv: (out) => [
      "--model",
      "lexical:wordcnt",
      "--dataset",
      "wikiqa",
      "--split",
      "dev",
      "--dir",
      "samples",
      "--no-cache",
      "--out",
      out,
    ],
    check: async (out) => assert((await readRun(out)).size > 0),
  },
  {
    name: "fuse",
    argv: (out) => {
      const run = new URL(`../../${SAMPLE_RUN}`, import.meta.url).pathname;
      return ["fuse", run, run, "--method", "combsum", "--out", out];
    },
    check: async (out) => assert((await readRun(out)).size > 0),
  },
];

for (const w of WRITERS) {
  Deno.test(`${w.name} --out: refuses an existing file without --force, replaces it with`, async () => {
    const dir = await Deno.makeTempDir();
    const out = `${dir}/${w.name === "eval qrcd-baseline" ? "kit_base.json" : "out.txt"}`;
    await Deno.writeTextFile(out, PRECIOUS);
    const refused = await cli(w.argv(out), w.cmd);
    assertEquals(refused.code, 2, refused.err);
    assert(
      refused.err.includes(`${out}`) && /exists|refusing to overwrite/.test(refused.err) &&
        refused.err.includes("--force"),
      refused.err,
    );
    assertEquals(await Deno.readTextFile(out), PRECIOUS);
    const forced = await cli([...w.argv(out), "--force"], w.cmd);
    assertEquals(forced.code, 0, forced.err);
    assert((await Deno.readTextFile(out)) !== PRECIOUS);
    await w.check(out);
    assertEquals([...Deno.readDirSync(dir)].map((e) => e.name), [out.split("/").pop()]);
  });
}

Deno.test("every registered command that takes --out also takes --force", async () => {
  const all = await commandList();
  const takes = (c: Command, flag: string) => c.options.some((o) => o.name === flag);
  const writers = all.filter(([, c]) => takes(c, "out"));
  assert(writers.length >= 4, `found only ${writers.map(([n]) => n)}`);
  for (const [name, c] of writers) assert(takes(c, "force"), `${name} lacks --force`);
  // The table above tests each of them end to end.
  // `report` writes a folder; its refusal is tested below without running the notebooks.
  const tested = new Set([...WRITERS.map((w) => w.name), "report"]);
  for (const [name] of writers) {
    assert(tested.has(name), `${name} writes a file but is not tested here`);
  }
});

Deno.test("report --out refuses a folder the kit did not make, before running anything", async () => {
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(`${dir}/mine.txt`, PRECIOUS);
  const r = await cli(["report", "--out", dir, "--only", "01", "--no-pdf"]);
  assertEquals(r.code, 2);
  assert(r.err.includes("refusing to replace a folder that is not a report"), r.err);
  assertEquals(await Deno.readTextFile(`${dir}/mine.txt`), PRECIOUS);
});

Deno.test("every command module that takes --out checks it before the work (outputFlag)", async () => {
  // One mechanism for outputs: `outputFlag` (lib/cli/args.ts) resolves and checks `--out`
  // (checkOutput) before the command loads, scores or downloads anything. `report` writes a
  // folder, built beside the old one and swapped in; its own check is tested above.
  const dir = new URL("../../lib/cli/", import.meta.url).pathname;
  const missing: string[] = [];
  for (const e of Deno.readDirSync(dir)) {
    if (!e.name.endsWith(".ts") || e.name === "report.ts") continue;
    const text = await Deno.readTextFile(`${dir}${e.name}`);
    if (/\bOUT_OPTION\b/.test(text) && !text.includes("outputFlag(")) {
      missing.push(e.name);
    }
  }
  assertEquals(missing, []);
});

for (const w of WRITERS) {
  Deno.test(`${w.name} --out -: standard output, as in every command, and no file named '-'`, async () => {
    // A process of its own: standard output is the process's, not console.log's.
    const root = new URL("../../", import.meta.url).pathname;
    const dir = await Deno.makeTempDir();
    const argv = (w.cmd ? ["score", ...w.argv("-")] : w.argv("-")).map((a) =>
      a.startsWith("data/") ? `${root}${a}` : a
    );
    const r = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", `${root}lib/cli/main.ts`, ...argv],
      cwd: dir,
      stdout: "piped",
      stderr: "piped",
    }).output();
    assertEquals(r.code, 0, new TextDecoder().decode(r.stderr));
    assertEquals([...Deno.readDirSync(dir)], []);
    const copy = `${dir}/${w.name === "eval qrcd-baseline" ? "kit_base.json" : "out.txt"}`;
    await Deno.writeFile(copy, r.stdout);
    await w.check(copy);
  });
}

Deno.test("only --out writes to standard output: '-' for another output flag is refused", async () => {
  const r = await cli(["--model", "ltr", "--dataset", "wikiqa", "--save-model", "-"], scoreCommand);
  assertEquals(r.code, 2, r.err);
  assert(r.err.includes("--save-model needs a file name"), r.err);
});
