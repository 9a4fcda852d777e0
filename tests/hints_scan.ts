/**
 * Finds the hints in `lib/`'s message texts for `hints_test.ts`: every string literal of every
 * `lib/**\/*.ts` file (comments and regular expressions skipped; literals joined by `+` read as
 * one text, an expression between them as {@link HOLE}), and in them the TypeScript a message
 * suggests (a call, an option) and the command lines it suggests (`./kit ...`, `deno task ...`),
 * each command line checked against the command grammar of `lib/cli/`.
 *
 * @module
 */
import { readFlags } from "../lib/cli/grammar.ts";
import type { Option } from "../lib/cli/command.ts";
import { commandList } from "../lib/cli/main.ts";
import { PROJECT_ROOT } from "../lib/data/paths.ts";
import { libFiles } from "./helpers.ts";

/** Where an expression (`${x}`, or `+ x +` between two literals) was in a message. */
export const HOLE = "\u0001";

/** One message text: a literal, or literals joined by `+`. */
export interface Message {
  /** The file, relative to the project root (`lib/data/paths.ts`). */
  file: string;
  /** The line it starts on. */
  line: number;
  text: string;
}

interface Literal {
  start: number;
  end: number;
  line: number;
  text: string;
}

/** The character an escape (`\n`, `\"`) stands for, by the letter after the backslash. */
function unescape(c: string): string {
  return ({ n: "\n", t: "\t", r: "\r" } as Record<string, string>)[c] ?? c;
}

/** A token after which `/` starts a regular expression rather than a division. */
const BEFORE_REGEX =
  /^(?:[(,=:[!&|?{};+\-*%<>~^]|return|typeof|case|do|else|in|of|new|delete|void|throw|yield|await)?$/;

/**
 * The string and template literals of TypeScript source, in source order, a template's `${}`
 * parts as {@link HOLE} (the literals inside them listed too).
 */
export function literals(src: string): Literal[] {
  const out: Literal[] = [];
  let i = 0;
  let prev = "";
  const lineAt = (k: number) => src.slice(0, k).split("\n").length;
  const skipRegex = () => {
    let inClass = false;
    for (i++; i < src.length && src[i] !== "\n"; i++) {
      const c = src[i];
      if (c === "\\") i++;
      else if (c === "[") inClass = true;
      else if (c === "]") inClass = false;
      else if (c === "/" && !inClass) break;
    }
    for (i++; /[a-z]/.test(src[i] ?? ""); i++);
  };
  const template = (): void => {
    const start = i++;
    let text = "";
    while (i < src.length && src[i] !== "`") {
      if (src[i] === "\\") text += unescape(src[(i += 2) - 1]);
      else if (src.startsWith("${", i)) {
        i += 2;
        code(true);
        i++;
        text += HOLE;
      } else text += src[i++];
    }
    out.push({ start, end: ++i, line: lineAt(start), text });
  };
  // Code up to the end (or, inside `${}`, to its closing brace).
  const code = (inHole: boolean): void => {
    let depth = 0;
    while (i < src.length) {
      const c = src[i];
      if (/\s/.test(c)) i++;
      else if (src.startsWith("//", i)) {
        i = src.indexOf("\n", i) < 0 ? src.length : src.indexOf("\n", i);
      } else if (src.startsWith("/*", i)) i = src.indexOf("*/", i + 2) + 2;
      else if (c === '"' || c === "'") {
        const start = i;
        let text = "";
        for (i++; i < src.length && src[i] !== c; i++) {
          text += src[i] === "\\" ? unescape(src[++i]) : src[i];
        }
        out.push({ start, end: ++i, line: lineAt(start), text });
        prev = "s";
      } else if (c === "`") {
        template();
        prev = "s";
      } else if (c === "/" && BEFORE_REGEX.test(prev)) {
        skipRegex();
        prev = "r";
      } else if (/[\w$]/.test(c)) {
        const m = /^[\w$]+/.exec(src.slice(i, i + 200))!;
        prev = m[0];
        i += m[0].length;
      } else {
        if (c === "{") depth++;
        if (c === "}" && depth-- === 0 && inHole) return;
        prev = c;
        i++;
      }
    }
  };
  code(false);
  return out.sort((a, b) => a.start - b.start);
}

/** Between two literals of one message: `+`, or `+ expression +` (a short one, one line). */
const JOIN = /^\s*\+\s*(?:[\w$.?!()[\]]+\s*\+\s*)?$/;

/** The messages of one file (literals joined by `+` as one text). */
export function messagesOf(file: string): Message[] {
  const src = Deno.readTextFileSync(`${PROJECT_ROOT}/${file}`);
  const out: Message[] = [];
  let last: Literal | undefined;
  for (const lit of literals(src)) {
    // A literal inside a template's `${}` is a message of its own.
    const inside = last !== undefined && lit.start < last.end;
    const between = last && !inside ? src.slice(last.end, lit.start) : undefined;
    if (between !== undefined && JOIN.test(between)) {
      out[out.length - 1].text += (/\w/.test(between) ? HOLE : "") + lit.text;
    } else out.push({ file, line: lit.line, text: lit.text });
    if (!inside) last = lit;
  }
  return out;
}

/** Every message of `lib/`. */
export function libMessages(): Message[] {
  return libFiles().flatMap(messagesOf);
}

/** The public names: what `lib/mod.ts` exports. */
export async function publicNames(): Promise<Set<string>> {
  return new Set(Object.keys(await import("../lib/mod.ts")));
}

/**
 * What looks like a call in a message: a name directly followed by `(`, where the name is
 * camelCase (`renumberRun`), dotted (`run.get`) or one of the public names (`evaluate`), and not
 * a plural's `(s)` (`question(s)`). Returned as the name with its parenthesis (`renumberRun(`).
 */
export function callHints(text: string, names: Set<string>): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/(?<![\w$.])([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)\((?!s\))/g)) {
    const name = m[1];
    if (/[a-z][A-Z]/.test(name) || name.includes(".") || names.has(name)) out.push(`${name}(`);
  }
  return out;
}

/**
 * What looks like an option of a TypeScript call in a message: a camelCase or lower-case key, a
 * colon and a TypeScript value (`true`, `false`, a double-quoted string) or a placeholder
 * (`DIR`, `FILE`, `...`): `complete: true`, `queries: "intersection"`, `dir: DIR`.
 */
export function optionHints(text: string): string[] {
  const value = /(?:true|false|"[\w-]*"|(?:DIR|FILE|PATH)\b|\.\.\.)/.source;
  return [...text.matchAll(new RegExp(`(?<![\\w$-])[a-z][A-Za-z]*: ${value}`, "g"))]
    .map((m) => m[0]);
}

/** How a command line starts in a message: `./kit`, `deno task`, or `main.ts` run by URL. */
const COMMAND_START = /(?<!usage: )(?:\.\/kit|deno task|deno run -A \S+\/lib\/cli\/main\.ts) /g;

/**
 * The command lines in a message, as their arguments after `./kit`/`deno task` (holes as
 * {@link HOLE}): words up to the first that holds a quote, a parenthesis, a bracket, a `;`, a
 * `,` or a `<` (cut there), or the end of the text. `usage: ...` lines are the grammar's own.
 */
export function commandHints(text: string): string[][] {
  const out: string[][] = [];
  for (const m of text.matchAll(COMMAND_START)) {
    const args: string[] = [];
    for (const word of text.slice(m.index + m[0].length).split(/[ \n]+/)) {
      const cut = word.search(/['"`()[\];,<]/);
      if (cut !== 0) args.push(cut < 0 ? word : word.slice(0, cut));
      if (cut >= 0) break;
    }
    out.push(args.filter((a) => a !== ""));
  }
  return out;
}

/** The `./kit` entries that are not deno tasks (the script's own), with their flags. */
const KIT_SCRIPT: Record<string, Option[]> = {
  notebook: ["port", "data", "dir"].map((name) => ({ name, value: "X", help: "" })),
  setup: [],
  test: [],
};

/**
 * Why a command line (its arguments after `./kit`) does not run, or undefined when it fits the
 * grammar: the command exists, every flag is one of its flags and has its value, the required
 * flags are there and the arguments are as many as it takes. A hole ({@link HOLE}) may be any
 * argument or none.
 */
export async function commandProblem(args: string[]): Promise<string | undefined> {
  const [group, sub] = args;
  if (group in KIT_SCRIPT) {
    const help = [{ name: "help", short: "h", help: "" }];
    try {
      const p = readFlags(args.slice(1), [...KIT_SCRIPT[group], ...help]);
      return p.positionals.length ? `./kit ${group} takes no argument` : undefined;
    } catch (e) {
      return (e as Error).message;
    }
  }
  const commands = await commandList();
  const found = commands.find(([path]) => path === `${group} ${sub}`) ??
    commands.find(([path]) => path === group);
  if (!found) return `no command '${args.slice(0, 2).join(" ")}'`;
  const [path, cmd] = found;
  const rest = args.slice(path.split(" ").length);
  let parsed;
  try {
    parsed = readFlags(rest, [...cmd.options, { name: "help", short: "h", help: "" }]);
  } catch (e) {
    return (e as Error).message;
  }
  if (parsed.values.help) return undefined;
  for (const o of cmd.options) {
    if (o.required && parsed.values[o.name] === undefined) return `${path}: --${o.name} missing`;
  }
  const fixed = parsed.positionals.filter((p) => p.replaceAll(HOLE, "") !== "").length;
  const holes = parsed.positionals.length - fixed;
  const takes = cmd.positionals ?? [];
  const min = takes.reduce((n, p) => n + (p.optional ? 0 : p.repeat?.min ?? 1), 0);
  const max = takes.some((p) => p.repeat) ? Infinity : takes.length;
  if (fixed > max) return `${path} takes at most ${max} argument(s), got ${fixed}`;
  if (fixed + holes < min) return `${path} takes at least ${min} argument(s), got ${fixed}`;
  return undefined;
}
