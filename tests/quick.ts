/**
 * The mark of a quick test file: `import "../quick.ts";` (with its file's own path) as the first
 * import of a `*_test.ts` file puts it in `./kit test --quick`, the tests that need no browser,
 * Jupyter kernel, Slurm, trec_eval, Python oracle, real corpus or any other process
 * (docs/CONVENTIONS.md, "Tests"). Importing it takes the run permission from the file's isolate
 * (in every run, `./kit test` and `--quick` alike: each test file has its own isolate), so a
 * quick file that starts to launch a process fails wherever it runs, CI included, rather than
 * quietly slowing the quick set down; and it sets {@link QUICK_FILE}, which makes the helpers of
 * `tests/helpers.ts` that find a corpus or an oracle refuse (`quickFileRefuses`) where they would
 * skip. `tests/test_classes.ts` says why each other test file is not quick, and
 * `tests/test_classes_test.ts` fails on a file in neither class or in both.
 *
 * Imported only by quick test files (for its effect): nothing else may import it.
 *
 * @module
 */
import { keepTempFilesIn } from "./temp_files.ts";

/** Set to `true` on `globalThis` by importing this module: the file under test is quick. */
export const QUICK_FILE: unique symbol = Symbol.for("qa-kit.quick-test-file");

(globalThis as Record<symbol, unknown>)[QUICK_FILE] = true;
Deno.permissions.revokeSync({ name: "run" });

// The file's temporary files and folders go into a folder of its isolate's own, removed when the
// isolate ends, so that a test that does not remove one (or fails before it does) leaves nothing
// in the machine's temporary folder.
const scratch = Deno.makeTempDirSync({ prefix: "qa-kit-quick-test-" });
globalThis.addEventListener("unload", () => Deno.removeSync(scratch, { recursive: true }));
keepTempFilesIn(scratch);
