/**
 * Standard output closed before the command writes (`cmd | true`: the reader is gone by the
 * time the kit has started), for every command that writes to standard output, and `| head
 * -1` as users type it.
 *
 * @module
 */
import { assert, assertEquals } from "../../assert.ts";
import { ARGS, type Ctx, errorLine, SAMPLE, type Scenario } from "./kit.ts";

const Q = SAMPLE.qrels;
const R = SAMPLE.run;

/** Every command that writes standard output, with arguments that make it write. */
const COMMANDS: [string, string[]][] = [
  ["eval trec -q", ["eval", "trec", "-q", Q, R]],
  ["eval trec -q BIG.qrels BIG.run | head -1", ["eval", "trec", "-q", "BIG.qrels", "BIG.run"]],
  ["eval as2 -q", ARGS.as2("test", R, "-q")],
  ["eval compare", ARGS.compare()],
  ["eval ties -q", ["eval", "ties", "-q", Q, R]],
  ["eval stability", ["eval", "stability", "--qrels", Q, R, R]],
  ["eval qrcd", ["eval", "qrcd", "dev", "QRCD_RUN", "--dir", "samples"]],
  ["eval qrcd-check", ["eval", "qrcd-check", "QRCD_RUN"]],
  ["data stats", ["data", "stats", "wikiqa", "--dir", "samples"]],
  ["data qrels (no --out)", ARGS.qrels("test")],
  ["eval qrcd-baseline --out /dev/stdout", ARGS.baseline("/dev/stdout")],
  ["convert run BIG.run - | head -1", ["convert", "run", "BIG.run", "-"]],
  ["--help", ["--help"]],
];

async function qrcdRun(ctx: Ctx): Promise<string> {
  const path = `${ctx.dir}/team_run01.json`;
  const r = await ctx.kit(ARGS.baseline(path));
  assertEquals(r.code, 0, r.stderr);
  return path;
}

/** 3,000 queries: a per-query output of about 1 MB, far more than a pipe holds. */
async function bigFiles(ctx: Ctx): Promise<void> {
  const qrels: string[] = [];
  const run: string[] = [];
  for (let q = 0; q < 3000; q++) {
    for (let d = 0; d < 5; d++) {
      qrels.push(`q${q} 0 d${d} ${d % 2}`);
      run.push(`q${q} Q0 d${d} ${d + 1} ${5 - d} big`);
    }
  }
  await Deno.writeTextFile(`${ctx.dir}/BIG.qrels`, qrels.join("\n") + "\n");
  await Deno.writeTextFile(`${ctx.dir}/BIG.run`, run.join("\n") + "\n");
}

function quote(args: string[]): string {
  return args.map((a) => `'${a}'`).join(" ");
}

/** Standard output that fails rather than closes: a full device behind it. */
const FULL: Scenario[] = [
  ["eval trec -q QRELS RUN > /dev/full", ["eval", "trec", "-q", Q, R]],
  ["data stats wikiqa > /dev/full", ["data", "stats", "wikiqa", "--dir", "samples"]],
].map(([name, argv]) => ({
  cls: "stdout" as const,
  tried: `\`${name}\` (standard output fails: no space)`,
  async run(ctx: Ctx) {
    const r = await ctx.sh(`$KIT ${quote(argv as string[])} > /dev/full`);
    assertEquals(r.code, 2, r.stderr);
    return `exit 2: \`${errorLine(r)}\``;
  },
}));

/** The closed-stdout scenarios. */
export const STDOUT_SCENARIOS: Scenario[] = [
  ...COMMANDS.map(([name, argv]) => ({
    cls: "stdout" as const,
    tried: name.includes("head -1") ? `\`${name}\`` : `\`${name} | true\``,
    async run(ctx: Ctx) {
      const args = argv.includes("QRCD_RUN")
        ? argv.map((a) => a === "QRCD_RUN" ? "QRCD" : a)
        : argv;
      const run = args.includes("QRCD") ? await qrcdRun(ctx) : "";
      if (args.includes("BIG.run")) await bigFiles(ctx);
      const line = quote(args.map((a) => a === "QRCD" ? run : a));
      const reader = name.includes("head -1") ? "head -1 > /dev/null" : "true";
      const r = await ctx.sh(`$KIT ${line} 2> err | ${reader}; echo "\${PIPESTATUS[0]}"`);
      const err = await Deno.readTextFile(`${ctx.dir}/err`);
      assertEquals(r.stdout.trim(), "0", `exit status ${r.stdout.trim()}; stderr:\n${err}`);
      assert(!/^\s+at |BrokenPipe|^error: /m.test(err), `a stack trace or error:\n${err}`);
      return "exit 0, nothing on stderr but the command's usual notes";
    },
  })),
  ...FULL,
];
