/**
 * A score cache on disk, keyed by model and text pair, so that re-running a notebook does
 * not rescore: one JSON file per model key under `<cache>/scores/`, read once and
 * rewritten atomically after each scoring job. The file is named by a readable label (the
 * model's name) and the first 16 hex digits of the key's sha256, so two keys never share a
 * file, and the key is stored inside and checked on reading.
 *
 * @module
 */
import { createHash } from "node:crypto";
import { KitError } from "../../errors.ts";
import { writeFileAtomic } from "../../io/atomic.ts";
import { readWholeFile } from "../../io/whole_file.ts";

/** Hex digest of a text pair (question and candidate joined by a NUL). */
export function pairKey(question: string, candidate: string): string {
  return createHash("sha256").update(question).update("\u0000").update(candidate).digest("hex")
    .slice(0, 32);
}

/** Scores of one model, by pair key. */
export class ScoreCache {
  /** The JSON file behind the cache. */
  readonly path: string;
  private scores = new Map<string, number>();
  private dirty = false;

  private constructor(path: string) {
    this.path = path;
  }

  /**
   * Opens (or starts) the cache of `modelKey` under `dir`, in the file
   * `<label>-<sha256(modelKey), 16 hex digits>.json` (`label` defaults to `scores`; characters
   * other than letters, digits, `.`, `_` and `-` become `_`).
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import { ScoreCache } from "./cache.ts";
   * const dir = await Deno.makeTempDir();
   * const c = await ScoreCache.open(dir, "m1", "tiny");
   * c.set("q", "a", 0.5);
   * await c.save();
   * assert((await ScoreCache.open(dir, "m1", "tiny")).get("q", "a") === 0.5);
   * assert(/\/tiny-[0-9a-f]{16}\.json$/.test(c.path));
   * assert((await ScoreCache.open(dir, "m2", "tiny")).path !== c.path);
   * ```
   */
  static async open(dir: string, modelKey: string, label = "scores"): Promise<ScoreCache> {
    const safe = label.replace(/[^\w.-]+/g, "_").replace(/^[.]+/, "_").slice(0, 80);
    const hash = createHash("sha256").update(modelKey).digest("hex").slice(0, 16);
    const c = new ScoreCache(`${dir}/${safe}-${hash}.json`);
    // The kit's own file: a link there is not (the kit never follows one out of its cache).
    try {
      if (Deno.lstatSync(c.path).isSymlink) {
        throw new KitError(
          "the score cache's file is a symbolic link, not a file the kit wrote; remove it (or " +
            "score with --no-cache)",
          { file: c.path },
        );
      }
    } catch (e) {
      if (!(e instanceof Deno.errors.NotFound)) throw e;
    }
    // Decoded as before (a bad byte makes the JSON, not the decoding, fail: "corrupt").
    const bytes = await readWholeFile(c.path, "scoreCache", { missingOk: true });
    const text = bytes && new TextDecoder().decode(bytes);
    if (text !== undefined) {
      // Nothing of the file is echoed: it may not be the kit's, and may hold anything.
      const corrupt = (what: string) =>
        new KitError(
          `corrupt score cache (${what}); delete it (or score with --no-cache): the kit ` +
            "writes it anew",
          { file: c.path },
        );
      let obj: unknown;
      try {
        obj = JSON.parse(text);
      } catch {
        throw corrupt("not the JSON the kit writes");
      }
      const o = obj as { modelKey?: unknown; scores?: unknown };
      if (typeof obj !== "object" || obj === null || Array.isArray(obj)) {
        throw corrupt("not a JSON object");
      }
      if (o.modelKey !== modelKey) {
        throw new KitError(
          typeof o.modelKey === "string" && /^[0-9a-f]{64}@\d+@\w+$/.test(o.modelKey)
            ? "score cache of another model, max length or backend in this file; delete it"
            : "not a score cache of the kit's (no model key of its form); delete it",
          { file: c.path },
        );
      }
      if (typeof o.scores !== "object" || o.scores === null || Array.isArray(o.scores)) {
        throw corrupt("no scores object");
      }
      for (const [k, v] of Object.entries(o.scores)) {
        if (typeof v !== "number" || !Number.isFinite(v)) {
          throw corrupt("a score that is not a number");
        }
        c.scores.set(k, v);
      }
    }
    c.modelKey = modelKey;
    return c;
  }

  private modelKey = "";

  /** Number of cached pairs. */
  get size(): number {
    return this.scores.size;
  }

  /** The cached score of a pair, if any. */
  get(question: string, candidate: string): number | undefined {
    return this.scores.get(pairKey(question, candidate));
  }

  /** Records a score. */
  set(question: string, candidate: string, score: number): void {
    this.scores.set(pairKey(question, candidate), score);
    this.dirty = true;
  }

  /** Writes the cache file (atomically) when something was added. */
  async save(): Promise<void> {
    if (!this.dirty) return;
    const scores = Object.fromEntries(this.scores);
    await writeFileAtomic(this.path, JSON.stringify({ modelKey: this.modelKey, scores }), {
      force: true,
    });
    this.dirty = false;
  }
}
