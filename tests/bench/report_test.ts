/**
 * `bench report` (lib/bench/report.ts) with a stand-in for the kit (`true`): the waits are run
 * for both revisions, alternating, and the table has its shape. Nothing is timed against a
 * number: speed is measured by the benchmark itself.
 */
import { assert, assertEquals, assertRejects } from "../assert.ts";
import { KitError } from "../../lib/errors.ts";
import { benchReport, REPORT_TARGETS } from "../../lib/bench/report.ts";

Deno.test("bench report: every wait of both revisions, one table row per wait", async () => {
  const dir = await Deno.makeTempDir({ prefix: "kit-bench-report-test-" });
  try {
    const lines: string[] = [];
    const roots: string[] = [];
    const rows = await benchReport({
      repeats: 1,
      previous: "HEAD",
      dir,
      kit: (root) => {
        roots.push(root);
        return { cmd: "true", args: [] };
      },
      log: (l) => lines.push(l),
    });
    assertEquals(rows.map((r) => `${r.target} ${r.revision}`), [
      "lessons this",
      "lessons HEAD",
      "systems this",
      "systems HEAD",
      "unchanged this",
      "unchanged HEAD",
    ]);
    assert(rows.every((r) => r.runs.length === 1 && r.seconds === r.runs[0]));
    // The previous revision ran from its own extracted tree, removed after.
    assertEquals(new Set(roots).size, 2);
    const extracted = roots.find((r) => !r.startsWith(Deno.cwd()))!;
    assert(await Deno.stat(extracted).then(() => false, () => true), extracted);
    const table = lines.slice(lines.indexOf("") + 1);
    assertEquals(table.length, 2 + REPORT_TARGETS.length + 1);
    assert(
      table[0].startsWith("| wait | target s | this revision s (median) | runs | previous HEAD"),
    );
    for (const [i, t] of REPORT_TARGETS.entries()) {
      assert(table[2 + i].startsWith(`| ${t.name}: `), table[2 + i]);
      assertEquals(table[2 + i].split(" | ").length, 7);
    }
    assertEquals(table.at(-1), "targets met: 3 of 3");
    // The second system is the sample run with its scores negated.
    const negated = await Deno.readTextFile(`${dir}/negated.run`);
    assert(negated.startsWith("Q300 Q0 D300-0 1 -0.9 negated\n"), negated.slice(0, 80));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("bench report: without --dir a kit temporary folder, removed after; --dir a file is refused", async () => {
  const made = new Set<string>();
  const tmp = (Deno.env.get("TMPDIR") || "/tmp").replace(/\/+$/, "");
  const before = new Set([...Deno.readDirSync(tmp)].map((e) => e.name));
  await benchReport({
    repeats: 1,
    previous: "",
    kit: () => ({ cmd: "true", args: [] }),
    log: () => {},
  });
  for (const e of Deno.readDirSync(tmp)) {
    if (!before.has(e.name) && e.name.startsWith(`kit-bench-report-${Deno.pid}-`)) made.add(e.name);
  }
  assertEquals([...made], []);
  const file = await Deno.makeTempFile({ prefix: "kit-bench-report-test-" });
  try {
    const e = await assertRejects(
      () => benchReport({ repeats: 1, previous: "", dir: file, log: () => {} }),
      /--dir .*: not a folder/,
    );
    assert(e instanceof KitError && e.message.includes(file), e.message);
  } finally {
    await Deno.remove(file);
  }
});
