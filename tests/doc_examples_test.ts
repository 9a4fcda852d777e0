/**
 * Every doc example of `lib/` and `tests/`, each a test named as `deno test --doc` names it, run in
 * this one isolate (`tests/doc_examples.ts` says how and why: `deno test --doc` spent about 0.3
 * CPU seconds of Deno's own on each of 625 isolates). `./kit test` and `./kit test --quick` run
 * this file instead of `--doc`; `deno task check` still type-checks the examples
 * (`deno check --doc`). The last test holds the runner to Deno's rules: it finds the blocks that
 * `deno test --doc` extracts, no more, no fewer.
 */
import assert from "node:assert/strict";
import { PROJECT_ROOT } from "../lib/data/paths.ts";
import { docExamples, exampleModule } from "./doc_examples.ts";
import { keepTempFilesIn } from "./temp_files.ts";

const DIRS = ["lib", "tests"];
const examples = docExamples(PROJECT_ROOT, DIRS);

// One module per example, imported together by one index (one module graph to prepare, however
// many examples), in a temporary folder removed when the isolate ends.
const dir = await Deno.makeTempDir({ prefix: "kit-doc-examples-" });
globalThis.addEventListener("unload", () => Deno.removeSync(dir, { recursive: true }));
// The examples' own temporary files (`Deno.makeTempFile()` and the like, which an example shown to
// a reader does not clean up) go there too, not into the machine's /tmp, run after run.
Deno.mkdirSync(`${dir}/tmp`);
keepTempFilesIn(`${dir}/tmp`);
const index: string[] = [];
examples.forEach((example, i) => {
  const file = `e${String(i).padStart(4, "0")}${example.name.slice(example.name.lastIndexOf("."))}`;
  Deno.writeTextFileSync(`${dir}/${file}`, exampleModule(example));
  index.push(`import e${i} from "./${file}";`);
});
index.push(`export default [${examples.map((_, i) => `e${i}`).join(", ")}];`);
Deno.writeTextFileSync(`${dir}/index.ts`, index.join("\n") + "\n");
const runs: (() => Promise<void>)[] = (await import(`file://${dir}/index.ts`)).default;

// Each example in its own isolate would start from the same globals; here an example's changes to
// them are undone after it. (onnxruntime-web's wasm backend, once loaded, sets `global.Worker` to
// node:worker_threads' Worker, which refuses the module workers of lib/metrics/engine/halves.ts.)
const globals = Object.getOwnPropertyDescriptors(globalThis);
const same = (a: PropertyDescriptor, b: PropertyDescriptor) =>
  a.value === b.value && a.get === b.get && a.set === b.set;
function restoreGlobals() {
  for (const [key, now] of Object.entries(Object.getOwnPropertyDescriptors(globalThis))) {
    const then = globals[key];
    if (then === undefined) delete (globalThis as Record<string, unknown>)[key];
    else if (!same(then, now)) Object.defineProperty(globalThis, key, then);
  }
}

examples.forEach((example, i) =>
  Deno.test(example.name, async () => {
    try {
      await runs[i]();
    } finally {
      restoreGlobals();
    }
  })
);

Deno.test("doc examples: the runner finds exactly the blocks deno test --doc runs", async () => {
  // `deno test --doc --no-run` extracts the examples without running them, and at debug level
  // logs each one's module under its name.
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["test", "--doc", "--no-check", "--no-run", ...DIRS],
    cwd: PROJECT_ROOT,
    env: { DENO_LOG: "debug", NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const log = new TextDecoder().decode(out.stderr) + new TextDecoder().decode(out.stdout);
  assert.ok(out.success, log.slice(-2000));
  const names = [...log.matchAll(/deno::util::extract:\d+ - (file:\S+#\d+-\d+\.\w+):$/gm)]
    .map((m) => m[1]);
  assert.ok(names.length > 600, `the debug log names ${names.length} examples: has it changed?`);
  assert.deepEqual(
    examples.map((e) => e.name).sort(),
    [...new Set(names)].sort(),
  );
});
