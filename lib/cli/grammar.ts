/**
 * The command line's grammar: `node:util` `parseArgs`' in strict mode (`--name value`,
 * `--name=value`, `-m value`, `-mvalue`, grouped switches `-cq`, `--` ending the flags), with two
 * differences: a negative number after a flag that takes a value is that value, and a dash inside
 * a group (`-c-`) is refused. Written out here because loading `node:util` cost every command
 * about 0.03 s and 5 MB at start-up (Deno loads its Node compatibility layer for it), a third of
 * the 0.1 s the evaluation's start-up may take (issue 26). `tests/cli/args_test.ts` checks it
 * against `parseArgs` on random command lines.
 *
 * @module
 */
import { KitError } from "../errors.ts";
import type { Option } from "./command.ts";

/** Parsed flags and positionals. */
export interface Parsed {
  values: Record<string, string | boolean | (string | boolean)[] | undefined>;
  positionals: string[];
}

/**
 * A command line that does not fit the command's table: an unknown flag, a missing value or
 * argument, an extra argument. `main` prints the command's usage line after the message.
 */
export class UsageError extends KitError {
  constructor(problem: string) {
    super(problem);
    this.name = "UsageError";
  }
}

/**
 * Splits `args` into flag values and positionals (the strict grammar of the module doc). A
 * flag that takes a value takes the next argument unless it starts with `-`: then the value
 * was probably forgotten, and it is an error, except for a negative number (`-l -1`,
 * `--threshold -0.5`), which is the value.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readFlags } from "./grammar.ts";
 * const options = [
 *   { name: "measure", short: "m", value: "M", multiple: true, help: "-" },
 *   { name: "complete", short: "c", help: "-" },
 *   { name: "level", short: "l", value: "L", default: "1", help: "-" },
 * ];
 * const p = readFlags(["-cmmap", "q", "--measure=P.5", "-l", "-1", "--", "-r"], options);
 * assert.deepEqual(p.values, { complete: true, measure: ["map", "P.5"], level: "-1" });
 * assert.deepEqual(p.positionals, ["q", "-r"]);
 * assert.throws(() => readFlags(["-m", "-c"], options), /write --measure=-c/);
 * ```
 */
export function readFlags(args: string[], options: readonly Option[]): Parsed {
  const values: Parsed["values"] = {};
  const positionals: string[] = [];
  const byName = new Map(options.map((o) => [o.name, o]));
  const byShort = new Map(options.filter((o) => o.short).map((o) => [o.short!, o]));
  const shown = (o: Option) => `${o.short ? `-${o.short}, ` : ""}--${o.name}`;
  const set = (o: Option, value: string | boolean) => {
    const prev = values[o.name];
    values[o.name] = o.multiple ? [...(Array.isArray(prev) ? prev : []), value] : value;
  };
  // A flag as written (`--out`, `-m`), with the value written after `=` or the letter.
  const take = (o: Option, written: string, inline: string | undefined, i: number) => {
    if (o.value === undefined) {
      if (inline !== undefined) {
        throw new UsageError(`Option '${shown(o)}' does not take an argument`);
      }
      set(o, true);
      return i;
    }
    if (inline !== undefined) {
      set(o, inline);
      return i;
    }
    const next = args[i + 1];
    if (next === undefined) throw new UsageError(`Option '${shown(o)} <value>' argument missing`);
    if (next.length > 1 && next.startsWith("-") && !/^-\d+(\.\d+)?$/.test(next)) {
      throw new UsageError(
        `Option '${shown(o)}' takes a value, but '${next}' follows ${written}: to give a value ` +
          `starting with a dash, write --${o.name}=${next}`,
      );
    }
    set(o, next);
    return i + 1;
  };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "--") {
      positionals.push(...args.slice(i + 1));
      break;
    }
    if (arg.startsWith("--")) {
      const eq = arg.indexOf("=");
      const name = eq < 0 ? arg.slice(2) : arg.slice(2, eq);
      const o = byName.get(name);
      if (!o) throw new UsageError(`Unknown option '${name ? `--${name}` : arg}'`);
      i = take(o, `--${name}`, eq < 0 ? undefined : arg.slice(eq + 1), i);
    } else if (arg.startsWith("-") && arg.length > 1) {
      // -x, -xVALUE, or switches grouped (-cq); a letter taking a value ends the group.
      for (let k = 1; k < arg.length; k++) {
        if (arg[k] === "-") {
          // (Node reads `-c-` as `-c --`; a dash that ends the flags is clearer on its own.)
          throw new UsageError(
            `'${arg}' has a dash among its one-letter flags: to end the flags, write -- apart`,
          );
        }
        const o = byShort.get(arg[k]);
        if (!o) throw new UsageError(`Unknown option '-${arg[k]}'`);
        const rest = k + 1 < arg.length ? arg.slice(k + 1) : undefined;
        if (o.value !== undefined) {
          i = take(o, `-${arg[k]}`, rest, i);
          break;
        }
        set(o, true);
      }
    } else positionals.push(arg);
  }
  for (const o of options) {
    if (values[o.name] === undefined && o.default !== undefined) {
      values[o.name] = o.multiple ? [o.default] : o.default;
    }
  }
  return { values, positionals };
}

/**
 * Whether a command line asks for help: `-h` or `--help` as a flag, that is before `--` and not
 * the value of the flag before it (`-m -h` is a mistake, `-- -h` a file named `-h`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { asksForHelp } from "./grammar.ts";
 * const options = [{ name: "measure", short: "m", value: "M", help: "-" }, { name: "complete", short: "c", help: "-" }];
 * assert.equal(asksForHelp(["q", "r", "-h"], options), true);
 * assert.equal(asksForHelp(["-c", "--help"], options), true);
 * assert.equal(asksForHelp(["q", "--", "-h"], options), false);
 * assert.equal(asksForHelp(["-m", "-h"], options), false);
 * assert.equal(asksForHelp(["-cm", "--help"], options), false);
 * assert.equal(asksForHelp(["-mmap", "-h"], options), true);
 * ```
 */
export function asksForHelp(args: string[], options: readonly Option[]): boolean {
  const valued = options.filter((o) => o.value !== undefined);
  const long = new Set(valued.map((o) => o.name)), short = new Set(valued.map((o) => o.short));
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "--") return false;
    if (arg === "-h" || arg === "--help") return true;
    if (arg.startsWith("--")) {
      if (!arg.includes("=") && long.has(arg.slice(2))) i++; // (its value is next)
    } else if (arg.startsWith("-")) {
      // A group: its first letter taking a value takes the rest, or the next argument.
      for (let k = 1; k < arg.length; k++) {
        if (!short.has(arg[k])) continue;
        if (k === arg.length - 1) i++;
        break;
      }
    }
  }
  return false;
}
