/**
 * Loads one export of a task's module on demand.
 *
 * The specifier is computed, not written: Deno prepares, at start-up, the module graph of
 * every dynamic import written as a string (npm packages included), and a task's code must not
 * load with `eval trec` (see lib/cli/main.ts). Nor is the module's type imported: a task's
 * commands import the corpus table, which imports the registry, which imports the task.
 *
 * @module
 */

/**
 * The export `name` of the module `file`, resolved against `base` (the caller's
 * `import.meta.url`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadExport } from "./load.ts";
 * const f = await loadExport<(x: number) => string>(
 *   import.meta.url,
 *   "../metrics/c_printf.ts",
 *   "formatFixedC",
 * );
 * assert.equal(f(0.5), "0.5000");
 * assert.equal(typeof f, "function");
 * ```
 */
export async function loadExport<T>(base: string, file: string, name: string): Promise<T> {
  const module = await import(new URL(file, base).href);
  if (!(name in module)) throw new Error(`${file} has no export '${name}'`);
  return module[name] as T;
}
