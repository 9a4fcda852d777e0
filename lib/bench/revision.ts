/**
 * The previous engine a benchmark times beside this one: a revision of this repository
 * (`deno.json` and `lib/`), extracted with `git archive` into a kit temporary folder
 * (`kit-rev-PID-*`, swept by a later command when the benchmark is killed outright).
 *
 * @module
 */
import { PROJECT_ROOT } from "../data/paths.ts";
import { makeKitTempDir } from "../io/temp.ts";

/**
 * Extracts a revision of this repository (`paths` of it: default `deno.json` and `lib/`) into a
 * temporary folder (`git archive`), so that its engine can be timed beside this one; undefined
 * (and why) when it cannot.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { extractRevision } from "./revision.ts";
 * const got = await extractRevision("no-such-revision-0000");
 * assert(got.dir === undefined && got.why !== undefined);
 * ```
 */
export async function extractRevision(
  rev: string,
  paths: readonly string[] = ["deno.json", "lib"],
): Promise<{ dir?: string; why?: string }> {
  const dir = await makeKitTempDir("kit-rev-");
  try {
    const archive = await new Deno.Command("git", {
      args: ["-C", PROJECT_ROOT, "archive", "--format=tar", rev, ...paths],
      stdout: "piped",
      stderr: "piped",
    }).output();
    if (!archive.success) throw new Error(new TextDecoder().decode(archive.stderr).trim());
    const tar = new Deno.Command("tar", { args: ["-x", "-C", dir], stdin: "piped" }).spawn();
    const w = tar.stdin.getWriter();
    await w.write(archive.stdout);
    await w.close();
    if (!(await tar.status).success) throw new Error("tar failed");
    return { dir };
  } catch (e) {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
    return { why: (e as Error).message.split("\n")[0] };
  }
}

/**
 * The previous engine of a benchmark: revision `rev` extracted ({@link extractRevision}; the
 * caller removes `dir`), or none when `rev` is false or cannot be extracted, with the line
 * the benchmark prints about it either way.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { previousEngine } from "./revision.ts";
 * assert.deepEqual(await previousEngine(false), { note: "previous engine: not timed" });
 * const got = await previousEngine("no-such-revision-0000");
 * assert(got.dir === undefined);
 * assert.match(got.note, /^previous engine no-such-revision-0000: not available \(.+\)$/);
 * ```
 */
export async function previousEngine(
  rev: string | false,
): Promise<{ dir?: string; note: string }> {
  if (!rev) return { note: "previous engine: not timed" };
  const got = await extractRevision(rev);
  return got.dir
    ? {
      dir: got.dir,
      note: `previous engine: revision ${rev} (git archive into a temporary folder)`,
    }
    : { note: `previous engine ${rev}: not available (${got.why})` };
}
