/**
 * Files of a pinned npm package that pages embed (plotly.js, KaTeX, reveal.js): the package is
 * read from Deno's npm cache, where `deno info` downloads it on first use and says where it
 * lies. Nothing is fetched from a CDN, so every page the kit writes opens offline.
 *
 * @module
 */
import { KitError } from "../errors.ts";
import { KIT_ON_DISK, PROJECT_ROOT } from "../data/root.ts";
import { readWholeFileSync } from "./whole_file.ts";

const folders = new Map<string, string>();

/**
 * The folder of npm package `name@version` in Deno's npm cache (downloaded by `deno info` when
 * missing). A `KitError` names the package when Deno cannot provide it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { npmPackageDir } from "./npm_package.ts";
 * const dir = npmPackageDir("fflate", "0.8.2");
 * assert(JSON.parse(Deno.readTextFileSync(`${dir}/package.json`)).version === "0.8.2");
 * ```
 */
export function npmPackageDir(name: string, version: string): string {
  const key = `${name}@${version}`;
  const known = folders.get(key);
  if (known) return known;
  const specifier = `npm:${key}`;
  const out = new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", specifier],
    // In the kit's folder, under its deno.json and deno.lock: run from the user's folder (where
    // the kit works), Deno would take a deno.json there or above as the configuration and write
    // the package into that project's lock file.
    ...(KIT_ON_DISK ? { cwd: PROJECT_ROOT } : {}),
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).outputSync();
  if (!out.success) {
    throw new KitError(
      `cannot locate ${specifier} (deno info failed): ${
        new TextDecoder().decode(out.stderr).trim()
      }`,
    );
  }
  const info = JSON.parse(new TextDecoder().decode(out.stdout)) as {
    npmPackages?: Record<string, { localPath?: string }>;
  };
  const dir = info.npmPackages?.[key]?.localPath;
  if (!dir) throw new KitError(`deno info did not report a path for ${specifier}`);
  folders.set(key, dir);
  return dir;
}

/**
 * The text of a file of a package, checked to be safe inside an inline `<script>` or `<style>`
 * element: it must not contain the element's closing tag, which would end it early and break
 * every page silently.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { inlineAsset, npmPackageDir } from "./npm_package.ts";
 * const text = inlineAsset(`${npmPackageDir("fflate", "0.8.2")}/package.json`, "script");
 * assert(text.includes('"fflate"'));
 * ```
 */
export function inlineAsset(path: string, element: "script" | "style"): string {
  const text = new TextDecoder().decode(readWholeFileSync(path, "asset"));
  if (new RegExp(`</${element}`, "i").test(text)) {
    throw new KitError(`contains '</${element}' and cannot be inlined`, { file: path });
  }
  return text;
}
