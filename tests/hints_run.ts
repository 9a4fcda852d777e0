/**
 * Runs what a message suggests, for `hints_test.ts`: TypeScript as a module importing the kit
 * (by path, or by URL from a server of this checkout's `lib/`), and command lines as the kit's
 * command line runs them.
 *
 * @module
 */
import assert from "node:assert/strict";
import { PROJECT_ROOT } from "../lib/data/paths.ts";
import { runCli } from "./helpers.ts";
import { publicNames } from "./hints_scan.ts";

/** The kit's public module, by path. */
export const MOD = new URL("../lib/mod.ts", import.meta.url).href;

/** The corpora as `data fetch --mirror` takes them (the network's stand-in), when here. */
export const MIRROR: string | undefined = (() => {
  try {
    return Deno.statSync(`${PROJECT_ROOT}/../shared/datasets`).isDirectory
      ? `${PROJECT_ROOT}/../shared/datasets`
      : undefined;
  } catch {
    return undefined;
  }
})();

/**
 * A module whose default export runs `code` (an expression) with `params` bound: the code's
 * public names come from `from` (the kit's `lib/mod.ts`, by path or URL), as a user's script
 * imports them. Every name the code calls must be a public name or a bound one; a name that is
 * neither fails here, as it would fail the user.
 */
export async function codeModule(
  code: string,
  params: Record<string, string>,
  from = MOD,
): Promise<string> {
  const names = await publicNames();
  for (const m of code.matchAll(/(?<![\w$.])([A-Za-z_$][\w$]*)\s*\(/g)) {
    assert(
      names.has(m[1]) || m[1] in params,
      `${m[1]} in \`${code}\` is neither a public name (lib/mod.ts) nor one the hint binds`,
    );
  }
  const used = [...names].filter((n) =>
    !(n in params) && new RegExp(`(?<![\\w$.])${n}\\b`).test(code)
  );
  const keys = Object.keys(params);
  const sig = keys.length
    ? `{ ${keys.join(", ")} }: { ${keys.map((k) => `${k}: ${params[k]}`).join("; ")} }`
    : "";
  return `import * as kit from "${from}";\nconst { ${used.join(", ")} } = kit;\n` +
    `export default async (${sig}) => (\n  ${code}\n);\n`;
}

/** The temporary folders made since {@link removeTemps} last ran. */
const temps: string[] = [];

/** A temporary folder, removed by {@link removeTemps} (each test calls it when done). */
export async function tempDir(prefix = "kit-hints-"): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix });
  temps.push(dir);
  return dir;
}

/** Removes the temporary folders made so far. */
export async function removeTemps(): Promise<void> {
  for (const dir of temps.splice(0)) await Deno.remove(dir, { recursive: true }).catch(() => {});
}

/** Imports a module's text (written to a temporary file) and calls its default export. */
export async function runModule(text: string, bind: Record<string, unknown>): Promise<unknown> {
  const file = `${await tempDir()}/hint.ts`;
  await Deno.writeTextFile(file, text);
  const mod = await import(new URL(`file://${file}`).href);
  return await mod.default(bind);
}

/**
 * Runs a module's text by URL in another process (the kit imported with no config, as a
 * script of a user's would), `bind` as JSON; returns what the default export gave, as JSON.
 */
export async function runModuleByUrl(
  text: string,
  bind: Record<string, unknown>,
  url: string,
): Promise<unknown> {
  const dir = await tempDir();
  await Deno.writeTextFile(`${dir}/hint.ts`, text);
  await Deno.writeTextFile(
    `${dir}/main.ts`,
    `import run from "./hint.ts";\nconsole.log(JSON.stringify(await run(${
      JSON.stringify(bind)
    })));\n`,
  );
  const out = await denoByUrl(["main.ts"], dir, url);
  assert.equal(out.code, 0, out.stderr);
  return JSON.parse(out.stdout);
}

/** `deno run -A` in `dir` with no config (a user's folder), the kit's URL reloaded. */
export async function denoByUrl(
  args: string[],
  dir: string,
  url: string,
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--no-config", "--no-lock", `--reload=${url}`, ...args],
    cwd: dir,
    env: { NO_COLOR: "1", ...env },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

/**
 * Runs a suggested command line as pasted: `./kit ...` and `deno task ...` through the kit's
 * command line (in `cwd`), `deno run -A URL/lib/cli/main.ts ...` by URL.
 */
export async function runCommand(
  line: string[],
  cwd: string,
): Promise<{ code: number; stdout: string; stderr: string }> {
  if (line[0] === "./kit") return await runCli(line.slice(1), { cwd });
  if (line[0] === "deno" && line[1] === "task") return await runCli(line.slice(2), { cwd });
  if (line[0] === "deno" && line[1] === "run" && line[2] === "-A") {
    const url = line[3].replace(/\/lib\/cli\/main\.ts$/, "");
    return await denoByUrl(line.slice(3), cwd, url);
  }
  throw new Error(`not a command line of the kit: ${line.join(" ")}`);
}

/** What `run` wrote with `console.error` (not shown), and what it gave. */
export async function stderrOf<T>(run: () => Promise<T>): Promise<{ value: T; stderr: string }> {
  const lines: string[] = [];
  const error = console.error;
  console.error = (...a: unknown[]) => lines.push(a.join(" "));
  try {
    return { value: await run(), stderr: lines.join("\n") };
  } finally {
    console.error = error;
  }
}

/** The message of what `run` throws (an assertion error when it throws nothing). */
export async function thrown(run: () => unknown): Promise<string> {
  try {
    await run();
  } catch (e) {
    return (e as Error).message;
  }
  throw new assert.AssertionError({ message: "expected an error, got none" });
}
