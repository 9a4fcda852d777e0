/**
 * Every command's option table is the single source of its parsing and its help: `--help`
 * prints exactly the text generated from the table and lists every flag and argument, every
 * flag of the table parses (long and short form), an unknown flag is an error naming it, and
 * a flag several commands share is one table entry (same help everywhere).
 */
import { assert, assertEquals } from "../assert.ts";
import { commandList, main } from "../../lib/cli/main.ts";
import { type Command, flagText, helpText, type Option, usageLine } from "../../lib/cli/command.ts";
import {
  COMPLETE_OPTION,
  DIR_OPTION,
  FILTER_OPTION,
  FORCE_OPTION,
  LEVEL_OPTION,
  OUT_OPTION,
  parseFlags,
  RELEASE_OPTION,
  RUN_ID_OPTION,
} from "../../lib/cli/args.ts";
import { UsageError } from "../../lib/cli/grammar.ts";

const COMMANDS = await commandList();

/** Runs argv through `main` in-process, stdout and stderr captured. */
async function cli(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [], err: string[] = [];
  const [log, error] = [console.log, console.error];
  console.log = (...a: unknown[]) => out.push(a.join(" "));
  console.error = (...a: unknown[]) => err.push(a.join(" "));
  try {
    const code = await main(argv);
    return { code, out: out.join("\n"), err: err.join("\n") };
  } finally {
    [console.log, console.error] = [log, error];
  }
}

/** The fewest arguments and flags the command's table requires (but `except`), as placeholders. */
function minimalArgs(cmd: Command, except?: string): string[] {
  const args: string[] = [];
  for (const p of cmd.positionals ?? []) {
    const n = p.repeat ? p.repeat.min : p.optional ? 0 : 1;
    for (let i = 0; i < n; i++) args.push(`${p.name.toLowerCase()}${i}`);
  }
  for (const o of cmd.options) if (o.required && o.name !== except) args.push(`--${o.name}`, "x");
  return args;
}

Deno.test("a group's -h lists its subcommands (exit 0); an unknown subcommand lists them (exit 2)", async () => {
  const groups = new Set(COMMANDS.filter(([p]) => p.includes(" ")).map(([p]) => p.split(" ")[0]));
  assert(groups.size >= 3, `only ${groups.size} groups`);
  for (const group of groups) {
    const subs = COMMANDS.filter(([p]) => p.startsWith(`${group} `));
    for (const flag of ["-h", "--help"]) {
      const r = await cli([group, flag]);
      assertEquals(r.code, 0, `${group} ${flag}`);
      for (const [path, cmd] of subs) {
        assert(r.out.includes(`${path}`) && r.out.includes(cmd.summary), path);
      }
      assertEquals(r.out.split("\n").filter((l) => l.startsWith("  ")).length, subs.length, group);
    }
    const bad = await cli([group, "nosuch"]);
    assertEquals(bad.code, 2);
    assert(bad.err.startsWith(`error: unknown ${group} subcommand 'nosuch'`), bad.err);
    for (const [path] of subs) assert(bad.err.includes(path), path);
  }
});

Deno.test("every command: --help prints the text generated from its table, every flag and argument in it", async () => {
  assert(COMMANDS.length >= 17, `only ${COMMANDS.length} commands`);
  for (const [path, cmd] of COMMANDS) {
    assert(!("usage" in cmd), `${path} keeps a hand-written usage`);
    const r = await cli([...path.split(" "), "--help"]);
    assertEquals(r.code, 0, path);
    assertEquals(r.out, helpText(path, cmd), path);
    const short = await cli([...path.split(" "), "-h"]);
    assertEquals(short.out, r.out, `${path} -h`);
    assert(r.out.startsWith(`${usageLine(path, cmd)}\n\n${cmd.summary}\n`), path);
    for (const o of cmd.options) {
      assert(r.out.includes(`\n  ${flagText(o)}`), `${path}: --${o.name} missing from its help`);
      assert(o.help.trim() !== "", `${path}: --${o.name} has no help`);
    }
    for (const p of cmd.positionals ?? []) {
      assert(r.out.includes(`\n  ${p.name} `), `${path}: ${p.name} missing from its help`);
    }
  }
});

Deno.test("no usage text is written by hand in lib/ (only command.ts generates 'usage: deno task')", async () => {
  const found: string[] = [];
  for (const folder of ["cli", "bench"]) {
    const dir = new URL(`../../lib/${folder}/`, import.meta.url);
    for (const e of Deno.readDirSync(dir)) {
      if (!e.name.endsWith(".ts") || e.name === "command.ts") continue;
      const text = await Deno.readTextFile(new URL(e.name, dir));
      if (/usage: deno task [a-z]|\busage:\s*["`]/.test(text)) {
        found.push(`lib/${folder}/${e.name}`);
      }
    }
  }
  assertEquals(found, []);
});

Deno.test("every flag of every table parses, long and short, with the value it was given", () => {
  for (const [path, cmd] of COMMANDS) {
    for (const o of cmd.options) {
      const base = minimalArgs(cmd, o.name);
      const forms = [`--${o.name}`, ...(o.short ? [`-${o.short}`] : [])];
      for (const flag of forms) {
        const args = o.value === undefined ? [flag] : [flag, "v1"];
        const p = parseFlags([...args, ...base], cmd);
        const expected = o.value === undefined ? true : o.multiple ? ["v1"] : "v1";
        assertEquals(p.values[o.name], expected, `${path} ${flag}`);
      }
      if (o.multiple) {
        const p = parseFlags([`--${o.name}`, "a", `--${o.name}`, "b", ...base], cmd);
        assertEquals(p.values[o.name], ["a", "b"], `${path} --${o.name} twice`);
      }
      if (o.default !== undefined && !o.required) {
        assertEquals(parseFlags(base, cmd).values[o.name], o.default, `${path} --${o.name}`);
      }
    }
  }
});

Deno.test("an unknown flag, a missing argument or required flag is an error naming it, with the usage line", async () => {
  for (const [path, cmd] of COMMANDS) {
    const base = minimalArgs(cmd);
    try {
      parseFlags(["--frobnicate", ...base], cmd);
      assert(false, `${path} accepted --frobnicate`);
    } catch (e) {
      assert(e instanceof UsageError && e.message.includes("--frobnicate"), `${path}: ${e}`);
    }
    for (const o of cmd.options.filter((o) => o.required)) {
      try {
        parseFlags(minimalArgs(cmd, o.name), cmd);
        assert(false, `${path} accepted a missing --${o.name}`);
      } catch (e) {
        assertEquals((e as Error).message, `missing required flag --${o.name}`, path);
      }
    }
    if (base.length) {
      const r = await cli([...path.split(" "), "--frobnicate"]);
      assertEquals(r.code, 2, path);
      assertEquals(
        r.err,
        `error: Unknown option '--frobnicate'\n${usageLine(path, cmd)} (-h for help)`,
        path,
      );
    }
  }
  const r = await cli(["eval", "trec", "only-one-file"]);
  assertEquals(r.code, 2);
  assertEquals(
    r.err,
    "error: expected QRELS RUN, got 1\n" +
      "usage: deno task eval trec QRELS RUN [options] (-h for help)",
  );
  const extra = await cli(["eval", "ties", "a", "b", "c"]);
  assert(extra.err.startsWith("error: unexpected argument 'c'\n"), extra.err);
  const few = await cli(["eval", "compare", "--qrels", "q", "one.run"]);
  assert(
    few.err.startsWith("error: expected at least 2 arguments (RUN RUN [RUN...]), got 1\n"),
    few.err,
  );
});

/**
 * The shared entries, and the commands whose flag of that name means something else on
 * purpose (each with its reason).
 */
const SHARED: Option[] = [
  RELEASE_OPTION,
  COMPLETE_OPTION,
  LEVEL_OPTION,
  OUT_OPTION,
  FORCE_OPTION,
  FILTER_OPTION,
  DIR_OPTION,
  RUN_ID_OPTION,
];
const DIFFERENT_ON_PURPOSE: Record<string, string> = {
  "bench eval --dir": "the folder of the benchmark's synthetic files, not a corpus folder",
  "bench compare --dir": "the folder of the benchmark's synthetic files, not a corpus folder",
  "bench report --dir": "the folder of the reports the benchmark builds, not a corpus folder",
  "report --out": "a report folder, built beside the old one and swapped in",
};

Deno.test("a flag several commands share is one table entry: same letter, value and help everywhere", () => {
  const users = new Map<string, string[]>();
  const longOfShort = new Map<string, string>();
  for (const [path, cmd] of COMMANDS) {
    for (const o of cmd.options) {
      if (o.short) {
        const seen = longOfShort.get(o.short) ?? o.name;
        assertEquals(o.name, seen, `-${o.short} means --${seen} elsewhere, --${o.name} in ${path}`);
        longOfShort.set(o.short, o.name);
      }
      const shared = SHARED.find((s) => s.name === o.name || (s.short && s.short === o.short));
      if (!shared || `${path} --${o.name}` in DIFFERENT_ON_PURPOSE) continue;
      const { name, short, value, help } = o;
      assertEquals(
        { name, short, value, help },
        { name: shared.name, short: shared.short, value: shared.value, help: shared.help },
        `${path} --${o.name}`,
      );
      users.set(o.name, [...(users.get(o.name) ?? []), path]);
    }
  }
  for (const s of SHARED) {
    assert((users.get(s.name)?.length ?? 0) >= 2, `--${s.name}: ${users.get(s.name)}`);
  }
  for (const key of Object.keys(DIFFERENT_ON_PURPOSE)) {
    const [path, flag] = key.split(" --");
    const cmd = COMMANDS.find(([p]) => p === path)?.[1];
    assert(cmd?.options.some((o) => o.name === flag), `${key} is no longer an exception`);
  }
});
