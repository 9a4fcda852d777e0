/**
 * The command-level fault scenarios (what an outside tester tries against the commands: odd
 * output paths, unwritable folders, signals, closed pipes, edited corpora, malformed tags,
 * other folders, filter defaults), run as real processes. `scenarios_test.ts` runs them and
 * checks `docs/bad-input.md`, whose "command faults" tables are rendered from what they did
 * (`deno run --allow-all tests/faults/update_doc.ts` rewrites them).
 *
 * @module
 */
import { CORPUS_SCENARIOS } from "./corpus.ts";
import { FILTER_SCENARIOS } from "./filters.ts";
import { INTERRUPT_SCENARIOS } from "./interrupts.ts";
import { JACANA_SCENARIOS } from "./jacana.ts";
import { MACHINE_SCENARIOS, REPORT_DESTINATION_SCENARIOS } from "./machine.ts";
import { CAN, CLASSES, type ClassId, makeCtx, type Need, type Scenario } from "./kit.ts";
import { TARGET_SCENARIOS, UNWRITABLE_SCENARIOS } from "./outputs.ts";
import { PATH_SCENARIOS } from "./paths.ts";
import { STDOUT_SCENARIOS } from "./stdout.ts";

/** Every scenario, in doc order. */
export const SCENARIOS: Scenario[] = [
  ...TARGET_SCENARIOS,
  ...UNWRITABLE_SCENARIOS,
  ...REPORT_DESTINATION_SCENARIOS,
  ...INTERRUPT_SCENARIOS,
  ...STDOUT_SCENARIOS,
  ...CORPUS_SCENARIOS,
  ...JACANA_SCENARIOS,
  ...PATH_SCENARIOS,
  ...FILTER_SCENARIOS,
  ...MACHINE_SCENARIOS,
];

/** What running a scenario gave. */
export type Outcome =
  | { kind: "ok"; doc: string; seconds: number }
  | { kind: "failed"; error: unknown }
  | { kind: "skipped"; missing: Need[] };

/**
 * Runs every scenario (`limit` at a time; those `only` rejects are skipped); outcomes in the
 * order of {@link SCENARIOS}.
 */
export async function runScenarios(
  limit = 3,
  only: (s: Scenario) => boolean = () => true,
): Promise<Outcome[]> {
  const outcomes: Outcome[] = new Array(SCENARIOS.length);
  let next = 0;
  async function worker() {
    while (next < SCENARIOS.length) {
      const i = next++;
      const s = SCENARIOS[i];
      const missing = (s.needs ?? []).filter((n) => !CAN[n]);
      if (!only(s)) {
        outcomes[i] = { kind: "skipped", missing: [] };
        continue;
      }
      if (missing.length) {
        outcomes[i] = { kind: "skipped", missing };
        continue;
      }
      const { ctx, close } = await makeCtx();
      const t0 = performance.now();
      try {
        const doc = await s.run(ctx);
        outcomes[i] = { kind: "ok", doc, seconds: (performance.now() - t0) / 1000 };
      } catch (error) {
        outcomes[i] = { kind: "failed", error };
      } finally {
        await close();
      }
    }
  }
  await Promise.all(Array.from({ length: limit }, worker));
  return outcomes;
}

function cell(s: string): string {
  return s.replace(/\|/g, "\\|").replace(/\n/g, " ").replace(/\t/g, "\\t");
}

/** The doc's tables: one per class, each fault tried and what the kit did. */
export function renderScenarios(outcomes: Outcome[]): string {
  const out: string[] = [];
  for (const [cls, { title }] of Object.entries(CLASSES)) {
    out.push(`### ${title}`, "", "| tried | what the kit does |", "|---|---|");
    SCENARIOS.forEach((s, i) => {
      if (s.cls !== cls) return;
      const o = outcomes[i];
      const what = o.kind === "ok"
        ? o.doc
        : o.kind === "skipped"
        ? `not run here (needs ${o.missing.join(", ")})`
        : `**FAILED**: ${String((o.error as Error)?.message ?? o.error).split("\n")[0]}`;
      out.push(`| ${cell(s.tried)} | ${cell(what)} |`);
    });
    out.push("");
  }
  return out.join("\n");
}

/** docs/bad-input.md's summary: per class, how many faults were tried and what the kit does. */
export function renderSummary(): string {
  const counts = new Map<ClassId, number>();
  for (const s of SCENARIOS) counts.set(s.cls, (counts.get(s.cls) ?? 0) + 1);
  const rows = Object.entries(CLASSES).map(([cls, c]) =>
    `| ${cell(c.title)} | ${counts.get(cls as ClassId) ?? 0} | ${cell(c.summary)} |`
  );
  return ["| fault class | tried | what the kit does |", "|---|---:|---|", ...rows].join("\n") +
    "\n";
}

/** The generated parts of `docs/bad-input.md` these scenarios own. */
export function scenarioDocParts(outcomes: Outcome[]): Record<string, string> {
  return {
    "command faults": `Faults tried: **${SCENARIOS.length}**.\n\n${renderScenarios(outcomes)}`,
  };
}

/** The summary part of docs/bad-input.md these scenarios own. */
export function scenarioSummaryParts(): Record<string, string> {
  return { "command faults summary": renderSummary() };
}

/** Whether every scenario can run on this machine (else the doc cannot be regenerated here). */
export function allCanRun(): boolean {
  return SCENARIOS.every((s) => (s.needs ?? []).every((n) => CAN[n]));
}
