/**
 * The public API's contract (docs/CONVENTIONS.md): `lib/mod.ts` and every `lib/<area>/mod.ts`
 * export by name, every function and class they export has a runnable ```ts example (run by
 * `tests/doc_examples_test.ts`), `lib/mod.ts` fits one screen, no file in `lib/` is over 600 lines, and
 * every random draw goes through the one generator (`lib/stats/random.ts`).
 */
import assert from "node:assert/strict";
import { PROJECT_ROOT } from "../lib/data/paths.ts";

const LIB = `${PROJECT_ROOT}/lib`;

/** `lib/mod.ts` and every `lib/<area>/mod.ts`. */
function modFiles(): string[] {
  const areas = [...Deno.readDirSync(LIB)].filter((e) => e.isDirectory).map((e) => e.name);
  return [
    "lib/mod.ts",
    ...areas.sort().map((a) => `lib/${a}/mod.ts`).filter((p) => exists(`${PROJECT_ROOT}/${p}`)),
  ];
}

function exists(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}

/** Every `.ts` file under `dir`, as paths relative to the project root. */
function tsFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of Deno.readDirSync(`${PROJECT_ROOT}/${dir}`)) {
    const p = `${dir}/${e.name}`;
    if (e.isDirectory) out.push(...tsFiles(p));
    else if (e.name.endsWith(".ts")) out.push(p);
  }
  return out.sort();
}

interface DocTag {
  kind: string;
  doc?: string;
}
interface DocSymbol {
  name: string;
  declarations: { kind: string; jsDoc?: { tags?: DocTag[] } }[];
}
interface DocJson {
  nodes: Record<string, { symbols: DocSymbol[] }>;
}

/** A ```ts fence that `deno test --doc` and `tests/doc_examples_test.ts` run (not `ignore`d). */
const RUNNABLE = /```ts(?:x)?[ \t]*\n/;

/** `deno doc --json` of one module: its exported symbols, each fully declared. */
async function docOf(mod: string): Promise<DocSymbol[]> {
  // One module per run: documenting several together turns a symbol already shown in one into a
  // bare `reference` in the next.
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["doc", "--json", mod],
    cwd: PROJECT_ROOT,
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert(out.success, new TextDecoder().decode(out.stderr));
  const nodes = Object.values((JSON.parse(new TextDecoder().decode(out.stdout)) as DocJson).nodes);
  assert.equal(nodes.length, 1);
  return nodes[0].symbols;
}

Deno.test("api: every function and class a mod.ts exports has a runnable ```ts example", async () => {
  const mods = modFiles();
  const docs = await Promise.all(mods.map(docOf));
  const missing: string[] = [];
  let checked = 0;
  for (const [i, symbols] of docs.entries()) {
    for (const s of symbols) {
      const kinds = new Set(s.declarations.map((d) => d.kind));
      assert(!kinds.has("reference"), `${mods[i]}: ${s.name} not resolved by deno doc`);
      if (!kinds.has("function") && !kinds.has("class")) continue;
      checked++;
      const examples = s.declarations.flatMap((d) => d.jsDoc?.tags ?? [])
        .filter((t) => t.kind === "example" && RUNNABLE.test(t.doc ?? ""));
      if (examples.length === 0) missing.push(`${s.name} (exported by ${mods[i]})`);
    }
  }
  assert(checked > 100, `only ${checked} functions found: is deno doc's JSON still read right?`);
  assert.deepEqual(
    missing,
    [],
    `exported without a runnable \`\`\`ts example:\n${missing.join("\n")}`,
  );
});

Deno.test("api: mod.ts files export by name (no export *), lib/mod.ts fits one screen", () => {
  for (const mod of modFiles()) {
    const text = Deno.readTextFileSync(`${PROJECT_ROOT}/${mod}`);
    assert(!/^export \*/m.test(text), `${mod} re-exports with 'export *'`);
  }
  const lines = Deno.readTextFileSync(`${LIB}/mod.ts`).trimEnd().split("\n").length;
  assert(lines <= 62, `lib/mod.ts has ${lines} lines (one screen is 62)`);
});

Deno.test("api: no file in lib/ is over 600 lines", () => {
  const long = tsFiles("lib")
    .map((p) => [p, Deno.readTextFileSync(`${PROJECT_ROOT}/${p}`).split("\n").length] as const)
    .filter(([, n]) => n > 600)
    .map(([p, n]) => `${p}: ${n} lines`);
  assert.deepEqual(long, []);
});

Deno.test("api: one PRNG (mulberry32 in lib/stats/random.ts)", () => {
  // Math.random is unseeded; mulberry32's increment or an LCG's multiplier elsewhere would be a
  // second generator.
  const generator = /Math\.random\s*\(|0x6d2b79f5|1664525|6364136223846793005|1103515245/i;
  const found = tsFiles("lib")
    .filter((p) => p !== "lib/stats/random.ts")
    .filter((p) => generator.test(Deno.readTextFileSync(`${PROJECT_ROOT}/${p}`)));
  assert.deepEqual(found, []);
  assert(/0x6d2b79f5/.test(Deno.readTextFileSync(`${LIB}/stats/random.ts`)));
});

Deno.test("api: notebooks import only from lib/mod.ts, and it exports every name they use", async () => {
  const exported = new Set((await docOf("lib/mod.ts")).map((s) => s.name));
  const problems: string[] = [];
  let seen = 0;
  for (const e of Deno.readDirSync(`${PROJECT_ROOT}/notebooks`)) {
    if (!e.name.endsWith(".ipynb")) continue;
    const nb = JSON.parse(Deno.readTextFileSync(`${PROJECT_ROOT}/notebooks/${e.name}`));
    const code = (nb.cells as { cell_type: string; source: string[] | string }[])
      .filter((c) => c.cell_type === "code")
      .map((c) => Array.isArray(c.source) ? c.source.join("") : c.source).join("\n");
    for (const m of code.matchAll(/from\s*"(\.\.\/lib\/[^"]+)"/g)) {
      if (m[1] !== "../lib/mod.ts") problems.push(`${e.name}: imports ${m[1]}`);
    }
    for (
      const m of code.matchAll(/import\s+(?:type\s+)?\{([^}]*)\}\s*from\s*"\.\.\/lib\/mod\.ts"/g)
    ) {
      for (const raw of m[1].split(",")) {
        const name = raw.trim().replace(/^type\s+/, "").split(/\s+as\s+/)[0];
        if (!name) continue;
        seen++;
        if (!exported.has(name)) problems.push(`${e.name}: ${name} is not exported by lib/mod.ts`);
      }
    }
  }
  assert(seen > 50, `only ${seen} imported names found: is the notebooks' JSON still read right?`);
  assert.deepEqual(problems, []);
});
