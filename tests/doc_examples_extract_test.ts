/**
 * The doc examples' extraction and modules (`tests/doc_examples.ts`) on made-up files: which
 * fences run, their names and lines as `deno test --doc` gives them, the code a module runs, and
 * what is refused rather than run differently.
 */
import "./quick.ts";
import assert from "node:assert/strict";
import { exampleModule, examplesOf } from "./doc_examples.ts";

const URL_ = "file:///p/lib/a.ts";
const fence = "`".repeat(3);

Deno.test("doc examples: the fences deno test --doc runs, named by their lines", () => {
  const text = [
    "/** Not one: no fence. */", // line 1
    "/**", // 2
    " * Text.", // 3
    ` * ${fence}ts`, // 4
    ' * import { f } from "./a.ts";', // 5
    " * # const hidden = 1;", // 6
    " * f(hidden);", // 7
    ` * ${fence}`, // 8
    ` * ${fence}ts ignore`, // 9
    " * never();",
    ` * ${fence}`,
    ` * ${fence}json`,
    " * {}",
    ` * ${fence}`,
    ` * ${fence}tsx`,
    " * <a/>;",
    ` * ${fence}`,
    " */",
    "// /** a line comment is no doc comment",
    "export function f(_: number) {}",
  ].join("\n");
  const found = examplesOf(URL_, text);
  assert.deepEqual(found.map((e) => e.name), [`${URL_}#4-9.ts`, `${URL_}#15-18.tsx`]);
  assert.equal(found[0].code, 'import { f } from "./a.ts";\nconst hidden = 1;\nf(hidden);\n\n');
  assert.equal(found[0].base, URL_);
});

Deno.test("doc examples: a module hoists the imports, absolute, and wraps the rest", () => {
  const code = [
    'import assert from "node:assert/strict";',
    "import {",
    "  f,",
    "  g,",
    '} from "../b/c.ts";',
    'const here = new URL("./x", import.meta.url);',
    "assert.equal(await f(g), here.href);",
    "",
  ].join("\n");
  const text = exampleModule({ name: `${URL_}#4-12.ts`, base: URL_, code });
  const lines = text.split("\n");
  assert.equal(lines[0], `// ${URL_}#4-12.ts`);
  assert.equal(lines[1], 'import assert from "node:assert/strict";');
  assert.equal(lines.slice(2, 6).join("\n"), 'import {\n  f,\n  g,\n} from "file:///p/b/c.ts";');
  assert.ok(text.includes("export default async function () {"), text);
  assert.ok(text.includes(`new URL("./x", "${URL_}#4-12.ts")`), text);
  assert.ok(text.includes("assert.equal(await f(g), here.href);"), text);
  assert.ok(text.trimEnd().endsWith("}"), text);
});

Deno.test("doc examples: what would run differently from deno test --doc is refused", () => {
  const refused = (code: string, why: RegExp) =>
    assert.throws(() => exampleModule({ name: "n", base: URL_, code }), why);
  refused("export const x = 1;\n", /an export/);
  refused('Deno.test("t", () => {});\n', /a Deno\.test of its own/);
  refused("console.log(import.meta.main);\n", /import\.meta other than import\.meta\.url/);
  refused('await import("./b.ts");\n', /a relative import\(\)/);
  refused('import { f } from "./b.ts"; f();\n', /an import this runner cannot read/);
  assert.throws(
    () => examplesOf(URL_, `/**\n * > ${fence}ts\n * > f();\n * > ${fence}\n */`),
    /block quote/,
  );
  assert.throws(
    () => examplesOf(URL_, `/**\n * ${fence}ts\n * #!/usr/bin/env deno\n * f();\n * ${fence}\n */`),
    /shebang/,
  );
});
