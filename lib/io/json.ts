/**
 * Reading JSON files the way the kit reads every text file: strict UTF-8, BOM dropped,
 * errors naming the file and line.
 *
 * @module
 */
import { fail } from "../errors.ts";
import { parseJsonWithLines } from "./json_scan.ts";
import { readWholeText, type WholeFileKind } from "./whole_file.ts";

/**
 * Reads and parses a JSON file; `expect: "object"` also requires a JSON object.
 * A missing file is `undefined` when `optional`, else a `KitError`. The file is read whole
 * as `kind` (default `config`; see `whole_file.ts`): a regular file within that kind's limit.
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
 * await assert.rejects(() => readJsonFile("/dev/zero"), /is a character device/);
 * ```
 */
export async function readJsonFile(
  path: string,
  options: { expect?: "object"; optional?: boolean; kind?: WholeFileKind } = {},
): Promise<Record<string, unknown> | undefined> {
  const text = await readWholeText(path, options.kind ?? "config", {
    missingOk: options.optional,
  });
  if (text === undefined) return undefined;
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
