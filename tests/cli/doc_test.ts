/**
 * The docs agree with the option tables: `docs/cli.md` is every command's generated help,
 * and every command line quoted in the README and docs/ names only flags its command takes.
 */
import { assert, assertEquals } from "../assert.ts";
import { commandList } from "../../lib/cli/main.ts";
import type { Command } from "../../lib/cli/command.ts";
import { CLI_DOC, cliDoc } from "./update_doc.ts";

Deno.test("docs/cli.md is generated from the option tables and up to date", async () => {
  assertEquals(
    await Deno.readTextFile(CLI_DOC),
    await cliDoc(),
    "docs/cli.md is stale: deno run -A tests/cli/update_doc.ts",
  );
});

/**
 * The command lines a Markdown text quotes: `deno task <command> ...` (or `./kit <command>
 * ...`) up to the end of its code span, table cell, pipe, comment or line; in a code block, a
 * line after a `\` or an indented line of flags goes on the command line above.
 */
export function quotedCommandLines(markdown: string): string[] {
  const lines: string[] = [];
  let inBlock = false, open = false, backslash = false;
  for (const raw of markdown.split("\n")) {
    if (raw.startsWith("```")) {
      inBlock = !inBlock;
      open = false;
      continue;
    }
    const line = raw.replace(/\s#.*$/, "");
    const cell = raw.startsWith("|") ? /(?<!\\)\|/ : /\s\|\s/;
    const found = [...line.matchAll(/(?:deno task|\.\/kit) [^`]*/g)].map((m) =>
      m[0].split(cell)[0].trim()
    );
    if (found.length) {
      lines.push(...found);
      open = inBlock;
    } else if (open && (backslash || /^\s+[[-]/.test(raw))) {
      lines[lines.length - 1] += " " + line.trim();
    } else open = false;
    backslash = line.trimEnd().endsWith("\\");
  }
  return lines;
}

Deno.test("every command line quoted in README.md and docs/ names only flags of its command", async () => {
  const commands = new Map<string, Command>(await commandList());
  const texts: [string, string][] = [["README.md", await Deno.readTextFile("README.md")]];
  for (const e of Deno.readDirSync("docs")) {
    if (e.name.endsWith(".md")) texts.push([e.name, await Deno.readTextFile(`docs/${e.name}`)]);
  }
  let checked = 0;
  const wrong: string[] = [];
  for (const [file, text] of texts) {
    for (const line of quotedCommandLines(text)) {
      const words = line.split(/\s+/).slice(line.startsWith("./kit") ? 1 : 2);
      const path = commands.has(`${words[0]} ${words[1]}`)
        ? `${words[0]} ${words[1]}`
        : commands.has(words[0])
        ? words[0]
        : undefined;
      if (!path) continue; // `deno task check`, `./kit setup`, a group named alone
      const cmd = commands.get(path)!;
      checked++;
      for (const [flag] of line.matchAll(/(?<![\w-])(--[a-z][a-z0-9-]*|-[a-zA-Z])(?![\w-])/g)) {
        const known = flag.startsWith("--")
          ? cmd.options.some((o) => `--${o.name}` === flag) || flag === "--help"
          : cmd.options.some((o) => `-${o.short}` === flag) || flag === "-h";
        if (!known) wrong.push(`${file}: ${flag} in \`${line}\``);
      }
    }
  }
  assert(checked > 40, `only ${checked} command lines found`);
  assertEquals(wrong, []);
});
