/**
 * Reading JSON files the way the kit reads every text file: strict UTF-8, BOM dropped,
 * errors naming the file and line.
 *
 * @module
 */
import { fail, KitError } from "../errors.ts";
import { parseJsonWithLines } from "./json_scan.ts";
import { readText } from "./text.ts";

/**
 * Reads and parses a JSON file; `expect: "object"` also requires a JSON object.
 * A missing file is `undefined` when `optional`, else a `KitError`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readJsonFile } from "./json.ts";
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/a.json`, '\uFEFF{"x": 1}');
 * assert.deepEqual(await readJsonFile(`${dir}/a.json`, { expect: "object" }), { x: 1 });
 * await Deno.writeTextFile(`${dir}/b.json`, '{\n  "x": }');
 * await assert.rejects(() => readJsonFile(`${dir}/b.json`), /b\.json:2: invalid JSON/);
 * ```
 */
export async function readJsonFile(
  path: string,
  options: { expect?: "object"; optional?: boolean } = {},
): Promise<Record<string, unknown> | undefined> {
  let text: string;
  try {
    text = await readText(path);
  } catch (e) {
    if (options.optional && e instanceof KitError && /file not found/.test(e.problem)) {
      return undefined;
    }
    throw e;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    // JSON.parse does not say where; the line-tracking parser does (and throws a KitError).
    parseJsonWithLines(text, path);
    fail(`broken JSON (${(e as Error).message})`, { file: path });
  }
  if (
    options.expect === "object" &&
    (typeof value !== "object" || value === null || Array.isArray(value))
  ) {
    fail("expected a JSON object", { file: path });
  }
  return value as Record<string, unknown>;
}
