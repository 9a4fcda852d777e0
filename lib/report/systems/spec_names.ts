/**
 * The names and run files of a spec's systems, as every part of the spec checks them: a name
 * (any text, escaped wherever it appears), a `NAME=PATH[,PATH...]` argument, a path or glob.
 * Light on purpose: a task's part of the report (lib/tasks/task.ts `ReportPart`) parses its spec
 * with these without loading the corpus table.
 *
 * @module
 */
import { KitError } from "../../errors.ts";
import { expandGlob } from "../../io/glob.ts";
import { isFile, resolvePath } from "../../io/path.ts";

/**
 * Checks a system name: not empty, no control characters, at most 80 characters. Anything
 * else is allowed (the report escapes names wherever they appear).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkSystemName } from "./spec_names.ts";
 * assert.equal(checkSystemName(" <b>My & model</b> "), "<b>My & model</b>");
 * assert.throws(() => checkSystemName("a\nb"), /control characters/);
 * ```
 */
export function checkSystemName(raw: string): string {
  const name = raw.trim();
  if (name === "") throw new KitError("a system name is empty (write NAME=PATH)");
  // deno-lint-ignore no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(name)) {
    throw new KitError(`the system name ${JSON.stringify(name)} has control characters`);
  }
  if (name.length > 80) {
    throw new KitError(`the system name '${name.slice(0, 20)}...' is over 80 characters`);
  }
  return name;
}

/**
 * The files one run entry names: a path or a glob (numbers in numeric order), relative to
 * `base`; each must be a regular file. `where` prefixes the errors (`--run mine`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { runFiles } from "./spec_names.ts";
 * const dir = await Deno.makeTempDir();
 * for (const s of [1, 2, 10]) await Deno.writeTextFile(`${dir}/s${s}.run`, "");
 * assert.deepEqual(runFiles("s*.run", dir, "x"), [1, 2, 10].map((s) => `${dir}/s${s}.run`));
 * assert.throws(() => runFiles("none.run", dir, "--run x"), /--run x: file not found/);
 * ```
 */
export function runFiles(entry: string, base: string, where: string): string[] {
  let matches: string[];
  try {
    matches = expandGlob(entry, base);
  } catch (e) {
    if (e instanceof KitError) throw new KitError(`${where}: ${e.message}`);
    throw e;
  }
  return matches.map((p) => {
    const path = resolvePath(p, base);
    let st: Deno.FileInfo;
    try {
      st = Deno.statSync(path);
    } catch {
      throw new KitError(`${where}: file not found`, { file: p });
    }
    if (!st.isFile) throw new KitError(`${where}: not a regular file`, { file: p });
    return path;
  });
}

/**
 * Parses one `NAME=PATH[,PATH...]` argument (`--run`, `--qrcd-run`): paths relative to
 * `cwd` (the caller's directory), each a file or a glob pattern (`runs/seed*.run`). A value
 * that is itself an existing file is taken whole, commas and all.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseSystemArg } from "./spec_names.ts";
 * const dir = await Deno.makeTempDir();
 * for (const s of [1, 2, 10]) await Deno.writeTextFile(`${dir}/s${s}.run`, "");
 * assert.deepEqual(parseSystemArg("ltr=s*.run", dir, "--run"),
 *   { name: "ltr", paths: [`${dir}/s1.run`, `${dir}/s2.run`, `${dir}/s10.run`] });
 * assert.deepEqual(parseSystemArg("x=s1.run,s2.run", dir, "--run").paths.length, 2);
 * ```
 */
export function parseSystemArg(
  value: string,
  cwd: string,
  flag: string,
): { name: string; paths: string[] } {
  const eq = value.indexOf("=");
  if (eq < 0) {
    throw new KitError(`${flag} takes NAME=PATH (e.g. ${flag} mine=runs/mine.run), got '${value}'`);
  }
  const name = checkSystemName(value.slice(0, eq));
  const rest = value.slice(eq + 1);
  if (rest === "") throw new KitError(`${flag} ${name}=: no path given`);
  const parts = isFile(resolvePath(rest, cwd))
    ? [rest]
    : rest.split(",").map((p) => p.trim()).filter((p) => p);
  const paths = parts.flatMap((p) => runFiles(p, cwd, `${flag} ${name}`));
  const seen = new Set<string>();
  for (const p of paths) {
    if (seen.has(p)) throw new KitError(`${flag} ${name}: the file is given twice`, { file: p });
    seen.add(p);
  }
  return { name, paths };
}
