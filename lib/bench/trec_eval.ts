/**
 * Where the trec_eval 9.0.8 binary is, when it is: `$TREC_EVAL`, else the project's
 * `.tools/trec_eval-9.0.8/trec_eval` (built from `../shared/tools/trec_eval-9.0.8.tar.gz`).
 * The benchmark times it side by side with the kit, and tests compare outputs with it; it is
 * an outside oracle, not part of the kit.
 *
 * @module
 */
import { PROJECT_ROOT } from "../data/paths.ts";

/**
 * The trec_eval binary's path, or undefined when it is not built.
 *
 * @example
 * ```ts
 * import { trecEvalBinary } from "./trec_eval.ts";
 * const path = trecEvalBinary();
 * console.log(path ?? "trec_eval: not built");
 * ```
 */
export function trecEvalBinary(): string | undefined {
  for (
    const path of [Deno.env.get("TREC_EVAL"), `${PROJECT_ROOT}/.tools/trec_eval-9.0.8/trec_eval`]
  ) {
    if (!path) continue;
    try {
      if (Deno.statSync(path).isFile) return path;
    } catch { /* not there */ }
  }
  return undefined;
}

/**
 * Runs trec_eval with `args`; its standard output, or undefined when it is not built. A run
 * that fails (an unreadable file, a bad flag) throws with trec_eval's own message, so an
 * oracle that did not answer is never compared as an empty output.
 *
 * @example
 * ```ts
 * import { runTrecEval } from "./trec_eval.ts";
 * const out = await runTrecEval(["-h"]);
 * console.log(out === undefined ? "not built" : "ran");
 * ```
 */
export async function runTrecEval(args: string[]): Promise<string | undefined> {
  const bin = trecEvalBinary();
  if (!bin) return undefined;
  const out = await new Deno.Command(bin, { args, stdout: "piped", stderr: "piped" }).output();
  if (!out.success) {
    throw new Error(`trec_eval ${args.join(" ")}: ${new TextDecoder().decode(out.stderr)}`);
  }
  return new TextDecoder().decode(out.stdout);
}
