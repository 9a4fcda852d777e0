/**
 * Rewrites the generated tables of `docs/bad-input.md` from the bad-input matrix and the fuzz
 * configuration: `deno run --allow-all tests/faults/update_doc.ts`.
 *
 * @module
 */
import { writeFileAtomic } from "../../lib/io/atomic.ts";
import { formatMarkdown, generatedParts, runMatrix, spliceDoc, summaryParts } from "./matrix.ts";
import { CAN } from "./scenarios/kit.ts";
import { inputDocParts, runInputCases } from "./input_files.ts";
import {
  allCanRun,
  runScenarios,
  scenarioDocParts,
  SCENARIOS,
  scenarioSummaryParts,
} from "./scenarios/mod.ts";

/**
 * The command-fault tables, when every scenario can run here and did what it asserts; else
 * none (the tables in the doc stay as they are, and this says why).
 */
async function commandFaultParts(): Promise<Record<string, string>> {
  if (!allCanRun()) {
    const lacks = Object.entries(CAN).filter(([, ok]) => !ok).map(([n]) => n).join(", ");
    console.error(`not regenerating the command-fault tables: this machine lacks ${lacks}`);
    return {};
  }
  const outcomes = await runScenarios();
  const failed = SCENARIOS.filter((_, i) => outcomes[i].kind !== "ok");
  if (failed.length) {
    console.error(
      `not regenerating the command-fault tables: ${failed.length} scenario(s) failed, e.g. ` +
        failed[0].tried,
    );
    return {};
  }
  return scenarioDocParts(outcomes);
}

/** The whole-file limits and the input-file cases, when every case did what it asserts. */
async function inputFileParts(): Promise<Record<string, string>> {
  const outcomes = await runInputCases();
  const failed = outcomes.filter((o) => o.kind === "failed");
  if (failed.length) {
    console.error(`not regenerating the input-file tables: ${failed.length} case(s) failed`);
    return {};
  }
  return inputDocParts(outcomes);
}

if (import.meta.main) {
  const path = new URL("../../docs/bad-input.md", import.meta.url).pathname;
  const doc = await Deno.readTextFile(path);
  const { cells } = await runMatrix();
  const next = await formatMarkdown(
    spliceDoc(doc, {
      ...generatedParts(cells),
      ...await commandFaultParts(),
      ...summaryParts(cells),
      ...scenarioSummaryParts(),
      ...await inputFileParts(),
    }),
  );
  if (next === doc) console.error(`${path} is up to date`);
  else {
    await writeFileAtomic(path, next, { force: true });
    console.error(`rewrote ${path}`);
  }
}
