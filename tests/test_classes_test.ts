/**
 * The quick set cannot rot silently: every test file is in exactly one class of
 * `tests/test_classes.ts`, a quick file names none of the helpers or APIs that need a browser, a
 * kernel, a corpus, an oracle or a process (its isolate would refuse the process anyway, see
 * `tests/quick.ts`), and nothing but a quick test file imports the mark.
 */
import "./quick.ts";
import assert from "node:assert/strict";
import { PROJECT_ROOT } from "../lib/data/paths.ts";
import { classify, isMarkedQuick, NOT_QUICK, quickMark, testFiles } from "./test_classes.ts";

Deno.test("test classes: every test file is quick or says why not, never both", () => {
  const files = testFiles(PROJECT_ROOT);
  const { quick, notQuick } = classify(PROJECT_ROOT);
  assert.ok(quick.length >= 40 && notQuick.length >= 100, `${quick.length}, ${notQuick.length}`);
  const neither = files.filter((f) => !quick.includes(f) && !notQuick.includes(f));
  assert.deepEqual(neither, [], `add the quick mark or a line in NOT_QUICK for: ${neither}`);
  const both = quick.filter((f) => notQuick.includes(f));
  assert.deepEqual(both, [], "quick-marked but listed in NOT_QUICK");
  const gone = Object.keys(NOT_QUICK).filter((f) => !files.includes(f));
  assert.deepEqual(gone, [], "NOT_QUICK names a file that is not there");
  for (const [f, why] of Object.entries(NOT_QUICK)) assert.ok(why.trim().length > 0, f);
});

/** What a quick file may not use: each needs a process, a corpus, an oracle or a mount. */
const SLOW_NEEDS =
  /\bDeno\.Command\b|\bexecPath\(|\brunCli\(|\brealData(?:Test|Dir)\(|\b(?:scipy|pandas)Python\(|\brunPython\(|\btinyDisk\(|\bdiskTest\(|\brunTrecEval\(|\btrecEvalBinary\(|playwright|chromium|node:child_process|\bignore:(?!\s*true\b)/i;

Deno.test("test classes: a quick file needs no process, corpus, oracle or mount", () => {
  for (const f of classify(PROJECT_ROOT).quick) {
    if (f === "tests/test_classes_test.ts") continue; // the last test here: a process refused
    const text = Deno.readTextFileSync(`${PROJECT_ROOT}/${f}`);
    const m = SLOW_NEEDS.exec(text);
    assert.equal(m, null, `${f} is quick but uses ${m?.[0]}: move it to NOT_QUICK`);
  }
});

Deno.test("test classes: the mark is the first import, and only test files import it", () => {
  assert.equal(quickMark("tests/a_test.ts"), 'import "./quick.ts";');
  assert.equal(quickMark("tests/x/a_test.ts"), 'import "../quick.ts";');
  assert.ok(!isMarkedQuick("tests/x/a_test.ts", 'import x from "y";\nimport "../quick.ts";\n'));
  const quick = new Set(classify(PROJECT_ROOT).quick);
  const walk = (dir: string): string[] =>
    [...Deno.readDirSync(`${PROJECT_ROOT}/${dir}`)].flatMap((e) =>
      e.isDirectory ? walk(`${dir}/${e.name}`) : e.name.endsWith(".ts") ? [`${dir}/${e.name}`] : []
    );
  for (const f of [...walk("lib"), ...walk("tests"), ...walk("tools")]) {
    if (quick.has(f)) continue;
    const text = Deno.readTextFileSync(`${PROJECT_ROOT}/${f}`);
    assert.ok(!/^import\s+(?:.*\bfrom\s+)?"[./]*quick\.ts"/m.test(text), `${f} imports quick.ts`);
  }
});

Deno.test("test classes: a quick file's isolate may start no process", async () => {
  assert.equal((await Deno.permissions.query({ name: "run" })).state, "prompt");
  assert.throws(() => new Deno.Command("true").outputSync(), /run access/);
});
