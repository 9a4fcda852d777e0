/**
 * File-name patterns as a shell expands them (`*`, `?`, `[abc]`, `[a-z]`, `[!x]` within one
 * path segment; `*` and `?` do not match a leading dot or `/`), for arguments the shell
 * leaves alone: `--run ltr=runs/ltr-seed*.run` is one word to the shell, because no file is
 * named `ltr=runs/...`. No JSR here (`@std/fs` `expandGlob` is unreachable), hence this
 * small matcher.
 *
 * @module
 */
import { KitError } from "../errors.ts";

/**
 * Whether `pattern` has glob characters.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { hasGlob } from "./glob.ts";
 * assert(hasGlob("runs/*.run") && !hasGlob("runs/a.run"));
 * ```
 */
export function hasGlob(pattern: string): boolean {
  return /[*?[]/.test(pattern);
}

/** The regular expression of one segment's pattern. */
function segmentRegExp(segment: string): RegExp {
  let re = "";
  for (let i = 0; i < segment.length; i++) {
    const ch = segment[i];
    if (ch === "*") re += "[^/]*";
    else if (ch === "?") re += "[^/]";
    else if (ch === "[") {
      const end = segment.indexOf("]", i + 2);
      if (end < 0) re += "\\[";
      else {
        let body = segment.slice(i + 1, end);
        const negate = body.startsWith("!") || body.startsWith("^");
        if (negate) body = body.slice(1);
        re += `[${negate ? "^" : ""}${body.replace(/[\\\]^]/g, "\\$&")}]`;
        i = end;
      }
    } else re += ch.replace(/[.+^${}()|\\]/g, "\\$&");
  }
  return new RegExp(`^${re}$`);
}

/**
 * The files matching `pattern` (relative paths against `cwd`), sorted with numbers in
 * numeric order (`seed2` before `seed10`). A pattern without glob characters is returned
 * as it is. No match is an error naming the pattern.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { expandGlob } from "./glob.ts";
 * const dir = await Deno.makeTempDir();
 * for (const n of ["s10.run", "s2.run", ".hidden.run", "x.txt"]) await Deno.writeTextFile(`${dir}/${n}`, "");
 * assert.deepEqual(expandGlob("*.run", dir), ["s2.run", "s10.run"]);
 * assert.deepEqual(expandGlob(`${dir}/s?.run`, "/"), [`${dir}/s2.run`]);
 * ```
 */
export function expandGlob(pattern: string, cwd: string): string[] {
  if (!hasGlob(pattern)) return [pattern];
  const absolute = pattern.startsWith("/");
  const segments = pattern.split("/").filter((s, i) => s !== "" || i === 0);
  let found: string[] = [absolute ? "" : "."];
  if (absolute) segments.shift();
  for (const [i, segment] of segments.entries()) {
    const last = i === segments.length - 1;
    const next: string[] = [];
    for (const base of found) {
      const dir = base === "" ? "/" : base;
      if (!hasGlob(segment)) {
        next.push(base === "." ? segment : `${base}/${segment}`);
        continue;
      }
      const re = segmentRegExp(segment);
      let entries: Deno.DirEntry[];
      try {
        entries = [...Deno.readDirSync(dir.startsWith("/") ? dir : `${cwd}/${dir}`)];
      } catch {
        continue;
      }
      for (const e of entries) {
        if (e.name.startsWith(".") && !segment.startsWith(".")) continue;
        if (!re.test(e.name)) continue;
        if (!last && !e.isDirectory && !e.isSymlink) continue;
        next.push(base === "." ? e.name : `${base}/${e.name}`);
      }
    }
    found = next;
  }
  const files = found.filter((p) => {
    try {
      return Deno.statSync(p.startsWith("/") ? p : `${cwd}/${p}`).isFile;
    } catch {
      return false;
    }
  });
  if (files.length === 0) throw new KitError(`no file matches the pattern '${pattern}'`);
  return files.sort((a, b) => a.localeCompare(b, "en", { numeric: true }));
}
