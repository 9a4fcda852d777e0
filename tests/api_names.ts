/**
 * The names a module exports, as `deno doc --json` lists them (test helper).
 *
 * @module
 */
import { PROJECT_ROOT } from "../lib/data/paths.ts";

/** Every exported name of `path` (values and types). */
export async function names(path: string): Promise<string[]> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["doc", "--json", path],
    cwd: PROJECT_ROOT,
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!out.success) throw new Error(new TextDecoder().decode(out.stderr));
  const json = JSON.parse(new TextDecoder().decode(out.stdout)) as {
    nodes: Record<string, { symbols: { name: string }[] }>;
  };
  return Object.values(json.nodes).flatMap((n) => n.symbols.map((s) => s.name));
}
