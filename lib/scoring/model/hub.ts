/**
 * Model folders: a local Hugging Face model directory, or a hub repo id downloaded into
 * the kit's cache (`https://huggingface.co/<repo>/resolve/<revision>/<file>`; the endpoint
 * is overridable with `HF_ENDPOINT` or an option, which is how the tests serve a model
 * from 127.0.0.1).
 *
 * @module
 */
import { KitError } from "../../errors.ts";
import { exists, writeFileAtomic } from "../../io/atomic.ts";
import { defaultCacheDir } from "../../data/paths.ts";

/**
 * Files a model folder needs (the Hugging Face layout): `config.json`, a tokenizer
 * (`tokenizer.json`, else a BERT `vocab.txt`) and ONNX weights; the first of each list found
 * is used.
 */
export const MODEL_FILES = {
  required: ["config.json"],
  tokenizer: ["tokenizer.json", "vocab.txt"],
  optional: ["tokenizer_config.json", "special_tokens_map.json"],
  weights: ["onnx/model.onnx", "model.onnx"],
} as const;

/** Where to download from and to. */
export interface HubOptions {
  /** Hub base URL (default `$HF_ENDPOINT` or `https://huggingface.co`). */
  endpoint?: string;
  /** Branch, tag or commit (default `main`). */
  revision?: string;
  /** Cache root (default: the kit's data cache); models go to `<root>/models/`. */
  cacheDir?: string;
  /** Bearer token for gated repos (default `$HF_TOKEN`). */
  token?: string;
  /** Called with bytes received so far for each file. */
  onDownloadProgress?: (file: string, received: number, total: number | undefined) => void;
}

const REPO_ID = /^[A-Za-z0-9][\w.-]*\/[\w.-]+$/;

/** True when `spec` looks like a hub repo id (`owner/name`) rather than a path. */
export function isRepoId(spec: string): boolean {
  return REPO_ID.test(spec) && !spec.startsWith(".") && !spec.includes("..");
}

/** The cache folder of a repo at a revision. */
export function cachedModelDir(repoId: string, options: HubOptions = {}): string {
  const root = options.cacheDir ?? defaultCacheDir();
  return `${root}/models/${repoId.replace("/", "--")}/${options.revision ?? "main"}`;
}

async function fetchFile(
  url: string,
  dest: string,
  file: string,
  options: HubOptions,
): Promise<boolean> {
  const token = options.token ?? Deno.env.get("HF_TOKEN");
  let res: Response;
  try {
    res = await fetch(url, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  } catch (e) {
    throw new KitError(`cannot reach ${url}: ${(e as Error).message}`);
  }
  if (res.status === 404) {
    await res.body?.cancel();
    return false;
  }
  if (!res.ok || !res.body) {
    await res.body?.cancel();
    throw new KitError(`download failed: HTTP ${res.status} for ${url}`);
  }
  const total = Number(res.headers.get("content-length")) || undefined;
  let received = 0;
  const body = res.body;
  async function* chunks() {
    for await (const c of body) {
      received += c.length;
      options.onDownloadProgress?.(file, received, total);
      yield c;
    }
  }
  await writeFileAtomic(dest, chunks(), { force: true });
  if (total !== undefined && received !== total) {
    await Deno.remove(dest).catch(() => {});
    throw new KitError(`download of ${url} ended after ${received} of ${total} bytes`);
  }
  return true;
}

/**
 * Downloads a model from the hub into the cache (once; a finished download is marked
 * with `.complete` and reused offline) and returns its folder.
 *
 * @example
 * ```ts
 * // A hub on 127.0.0.1 serving the tiny test model (`endpoint` is where a mirror goes).
 * import assert from "node:assert/strict";
 * import { downloadModel } from "./hub.ts";
 * const fixture = "tests/fixtures/tiny-model/cross-encoder";
 * const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
 *   const file = new URL(req.url).pathname.replace(/^\/org\/tiny\/resolve\/main\//, "");
 *   try {
 *     return new Response(await Deno.readFile(`${fixture}/${file}`));
 *   } catch {
 *     return new Response("not found", { status: 404 });
 *   }
 * });
 * const cacheDir = await Deno.makeTempDir();
 * const endpoint = `http://127.0.0.1:${server.addr.port}`;
 * const dir = await downloadModel("org/tiny", { endpoint, cacheDir });
 * assert(dir.startsWith(cacheDir));
 * assert.deepEqual(await Deno.readFile(`${dir}/config.json`), await Deno.readFile(`${fixture}/config.json`));
 * await server.shutdown();
 * await Deno.remove(cacheDir, { recursive: true });
 * ```
 */
export async function downloadModel(repoId: string, options: HubOptions = {}): Promise<string> {
  if (!isRepoId(repoId)) throw new KitError(`not a hub repo id: '${repoId}'`);
  const dir = cachedModelDir(repoId, options);
  if (await exists(`${dir}/.complete`)) return dir;
  const endpoint = (options.endpoint ?? Deno.env.get("HF_ENDPOINT") ?? "https://huggingface.co")
    .replace(/\/+$/, "");
  const rev = encodeURIComponent(options.revision ?? "main");
  const url = (f: string) => `${endpoint}/${repoId}/resolve/${rev}/${f}`;
  const got: string[] = [];
  /** The first of `names` the repo has, downloaded; undefined when it has none. */
  const firstOf = async (names: readonly string[]) => {
    for (const f of names) if (await fetchFile(url(f), `${dir}/${f}`, f, options)) return f;
    return undefined;
  };
  const where = `${repoId}@${options.revision ?? "main"}`;
  for (const f of MODEL_FILES.required) {
    if (!(await firstOf([f]))) throw new KitError(`${where} has no ${f} (${url(f)})`);
    got.push(f);
  }
  const tokenizer = await firstOf(MODEL_FILES.tokenizer);
  if (!tokenizer) {
    throw new KitError(`${where} has no tokenizer (${MODEL_FILES.tokenizer.join(" or ")})`);
  }
  got.push(tokenizer);
  for (const f of MODEL_FILES.optional) if (await firstOf([f])) got.push(f);
  const weights = await firstOf(MODEL_FILES.weights);
  if (!weights) {
    throw new KitError(
      `${repoId} has no ONNX weights (${MODEL_FILES.weights.join(" or ")}); ` +
        "export the model to ONNX first (e.g. with optimum) and load the folder by path",
    );
  }
  got.push(weights);
  await writeFileAtomic(
    `${dir}/.complete`,
    JSON.stringify({ repoId, revision: options.revision ?? "main", endpoint, files: got }) + "\n",
    { force: true },
  );
  return dir;
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await Deno.stat(path)).isDirectory;
  } catch {
    // NotFound, or a path through a file (`kit/x` where `kit` is a script): not a folder
    return false;
  }
}

/**
 * Resolves a model spec to a local folder: an existing path as is, otherwise a hub repo
 * id through {@link downloadModel}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resolveModelDir } from "./hub.ts";
 * const dir = await resolveModelDir("tests/fixtures/tiny-model/qa");
 * assert(dir === "tests/fixtures/tiny-model/qa");
 * ```
 */
export async function resolveModelDir(spec: string, options: HubOptions = {}): Promise<string> {
  if (await isDirectory(spec)) return spec;
  if (!isRepoId(spec)) throw new KitError(`no model folder at '${spec}'`);
  return await downloadModel(spec, options);
}
