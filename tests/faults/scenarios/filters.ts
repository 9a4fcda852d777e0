/**
 * The filter default: one rule for every command (the protocol's: clean for dev and test,
 * no-all for training splits), said on stderr, and the same output as the explicit flag.
 *
 * @module
 */
import { assert, assertEquals } from "../../assert.ts";
import { ARGS, type Ctx, errorLine, type Run, SAMPLE, type Scenario, succeeded } from "./kit.ts";

function said(r: Run): string {
  const line = r.stderr.split("\n").find((l) => l.includes("(the protocol's for"));
  assert(line, `the filter used is not said:\n${r.stderr}`);
  return line;
}

/** Runs `argv` without `--filter` and with `--filter want`; both must agree. */
async function sameAsExplicit(ctx: Ctx, argv: string[], want: string): Promise<string> {
  const dflt = await ctx.kit(argv);
  succeeded(dflt);
  const line = said(dflt);
  assert(line.includes(`filter ${want} `), line);
  const explicit = await ctx.kit([...argv, "--filter", want]);
  succeeded(explicit);
  assertEquals(dflt.stdout, explicit.stdout, "the default must equal the explicit filter");
  return `${want}, the same output as \`--filter ${want}\`; stderr: \`${line}\``;
}

/** The filter scenarios. */
export const FILTER_SCENARIOS: Scenario[] = [
  {
    cls: "filters",
    tried: "`data qrels wikiqa --split test` without `--filter`",
    run: (ctx) =>
      sameAsExplicit(
        ctx,
        ARGS.qrels("test"),
        "clean",
      ),
  },
  {
    cls: "filters",
    tried: "`data qrels wikiqa --split train` without `--filter`",
    run: (ctx) =>
      sameAsExplicit(
        ctx,
        ARGS.qrels("train"),
        "no-all",
      ),
  },
  {
    cls: "filters",
    tried: "`eval as2 --split test RUN` without `--filter`",
    run: (ctx) => sameAsExplicit(ctx, ARGS.as2("test", SAMPLE.run), "clean"),
  },
  {
    cls: "filters",
    tried: "`eval as2 --split train RUN` without `--filter`",
    async run(ctx) {
      const score = await ctx.kit(ARGS.score("train", "train.run", ["--filter", "raw"]));
      succeeded(score);
      return await sameAsExplicit(ctx, ARGS.as2("train", "train.run"), "no-all");
    },
  },
  {
    cls: "filters",
    tried: "`score --split dev` without `--filter`",
    async run(ctx) {
      const argv = (out: string) => ARGS.score("dev", out);
      const r = await ctx.kit(argv("a.run"));
      succeeded(r);
      const line = said(r);
      assert(line.includes("filter clean "), line);
      succeeded(await ctx.kit([...argv("b.run"), "--filter", "clean"]));
      assertEquals(
        await Deno.readTextFile(`${ctx.dir}/a.run`),
        await Deno.readTextFile(`${ctx.dir}/b.run`),
      );
      return `clean, the same run as \`--filter clean\`; stderr: \`${line}\``;
    },
  },
  {
    cls: "filters",
    tried: "`data stats trecqa` without `--filter` (every split)",
    async run(ctx) {
      const r = await ctx.kit(["data", "stats", "trecqa", "--dir", "samples"]);
      succeeded(r);
      const lines = r.stderr.split("\n").filter((l) => /^[\w-]+: (raw|no-all|clean):/.test(l));
      assertEquals(lines.map((l) => l.split(":").slice(0, 2).join(":")), [
        "train-all: no-all",
        "train: no-all",
        "dev: clean",
        "test: clean",
      ]);
      return "each split with its protocol filter, named on stderr (`train-all: no-all`, " +
        "`train: no-all`, `dev: clean`, `test: clean`)";
    },
  },
  {
    cls: "filters",
    tried: "`data qrels --split test --filter raw` (explicit)",
    async run(ctx) {
      const r = await ctx.kit(ARGS.qrels("test", "--filter", "raw"));
      succeeded(r);
      assert(r.stderr.startsWith("raw: kept"), r.stderr);
      return "raw, and stderr says `raw: kept ... questions`";
    },
  },
  {
    cls: "filters",
    tried: "`--filter bogus`",
    async run(ctx) {
      const r = await ctx.kit(ARGS.qrels("test", "--filter", "bogus"));
      assertEquals(r.code, 2);
      return `exit 2: \`${errorLine(r)}\``;
    },
  },
];
