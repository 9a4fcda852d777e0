/**
 * The doc examples (the fenced `ts` blocks of JSDoc comments) of `lib/` and `tests/`, found as
 * `deno test --doc` finds them and written as modules that one test file runs in one isolate
 * (`tests/doc_examples_test.ts`).
 *
 * Why not `deno test --doc`: it runs each example as a test module of its own, in an isolate of
 * its own, and Deno 2.9.6 spends about 0.3 CPU seconds on every such isolate before the first
 * line of the module (its `ext:cli/40_bench.js` allocates an array of 10 million slots at load,
 * about 80 MB written, in every test isolate), then loads the example's imports again: 625
 * examples cost about 300 CPU seconds, almost none of it the examples' own work
 * (docs/performance.md, "The test suite"). Here the examples share one isolate and one load of
 * `lib/`: each is still a test of its own, named as `deno test --doc` names it
 * (`file:///.../lib/x.ts#12-18.ts`), with its imports and its code unchanged.
 *
 * The rules are Deno's (cli/util/extract.rs): a block comment that starts with `/**`; in it
 * every fence whose first attribute is a JavaScript or TypeScript language and that is not
 * `ignore`d; a line keeps what follows its `* ` (and an optional `# `); the lines of a block are
 * numbered from its opening fence to one past its closing fence. The module of an example hoists
 * its `import` declarations and wraps the rest in an async function, as `deno test --doc` wraps it
 * in `Deno.test`. What differs from a module of its own, and is refused here rather than run
 * differently: an `import.meta` other than `import.meta.url` (which is the example's own URL, as
 * in `deno test --doc`), a relative `import("...")`, an `export`, a `Deno.test` of its own, a
 * shebang or a block quote. An example uses only what it imports: `deno test --doc` would also
 * import every other export of the documented file, which the examples of the kit do not rely on
 * (a name missing from its imports fails the example here with a `ReferenceError`).
 *
 * @module
 */

/** One doc example. */
export interface DocExample {
  /** Its name in `deno test --doc`: the documented file's URL, `#`, its lines, `.ts`. */
  name: string;
  /** The URL of the documented file. */
  base: string;
  /** Its code, the comment's `* ` taken off each line. */
  code: string;
}

/** The languages of a fence that `deno test --doc` runs, with the extension of its module. */
const LANGUAGES: Record<string, string> = {
  js: ".js",
  javascript: ".js",
  mjs: ".mjs",
  cjs: ".cjs",
  jsx: ".jsx",
  ts: ".ts",
  typescript: ".ts",
  mts: ".mts",
  cts: ".cts",
  tsx: ".tsx",
};

/** The extensions of the files whose comments `deno test --doc` reads. */
const SOURCE = /\.(?:ts|tsx|mts|cts|js|jsx|mjs|cjs)$/;

/** The doc examples of one file's `text`, `url` its file URL. */
export function examplesOf(url: string, text: string): DocExample[] {
  const found: DocExample[] = [];
  for (const comment of text.matchAll(/\/\*(\*[\s\S]*?)\*\//g)) {
    const body = comment[1]; // from the `*` after `/*`, as the parser's comment text
    const commentLine = text.slice(0, comment.index).split("\n").length - 1;
    for (const block of body.matchAll(/```([^\r\n]*)\r?\n([\s\S]*?)```/g)) {
      const attributes = block[1].split(" ");
      if (attributes.includes("ignore")) continue;
      const extension = LANGUAGES[attributes[0]];
      if (extension === undefined) continue;
      const offset = body.slice(0, block.index).split("\n").length - 1;
      const lineCount = block[0].split("\n").length;
      const first = commentLine + offset + 1;
      const name = `${url}#${first}-${first + lineCount}${extension}`;
      const fenceLine = body.slice(body.lastIndexOf("\n", block.index) + 1, block.index);
      if (fenceLine.replace(/^[ \t*]*/, "").startsWith(">")) {
        throw new Error(`${name}: an example in a block quote is not supported here`);
      }
      found.push({ name, base: url, code: codeOf(name, block[2]) });
    }
  }
  return found;
}

/** The code of a block's `body`: each line's `* ` (and `# `) taken off, as Deno does. */
function codeOf(name: string, body: string): string {
  const lines = body.split("\n");
  if (body.endsWith("\n")) lines.pop();
  let code = "";
  for (const raw of lines) {
    const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    const m = /(?:\* ?)((#!+).*)|(?:\* ?)(?:# ?)?(.*)/.exec(line);
    if (m === null) continue;
    if (m[1] !== undefined && code === "") {
      throw new Error(`${name}: a shebang in an example is not supported here`);
    }
    code += `${m[1] ?? m[3]}\n`;
  }
  return code;
}

/** An import declaration, whole: `import ... from "x";`, `import "x";`, with attributes. */
const IMPORT =
  /^\s*import\s*(?:[^;"']*?\bfrom\s*)?(["'])([^"']+)\1\s*(?:with\s*\{[^}]*\}\s*)?;?\s*$/;

/** The start of an import declaration (not `import(` nor `import.meta`). */
const IMPORT_START = /^\s*import(?=[\s{*"'])/;

/**
 * The module that runs `example`: its imports (relative ones made absolute, so the module may
 * live anywhere), then `export default async function` with the rest of its code. Throws on
 * what such a module would run differently from `deno test --doc` (see the module's doc).
 */
export function exampleModule(example: DocExample): string {
  const imports: string[] = [];
  const body: string[] = [];
  const lines = example.code.split("\n");
  for (let i = 0; i < lines.length; i++) {
    if (!IMPORT_START.test(lines[i])) {
      body.push(lines[i]);
      continue;
    }
    let statement = lines[i];
    while (!IMPORT.test(statement) && i + 1 < lines.length && !/;\s*$/.test(statement)) {
      statement += `\n${lines[++i]}`;
    }
    const m = IMPORT.exec(statement);
    if (m === null) {
      throw new Error(`${example.name}: an import this runner cannot read:\n${statement}`);
    }
    const specifier = m[2];
    const resolved = specifier.startsWith("./") || specifier.startsWith("../")
      ? new URL(specifier, example.base).href
      : specifier;
    imports.push(statement.replace(`${m[1]}${specifier}${m[1]}`, JSON.stringify(resolved)));
    body.push(""); // keeps the lines of the code where they were, for a failure's line number
  }
  const code = body.join("\n");
  const refuse = (what: string) => {
    throw new Error(`${example.name}: ${what} in an example is not supported here`);
  };
  if (/^\s*export\b/m.test(code)) refuse("an export");
  if (/^\s*Deno\.test\(/m.test(code)) refuse("a Deno.test of its own");
  if (/\bimport\.meta(?!\.url\b)/.test(code)) refuse("import.meta other than import.meta.url");
  if (/\bimport\(\s*["'`]\.{1,2}\//.test(code)) refuse("a relative import()");
  return [
    `// ${example.name}`,
    ...imports,
    "export default async function () {",
    code.replaceAll("import.meta.url", JSON.stringify(example.name)),
    "}",
    "",
  ].join("\n");
}

/** Every source file under `dirs` of `root` (relative paths), sorted, as `deno test` walks. */
export function sourceFiles(root: string, dirs: string[]): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const e of Deno.readDirSync(`${root}/${dir}`)) {
      const path = `${dir}/${e.name}`;
      if (e.isDirectory && e.name !== "node_modules" && !e.name.startsWith(".")) walk(path);
      else if (e.isFile && SOURCE.test(e.name)) found.push(path);
    }
  };
  for (const dir of dirs) walk(dir);
  return found.sort();
}

/** The doc examples of the source files under `dirs` of `root`, in file and line order. */
export function docExamples(root: string, dirs: string[]): DocExample[] {
  return sourceFiles(root, dirs).flatMap((f) =>
    examplesOf(new URL(`file://${root}/${f}`).href, Deno.readTextFileSync(`${root}/${f}`))
  );
}
