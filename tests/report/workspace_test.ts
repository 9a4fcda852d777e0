/**
 * The build folder beside the report (lib/report/workspace.ts): stale partial folders of
 * builds that are gone are swept, a running build's is not, nothing else is touched; the swap
 * puts the new report in place and removes the old one; a failed build is kept as
 * `<out>.failed`; the marker lists the files the report wrote, and a folder holding others is
 * not replaced without --force; inputs inside the report folder are refused.
 */
import assert from "node:assert/strict";
import {
  checkInputsOutside,
  checkReplaceable,
  foreignFiles,
  openWorkspace,
  REPORT_MARKER,
  sweepStale,
  writeMarker,
} from "../../lib/report/workspace.ts";

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

Deno.test("a failed build is kept as <out>.failed, replacing the previous failed attempt", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const out = `${dir}/report`;
    await Deno.mkdir(out);
    await Deno.writeTextFile(`${out}/index.html`, "old");
    for (const attempt of ["first", "second"]) {
      const ws = await openWorkspace(out, { log: () => {} });
      await Deno.writeTextFile(`${ws.dir}/index.html`, attempt);
      const extra = await Deno.makeTempDir();
      ws.also.push(extra);
      assert.equal(ws.keepFailed(), `${out}.failed`);
      assert.equal(await Deno.readTextFile(`${out}.failed/index.html`), attempt);
      assert.equal(await Deno.stat(extra).then(() => true, () => false), false);
    }
    assert.equal(await Deno.readTextFile(`${out}/index.html`), "old");
    assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name).sort(), [
      "report",
      "report.failed",
    ]);
    // A folder of the user's under that name is not replaced: the attempt is then removed.
    await Deno.remove(`${out}.failed`, { recursive: true });
    await Deno.mkdir(`${out}.failed`);
    await Deno.writeTextFile(`${out}.failed/mine.txt`, "mine");
    const ws = await openWorkspace(out, { log: () => {} });
    assert.equal(ws.keepFailed(), undefined);
    assert.deepEqual([...Deno.readDirSync(`${out}.failed`)].map((e) => e.name), ["mine.txt"]);
    assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name).sort(), [
      "report",
      "report.failed",
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the marker lists what the report wrote; other files stop a replacement without --force", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const out = `${dir}/report`;
    const ws = await openWorkspace(out, { log: () => {} });
    await Deno.mkdir(`${ws.dir}/runs`);
    await Deno.writeTextFile(`${ws.dir}/runs/01-bm.run`, "run");
    await Deno.writeTextFile(`${ws.dir}/index.html`, "new");
    await writeMarker(ws.dir);
    ws.swapIn();
    const marker = JSON.parse(await Deno.readTextFile(`${out}/${REPORT_MARKER}`));
    assert.deepEqual(marker.files, ["index.html", "runs/01-bm.run"]);
    assert.deepEqual(foreignFiles(out), []);
    await checkReplaceable(out, false);

    await Deno.writeTextFile(`${out}/NOTES.txt`, "mine");
    await Deno.writeTextFile(`${out}/runs/mine.run`, "mine");
    assert.deepEqual(foreignFiles(out), ["NOTES.txt", "runs/mine.run"]);
    await assert.rejects(
      () => checkReplaceable(out, false),
      (e: Error) =>
        e.message ===
          `${out}: refusing to replace this report: it holds 2 file(s) the report did not write ` +
            "(NOTES.txt, runs/mine.run); move them out of it or choose another --out (--force " +
            "deletes them with the old report)",
    );
    await checkReplaceable(out, true);

    // A marker of an older kit (plain text): the report's layout is the kit's, the rest not.
    await Deno.writeTextFile(`${out}/${REPORT_MARKER}`, "made by deno task report\n");
    assert.deepEqual(foreignFiles(out), ["NOTES.txt"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("inputs inside the report folder are refused, through links too", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const out = `${dir}/R`;
    await Deno.mkdir(`${out}/runs`, { recursive: true });
    await Deno.writeTextFile(`${out}/runs/01-bm.run`, "");
    await Deno.writeTextFile(`${dir}/base.run`, "");
    await Deno.symlink(`${out}/runs/01-bm.run`, `${dir}/prev.run`);
    await checkInputsOutside(out, [
      { label: "--run base", path: `${dir}/base.run` },
      { label: "--model m", path: "lexical:bm25" },
    ]);
    await assert.rejects(
      () => checkInputsOutside(out, [{ label: "--run prev", path: `${dir}/prev.run` }]),
      (e: Error) =>
        e.message.startsWith(
          `${dir}/prev.run: --run prev is inside the report folder ${out}, which the report ` +
            "replaces",
        ),
    );
    await assert.rejects(
      () => checkInputsOutside(out, [{ label: "--model m", path: out }]),
      /--model m is inside the report folder/,
    );
    // No report folder yet: nothing can be inside it.
    await checkInputsOutside(`${dir}/new`, [{ label: "--run x", path: `${dir}/base.run` }]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
