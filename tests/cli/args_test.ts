// The kit's flag parser (lib/cli/args.ts) against the grammar it reproduces: `node:util`
// `parseArgs` in strict mode, run here as the oracle on random command lines. They agree on
// every line Node accepts and refuse the same lines, with two differences by design: a flag
// taking a value followed by a negative number (`-l -1`) takes it, where Node asks for
// `--level=-1`; a dash inside a group of letters (`-c-`), which Node reads as `-c --`, is
// refused.
import assert from "node:assert/strict";
import { assertEquals } from "../assert.ts";
import { parseArgs } from "node:util";
import fc from "fast-check";
import { parseFlags } from "../../lib/cli/args.ts";
import { asksForHelp, UsageError } from "../../lib/cli/grammar.ts";
import { main } from "../../lib/cli/main.ts";
import type { Option } from "../../lib/cli/command.ts";

const OPTIONS: Option[] = [
  { name: "measure", short: "m", value: "M", multiple: true, help: "-" },
  { name: "complete", short: "c", help: "-" },
  { name: "query", short: "q", help: "-" },
  { name: "level", short: "l", value: "LEVEL", default: "1", help: "-" },
  { name: "out", value: "FILE", help: "-" },
  { name: "force", help: "-" },
  { name: "trec-eval", value: "R", default: "9.0.8", help: "-" },
];
const TABLE = { options: OPTIONS, positionals: [{ name: "ARG", help: "-", repeat: { min: 0 } }] };

/** Node's answer: the parsed flags, or null when it refuses the line. */
function nodeParse(args: string[]) {
  const options: Record<
    string,
    { type: "string" | "boolean"; short?: string; multiple?: boolean; default?: string }
  > = {};
  for (const o of OPTIONS) {
    options[o.name] = {
      type: o.value === undefined ? "boolean" : "string",
      ...(o.short ? { short: o.short } : {}),
      ...(o.multiple ? { multiple: true } : {}),
      ...(o.default !== undefined ? { default: o.default } : {}),
    };
  }
  try {
    const { values, positionals } = parseArgs({
      args,
      options,
      allowPositionals: true,
      strict: true,
    });
    return { values: { ...values }, positionals };
  } catch {
    return null;
  }
}

/** The kit's answer, in the same shape. */
function kitParse(args: string[]) {
  try {
    const p = parseFlags(args, TABLE);
    return { values: Object.fromEntries(Object.entries(p.values)), positionals: p.positionals };
  } catch (e) {
    assert(e instanceof UsageError, `not a usage error: ${e}`);
    return null;
  }
}

const WORDS = [
  "-m",
  "--measure",
  "-c",
  "-q",
  "-cq",
  "-qc",
  "-l",
  "--level",
  "--out",
  "--force",
  "--trec-eval",
  "map",
  "P.5",
  "run.txt",
  "-",
  "--",
  "-1",
  "-0.5",
  "-x",
  "--frob",
  "-mmap",
  "-cm",
  "-cmP.5",
  "--measure=ndcg",
  "--level=2",
  "--force=yes",
  "--out=",
  "-c=1",
  "10.0",
  "-l2",
  "--trec-eval=10.0",
  "-ml",
  "--measure=-x",
  "-qz",
];
const NEGATIVE = /^-\d+(\.\d+)?$/;

Deno.test("flag parser: agrees with node:util parseArgs (strict) on random command lines", () => {
  fc.assert(
    fc.property(fc.array(fc.constantFrom(...WORDS), { maxLength: 8 }), (args) => {
      const kit = kitParse(args), node = nodeParse(args);
      // The one difference by design: a negative number after a flag that takes a value.
      const negativeValue = args.some((a, i) =>
        NEGATIVE.test(a) && i > 0 &&
        ["-m", "--measure", "-l", "--level", "--out", "--trec-eval", "-cm"]
          .includes(args[i - 1]) &&
        !args.slice(0, i).includes("--")
      );
      if (negativeValue) return;
      const end = args.indexOf("--");
      const flags = end < 0 ? args : args.slice(0, end);
      if (flags.some((a) => /^-[^-]+-/.test(a))) {
        assert.equal(kit, null, `args: ${JSON.stringify(args)}`); // (Node: -c --)
        return;
      }
      assert.deepEqual(kit, node, `args: ${JSON.stringify(args)}`);
    }),
    { numRuns: 3000 },
  );
});

Deno.test("flag parser: what it says to the usual mistakes", () => {
  const message = (args: string[]) => {
    try {
      parseFlags(args, TABLE);
    } catch (e) {
      return (e as Error).message;
    }
    return "accepted";
  };
  assert.equal(message(["--frob"]), "Unknown option '--frob'");
  assert.equal(message(["--=x"]), "Unknown option '--=x'");
  assert.equal(
    message(["-c-", "x"]),
    "'-c-' has a dash among its one-letter flags: to end the flags, write -- apart",
  );
  assert.equal(message(["-cx"]), "Unknown option '-x'");
  assert.equal(message(["-m"]), "Option '-m, --measure <value>' argument missing");
  assert.equal(message(["--force=yes"]), "Option '--force' does not take an argument");
  assert.equal(
    message(["-m", "-c"]),
    "Option '-m, --measure' takes a value, but '-c' follows -m: to give a value starting " +
      "with a dash, write --measure=-c",
  );
  // A negative number is the value; a lone dash (standard input) too; `--` ends the flags.
  assert.deepEqual(parseFlags(["-l", "-1", "--out", "-", "--", "-c"], TABLE).values.level, "-1");
  assert.deepEqual(parseFlags(["--out", "-"], TABLE).values.out, "-");
  assert.deepEqual(parseFlags(["--", "-c", "x"], TABLE).positionals, ["-c", "x"]);
});

Deno.test("help is asked by -h or --help as a flag only; command names are the table's own", async () => {
  assert.equal(asksForHelp(["q", "r", "-h"], OPTIONS), true);
  assert.equal(asksForHelp(["--help", "q"], OPTIONS), true);
  assert.equal(asksForHelp(["q", "--", "-h"], OPTIONS), false); // a file named -h
  assert.equal(asksForHelp(["-m", "-h"], OPTIONS), false); // a forgotten value: an error
  assert.equal(asksForHelp(["--measure", "--help"], OPTIONS), false);
  assert.equal(asksForHelp(["-cm", "-h"], OPTIONS), false);
  assert.equal(asksForHelp(["-mmap", "-h"], OPTIONS), true);
  assert.equal(asksForHelp(["--measure=map", "-h"], OPTIONS), true);
  // Names an object has by inheritance are no commands (they crashed with a TypeError).
  const errors: string[] = [];
  const error = console.error, log = console.log;
  console.error = (...a: unknown[]) => errors.push(a.join(" "));
  console.log = () => {};
  try {
    for (const argv of [["constructor"], ["eval", "toString"], ["eval", "hasOwnProperty", "x"]]) {
      assert.equal(await main(argv), 2, argv.join(" "));
    }
  } finally {
    console.error = error;
    console.log = log;
  }
  assert.match(errors[0], /^error: unknown command 'constructor'/);
  assert.match(errors[1], /^error: unknown eval subcommand 'toString'/);
  assert.match(errors[2], /^error: unknown eval subcommand 'hasOwnProperty'/);
});

Deno.test("a help text written to a full disk is one line and status 2, as a command's output", async () => {
  const main = new URL("../../lib/cli/main.ts", import.meta.url).pathname;
  for (const args of ["--help", "eval --help", "eval trec --help"]) {
    const r = await new Deno.Command("sh", {
      args: ["-c", `"$0" run -A "$1" ${args} > /dev/full`, Deno.execPath(), main],
      stderr: "piped",
    }).output();
    const err = new TextDecoder().decode(r.stderr);
    assertEquals(r.code, 2, err);
    assertEquals(err.trim().split("\n").length, 1, err);
    assert(err.startsWith("error: <stdout>: cannot write: the disk is full"), err);
  }
});
