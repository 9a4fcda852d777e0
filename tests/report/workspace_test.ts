/**
 * The build folder beside the report (lib/report/workspace.ts): stale partial folders of
 * builds that are gone are swept, a running build's is not, nothing else is touched; the swap
 * puts the new report in place and removes the old one.
 */
import assert from "node:assert/strict";
import { openWorkspace, REPORT_MARKER, sweepStale } from "../../lib/report/workspace.ts";

Deno.test("sweepStale removes only partial folders of builds that are gone", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const names = [
      "report.tmp-999999999-abc", // gone: removed
      `report.tmp-${Deno.pid}-abc`, // this process is running: kept
      "report.tmp-999999999-def", // an old report being swapped out by a gone build: removed
      "report.tmp-draft", // the user's: kept
      "other.tmp-999999999-abc", // another report's: kept
      "report", // the report: kept
    ];
    for (const n of names) await Deno.mkdir(`${dir}/${n}`);
    const removed = await sweepStale(`${dir}/report`);
    assert.deepEqual(removed.sort(), [
      `${dir}/report.tmp-999999999-abc`,
      `${dir}/report.tmp-999999999-def`,
    ]);
    const left = [...Deno.readDirSync(dir)].map((e) => e.name).sort();
    assert.deepEqual(
      left,
      ["other.tmp-999999999-abc", "report", `report.tmp-${Deno.pid}-abc`, "report.tmp-draft"]
        .sort(),
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a workspace swaps in whole, or is discarded leaving the old report", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const out = `${dir}/report`;
    await Deno.mkdir(out);
    await Deno.writeTextFile(`${out}/index.html`, "old");
    const failed = await openWorkspace(out, { log: () => {} });
    await Deno.writeTextFile(`${failed.dir}/index.html`, "half");
    failed.discard();
    assert.equal(await Deno.readTextFile(`${out}/index.html`), "old");
    const ws = await openWorkspace(out, { log: () => {} });
    assert.ok((await Deno.stat(`${ws.dir}/${REPORT_MARKER}`)).isFile);
    await Deno.writeTextFile(`${ws.dir}/index.html`, "new");
    const extra = await Deno.makeTempDir();
    ws.also.push(extra);
    ws.swapIn();
    assert.equal(await Deno.readTextFile(`${out}/index.html`), "new");
    assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name), ["report"]);
    assert.equal(await Deno.stat(extra).then(() => true, () => false), false);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
