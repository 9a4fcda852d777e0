/**
 * The command-level fault scenarios (tests/faults/scenarios/): each must do what it asserts;
 * the "command faults" tables of `docs/bad-input.md` and the README's summary must be what
 * they render. Scenarios that need root (device nodes), mounting (read-only and full file
 * systems) or the fetched corpora are ignored, with the reason, where those are missing.
 *
 * `QA_KIT_SCENARIOS=REGEX` runs alone the scenarios whose `CLASS: TRIED` (class id, then what
 * was tried) the regular expression matches; the others are ignored, and so is the check of the
 * doc's tables. E.g. the ones that signal, wait for or race a process, and the copies of an
 * installed corpus, repeated beside two CPU hogs as CI's two busy cores run them:
 *
 *     QA_KIT_SCENARIOS='^interrupts:|>\(wc -l\)|cp -a|same copy' \
 *       deno run -A tests/under_load.ts --runs 20 tests/faults/scenarios_test.ts
 */
import { assertEquals } from "../assert.ts";
import { formatMarkdown, spliceDoc } from "./matrix.ts";
import { CAN } from "./scenarios/kit.ts";
import {
  allCanRun,
  runScenarios,
  scenarioDocParts,
  SCENARIOS,
  scenarioSummaryParts,
} from "./scenarios/mod.ts";

const only = Deno.env.get("QA_KIT_SCENARIOS");
const picked = only ? new RegExp(only) : undefined;
const outcomes = await runScenarios(3, (s) => !picked || picked.test(`${s.cls}: ${s.tried}`));

SCENARIOS.forEach((s, i) => {
  const o = outcomes[i];
  const missing = o.kind === "skipped" ? o.missing.join(", ") : "";
  if (missing) console.error(`skipping "${s.tried}": needs ${missing}`);
  Deno.test({
    name: `fault (${s.cls}): ${s.tried.replace(/`/g, "")}`,
    ignore: o.kind === "skipped",
    fn() {
      if (o.kind === "failed") throw o.error;
    },
  });
});

Deno.test({
  name: "docs/bad-input.md holds the command-fault tables these scenarios produce",
  ignore: !allCanRun() || picked !== undefined,
  async fn() {
    const path = new URL("../../docs/bad-input.md", import.meta.url);
    const doc = await Deno.readTextFile(path);
    assertEquals(
      doc,
      await formatMarkdown(spliceDoc(doc, scenarioDocParts(outcomes))),
      "docs/bad-input.md is out of date: run deno run --allow-all tests/faults/update_doc.ts",
    );
  },
});
if (!allCanRun()) {
  console.error(
    `not checking the command-fault tables of docs/bad-input.md: this machine lacks ${
      Object.entries(CAN).filter(([, ok]) => !ok).map(([n]) => n).join(", ")
    }`,
  );
}

Deno.test("docs/bad-input.md holds the command-fault summary", async () => {
  const path = new URL("../../docs/bad-input.md", import.meta.url);
  const doc = await Deno.readTextFile(path);
  assertEquals(
    doc,
    await formatMarkdown(spliceDoc(doc, scenarioSummaryParts())),
    "docs/bad-input.md's command-fault summary is out of date: run deno run --allow-all tests/faults/update_doc.ts",
  );
});
