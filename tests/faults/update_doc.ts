/**
 * Rewrites the generated tables of `docs/bad-input.md` from the bad-input matrix and the fuzz
 * configuration: `deno run --allow-all tests/faults/update_doc.ts`.
 *
 * @module
 */
import { writeFileAtomic } from "../../lib/io/atomic.ts";
import { formatMarkdown, generatedParts, readmeParts, runMatrix, spliceDoc } from "./matrix.ts";
import { CAN } from "./scenarios/kit.ts";
import {
  allCanRun,
  runScenarios,
  scenarioDocParts,
  scenarioReadmeParts,
  SCENARIOS,
} from "./scenarios/mod.ts";

if (import.meta.main) {
  if (!allCanRun()) {
    const lacks = Object.entries(CAN).filter(([, ok]) => !ok).map(([n]) => n).join(", ");
    console.error(`cannot regenerate the command-fault tables here: this machine lacks ${lacks}`);
    Deno.exit(1);
  }
  const path = new URL("../../docs/bad-input.md", import.meta.url).pathname;
  const doc = await Deno.readTextFile(path);
  const { cells } = await runMatrix();
  const outcomes = await runScenarios();
  const failed = SCENARIOS.filter((_, i) => outcomes[i].kind !== "ok");
  if (failed.length) {
    console.error(`not rewriting: ${failed.length} scenario(s) failed, e.g. ${failed[0].tried}`);
    Deno.exit(1);
  }
  const next = await formatMarkdown(
    spliceDoc(doc, { ...generatedParts(cells), ...scenarioDocParts(outcomes) }),
  );
  if (next === doc) console.error(`${path} is up to date`);
  else {
    await writeFileAtomic(path, next, { force: true });
    console.error(`rewrote ${path}`);
  }
  const readme = new URL("../../README.md", import.meta.url).pathname;
  const text = await Deno.readTextFile(readme);
  const nextReadme = await formatMarkdown(
    spliceDoc(text, { ...readmeParts(cells), ...scenarioReadmeParts() }),
  );
  if (nextReadme !== text) {
    await writeFileAtomic(readme, nextReadme, { force: true });
    console.error(`rewrote ${readme}`);
  }
}
