/**
 * The shape of one CLI subcommand, and its usage text generated from its tables: a command
 * declares its flags ({@link Option}) and arguments ({@link Positional}) once; `parseFlags`
 * (`args.ts`) parses and checks them from that table and `--help` prints {@link helpText}
 * from it, so the help lists exactly what the command accepts. Flags several commands share
 * (`--trec-eval`, `-c`, `-l`, `--out`, `--force`, `--filter`, `--dir`) are single entries
 * in `args.ts`, reused, so one flag means one thing everywhere.
 *
 * @module
 */

/** One flag of a command. */
export interface Option {
  /** Long name without the dashes (`measure`, `trec-eval`). */
  name: string;
  /** One-letter alias without the dash (`m` for `-m`). */
  short?: string;
  /** Placeholder of its value in the usage (`FILE`, `N`, `text|json`); absent for a switch. */
  value?: string;
  /** May be given more than once (the values are collected in order). */
  multiple?: boolean;
  /** Must be given (a missing or empty value is an error). */
  required?: boolean;
  /** The value when the flag is absent (shown in the help). */
  default?: string;
  /** What it does, one sentence or two; the help text wraps it. */
  help: string;
}

/** One positional argument of a command. */
export interface Positional {
  /** Its placeholder in the usage (`QRELS`, `RUN`). */
  name: string;
  /** What it is. */
  help: string;
  /** May be left out. */
  optional?: boolean;
  /** Repeatable: at least `min` of them (default 1), as many as given. */
  repeat?: { min: number };
}

/** What `parseFlags` needs of a command: its flags and arguments. */
export interface Arguments {
  /** Its flags. */
  options: readonly Option[];
  /** Its positional arguments, in order (none when absent). */
  positionals?: readonly Positional[];
}

/** One subcommand: a summary line, its flags and arguments, and its implementation. */
export interface Command extends Arguments {
  /** One line shown in the command list. */
  summary: string;
  /** Text after the option list in `--help` (formats, defaults that need a paragraph). */
  notes?: string;
  /** Runs with the arguments after the subcommand; returns the exit status (default 0). */
  run(args: string[]): Promise<number | void>;
}

/**
 * The flag as the help writes it: `-m, --measure MEASURE`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { flagText } from "./command.ts";
 * assert.equal(flagText({ name: "measure", short: "m", value: "MEASURE", help: "" }), "-m, --measure MEASURE");
 * assert.equal(flagText({ name: "force", help: "" }), "--force");
 * ```
 */
export function flagText(o: Option): string {
  return `${o.short ? `-${o.short}, ` : ""}--${o.name}${o.value ? ` ${o.value}` : ""}`;
}

/**
 * The arguments as the usage line writes them: `QRELS RUN`, `RUN RUN [RUN...]`, `[SPLIT]`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { positionalsText } from "./command.ts";
 * assert.equal(positionalsText([{ name: "RUN", help: "", repeat: { min: 2 } }]), "RUN RUN [RUN...]");
 * ```
 */
export function positionalsText(positionals: readonly Positional[]): string {
  return positionals.map((p) =>
    p.repeat
      ? [...Array(p.repeat.min).fill(p.name), `[${p.name}...]`].join(" ")
      : p.optional
      ? `[${p.name}]`
      : p.name
  ).join(" ");
}

/**
 * The usage line of a command: its required flags, its arguments, `[options]` when it has
 * other flags.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { usageLine } from "./command.ts";
 * const cmd = {
 *   options: [{ name: "split", value: "S", required: true, help: "the split" },
 *     { name: "json", help: "JSON output" }],
 *   positionals: [{ name: "RUN", help: "a run", repeat: { min: 2 } }],
 * };
 * assert.equal(usageLine("eval x", cmd), "usage: deno task eval x --split S RUN RUN [RUN...] [options]");
 * ```
 */
export function usageLine(path: string, cmd: Arguments): string {
  const parts = [`usage: deno task ${path}`];
  for (const o of cmd.options) if (o.required) parts.push(`--${o.name} ${o.value ?? ""}`.trim());
  if (cmd.positionals?.length) parts.push(positionalsText(cmd.positionals));
  if (cmd.options.some((o) => !o.required)) parts.push("[options]");
  return parts.join(" ");
}

const HELP_WIDTH = 100;
const NAME_COLUMN = 30;

/** `text` in lines of at most `width` characters (words longer than that stay whole). */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  return line ? [...lines, line] : lines;
}

/** Two columns: name, then its help wrapped beside it (below it when the name is long). */
function entry(name: string, help: string): string[] {
  const head = `  ${name}`;
  const body = wrap(help, HELP_WIDTH - NAME_COLUMN);
  const pad = " ".repeat(NAME_COLUMN);
  if (head.length >= NAME_COLUMN - 1) return [head, ...body.map((l) => pad + l)];
  return [head.padEnd(NAME_COLUMN) + (body[0] ?? ""), ...body.slice(1).map((l) => pad + l)];
}

/** An option's help with its default and repeatability. */
function optionHelp(o: Option): string {
  const tags = [
    ...(o.multiple ? ["repeatable"] : []),
    ...(o.required ? ["required"] : []),
    ...(o.default !== undefined ? [`default ${o.default}`] : []),
  ];
  return tags.length ? `${o.help} (${tags.join("; ")})` : o.help;
}

/**
 * The `--help` text of a command, generated from its tables: the usage line, the summary,
 * one line per argument and per flag with its help, then the command's notes.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { helpText } from "./command.ts";
 * const text = helpText("fuse", {
 *   summary: "fuse runs",
 *   options: [{ name: "k", value: "K", default: "60", help: "rrf's constant" }],
 *   positionals: [{ name: "RUN", help: "a TREC run", repeat: { min: 2 } }],
 *   run: async () => {},
 * });
 * assert.match(text, /^usage: deno task fuse RUN RUN \[RUN\.\.\.\] \[options\]\n/);
 * assert.match(text, /\n  --k K +rrf's constant \(default 60\)$/);
 * ```
 */
export function helpText(path: string, cmd: Command): string {
  const lines = [usageLine(path, cmd), "", cmd.summary];
  const positionals = cmd.positionals ?? [];
  if (positionals.length) {
    lines.push("", "arguments:");
    for (const p of positionals) lines.push(...entry(p.name, p.help));
  }
  if (cmd.options.length) {
    lines.push("", "options:");
    for (const o of cmd.options) lines.push(...entry(flagText(o), optionHelp(o)));
  }
  if (cmd.notes) {
    lines.push("");
    // Indented lines are the command's own layout (a list) and stay; long prose lines wrap.
    for (const l of cmd.notes.split("\n")) {
      lines.push(...(l.length > HELP_WIDTH && !/^\s/.test(l) ? wrap(l, HELP_WIDTH) : [l]));
    }
  }
  return lines.join("\n");
}
