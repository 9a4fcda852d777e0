/**
 * The build folder beside the report (lib/report/build/workspace.ts): stale partial folders of
 * builds that are gone are swept, a running build's is not, nothing else is touched; the swap
 * puts the new report in place and removes the old one; a failed build is kept as
 * `<out>.failed`; the marker lists the files the report wrote, and a folder holding others is
 * not replaced without --force, and with it they are carried over into the new report (same
 * bytes, mode and time), never deleted; inputs inside the report folder are refused.
 */
import assert from "node:assert/strict";
import {
  carryForeign,
  collisions,
  foreignFiles as foreignEntries,
  manifestOf,
  plannedKinds,
  uncarried,
} from "../../lib/report/build/foreign.ts";
import {
  checkInputsOutside,
  checkReplaceable,
  foreignFiles,
  openWorkspace,
  REPORT_MARKER,
  sweepStale,
  writeMarker,
} from "../../lib/report/build/workspace.ts";
import { runCli } from "../helpers.ts";

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
    const removed = sweepStale(`${dir}/report`);
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
    await writeMarker(out);
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
      // A failure before the pages leaves their folders empty: the next attempt replaces it all
      // the same (the kept one has no empty folder, which its manifest could not list).
      await Deno.mkdir(`${ws.dir}/html`);
      await Deno.mkdir(`${ws.dir}/screenshots/deep`, { recursive: true });
      // summary.json is written before the last checks, which may fail; its paths are
      // relative to the folder, so it holds as it is in the kept attempt.
      const summary = { index: "index.html", other: "/elsewhere/a", n: [1] };
      await Deno.writeTextFile(`${ws.dir}/summary.json`, JSON.stringify(summary));
      const extra = await Deno.makeTempDir();
      ws.also.push(extra);
      assert.equal(ws.keepFailed(), `${out}.failed`);
      assert.equal(await Deno.readTextFile(`${out}.failed/index.html`), attempt);
      assert.deepEqual(JSON.parse(await Deno.readTextFile(`${out}.failed/summary.json`)), summary);
      assert.equal(await Deno.stat(extra).then(() => true, () => false), false);
      assert.deepEqual([...Deno.readDirSync(`${out}.failed`)].map((e) => e.name).sort(), [
        ".kit-report",
        "index.html",
        "summary.json",
      ]);
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
    assert.deepEqual(marker.files, [
      {
        path: "index.html",
        bytes: 3,
        sha256: "11507a0e2f5e69d5dfa40a62a1bd7b6ee57e6bcd85c67c9b8431b36fff21c437",
      },
      {
        path: "runs/01-bm.run",
        bytes: 3,
        sha256: "acba25512100f80b56fc3ccd14c65be55d94800cda77585c5f41a887e398f9be",
      },
    ]);
    assert.deepEqual(foreignFiles(out), []);
    const planned = plannedKinds(["index.html", "runs/01-bm.run"]);
    await checkReplaceable(out, false, planned);

    await Deno.writeTextFile(`${out}/NOTES.txt`, "mine");
    await Deno.writeTextFile(`${out}/runs/mine.run`, "mine");
    assert.deepEqual(foreignFiles(out), ["NOTES.txt", "runs/mine.run"]);
    await assert.rejects(
      () => checkReplaceable(out, false, planned),
      (e: Error) =>
        e.message ===
          `${out}: refusing to replace this report: it holds 2 file(s) the report did not write ` +
            "(NOTES.txt, runs/mine.run); move them out of it or choose another --out (--force " +
            "replaces only what the report wrote and keeps them)",
    );
    await checkReplaceable(out, true, planned);
    // With --force, still refused before any work where one sits at a path the report writes.
    await assert.rejects(
      () => checkReplaceable(out, true, plannedKinds(["index.html", "runs/mine.run"])),
      (e: Error) =>
        e.message ===
          `${out}: refusing to build: 1 file(s) the report did not write sit where the new ` +
            "report writes (runs/mine.run); the report never deletes a file it did not write, " +
            "so move or rename them, or choose another --out",
    );
    // A folder without the marker: every file in it is the user's.
    await Deno.mkdir(`${dir}/plain/empty`, { recursive: true });
    await Deno.writeTextFile(`${dir}/plain/index.html`, "mine");
    assert.deepEqual(foreignEntries(`${dir}/plain`, { folders: true }), ["empty/", "index.html"]);
    // A refusal suggests --force only where --force would build (a tester was sent to a --force
    // that refused): not here, where the new report writes index.html.
    await assert.rejects(
      () => checkReplaceable(`${dir}/plain`, false, planned),
      (e: Error) =>
        e.message.endsWith(
          "(it has no .kit-report); choose another --out (not with --force either: 1 file(s) " +
            "of yours sit where the report writes: index.html)",
        ),
    );
    await assert.rejects(
      () => checkReplaceable(`${dir}/plain`, true, planned),
      /sit where the new report writes \(index\.html\)/,
    );
    const elsewhere = plannedKinds(["html/a.html"]);
    await assert.rejects(
      () => checkReplaceable(`${dir}/plain`, false, elsewhere),
      /no \.kit-report.*pass --force/,
    );
    await checkReplaceable(`${dir}/plain`, true, elsewhere);

    // A marker that shows nothing (an older kit's plain text or list of names): every file is
    // foreign, and the folder is refused without --force, saying why.
    for (
      const old of [
        "made by deno task report\n",
        JSON.stringify({ made_by: "x", files: ["index.html"] }),
      ]
    ) {
      await Deno.writeTextFile(`${out}/${REPORT_MARKER}`, old);
      assert.deepEqual(foreignFiles(out), [
        "NOTES.txt",
        "index.html",
        "runs/01-bm.run",
        "runs/mine.run",
      ]);
      await assert.rejects(
        () => checkReplaceable(out, false, planned),
        /: refusing to replace this folder: its \.kit-report (is not the JSON manifest the kit writes|lists names with no sizes and hashes \(written by an earlier version of the kit\)), so the report cannot show which files it wrote/,
      );
    }
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
      () => checkInputsOutside(out, [{ label: "--model m", path: `${out}/runs` }]),
      /--model m is inside the report folder/,
    );
    // --out naming the input itself: said as it is, not "inside the report folder"; a file
    // in the words every writer uses for its own input, a folder (a model's) in the report's.
    await assert.rejects(
      () =>
        checkInputsOutside(`${dir}/base.run`, [{ label: "--run mine", path: `${dir}/base.run` }]),
      (e: Error) =>
        e.message ===
          `--out ${dir}/base.run is one of this command's inputs (${dir}/base.run): writing it ` +
            "would destroy what the command reads, even with --force; choose another --out",
    );
    await Deno.mkdir(`${dir}/model`);
    await assert.rejects(
      () => checkInputsOutside(`${dir}/model`, [{ label: "--model m", path: `${dir}/model` }]),
      (e: Error) =>
        e.message ===
          `${dir}/model: --model m is the path --out names (${dir}/model): the report ` +
            "writes a folder there and never replaces an input; choose another --out, e.g. " +
            "reports/mine",
    );
    // No report folder yet: nothing can be inside it.
    await checkInputsOutside(`${dir}/new`, [{ label: "--run x", path: `${dir}/base.run` }]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a report whose folder is the caller's working folder, or holds it, is refused before any work (a real process)", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const out = `${dir}/R`;
    await Deno.mkdir(`${out}/sub`, { recursive: true });
    await Deno.writeTextFile(`${out}/${REPORT_MARKER}`, "{}");
    await Deno.writeTextFile(`${out}/mine.txt`, "kept");
    const cases: [string, string][] = [[out, "."], [`${out}/sub`, ".."], [`${out}/sub`, out]];
    for (const [cwd, outArg] of cases) {
      const r = await runCli(
        ["report", "--only", "01", "--no-pdf", "--out", outArg, "--force"],
        { cwd },
      );
      assert.equal(r.code, 2, r.stderr);
      assert.match(
        r.stderr,
        /is the current folder(?: or holds it)? \(.*\), which the report replaces: .*run from elsewhere \(e\.g\. cd \.\.\) or choose another --out/,
      );
      assert.equal(r.stderr.trim().split("\n").length, 1, r.stderr);
      assert.equal(await Deno.readTextFile(`${out}/mine.txt`), "kept");
      assert((await Deno.stat(`${out}/sub`)).isDirectory);
      await assert.rejects(() => Deno.stat(`${out}.failed`), Deno.errors.NotFound);
    }
    // The caller beside the folder, not in it: no refusal from this check.
    await checkInputsOutside(out, [], dir);
    await checkInputsOutside(out, [], `${dir}/Rx`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/** Everything below `dir` with its bytes (or link target), mode and modification time. */
function entriesOf(dir: string, skip: (path: string) => boolean = () => false): string[] {
  const out: string[] = [];
  const walk = (rel: string) => {
    for (const e of Deno.readDirSync(rel ? `${dir}/${rel}` : dir)) {
      const path = rel ? `${rel}/${e.name}` : e.name;
      const st = Deno.lstatSync(`${dir}/${path}`);
      if (skip(path)) {
        if (st.isDirectory) walk(path);
        continue;
      }
      const what = st.isSymlink
        ? `-> ${Deno.readLinkSync(`${dir}/${path}`)}`
        : st.isDirectory
        ? "folder"
        : Deno.readTextFileSync(`${dir}/${path}`);
      // A link's own time cannot be set by a copy (utime follows links); its target is what counts.
      const time = st.isSymlink ? "" : ` ${st.mtime?.toISOString()}`;
      out.push(`${path}: ${what} ${(st.mode! & 0o7777).toString(8)}${time}`);
      if (st.isDirectory) walk(path);
    }
  };
  walk("");
  return out.sort();
}

/** An old report with the user's files in it, dated and with modes of their own. */
async function reportWithUserFiles(out: string): Promise<void> {
  await Deno.mkdir(`${out}/html`, { recursive: true });
  await Deno.writeTextFile(`${out}/index.html`, "old index");
  await Deno.writeTextFile(`${out}/html/01-datasets.html`, "old page");
  await Deno.writeTextFile(
    `${out}/${REPORT_MARKER}`,
    JSON.stringify(
      manifestOf(out, "deno task report", ["html/01-datasets.html", "index.html"]),
    ),
  );
  await Deno.writeTextFile(`${out}/NOTES.txt`, "my notes\n", { mode: 0o600 });
  await Deno.chmod(`${out}/NOTES.txt`, 0o600);
  await Deno.writeTextFile(`${out}/html/mine.html`, "my page");
  await Deno.mkdir(`${out}/mine/deep`, { recursive: true });
  await Deno.writeTextFile(`${out}/mine/deep/a.run`, "q 0 d 1 1 x\n");
  await Deno.chmod(`${out}/mine/deep/a.run`, 0o444);
  await Deno.mkdir(`${out}/empty`);
  await Deno.symlink("NOTES.txt", `${out}/notes-link`);
  const then = new Date("2001-02-03T04:05:06.789Z");
  for (
    const p of ["NOTES.txt", "html/mine.html", "mine/deep/a.run", "mine/deep", "mine", "empty"]
  ) {
    await Deno.utime(`${out}/${p}`, then, then);
  }
  await Deno.chmod(`${out}/mine/deep`, 0o750);
  await Deno.chmod(`${out}/mine`, 0o500); // read-only: filled before its mode is set
}

/** The old report's own files, and its folder html/ (which the new report makes anew). */
const isReportFile = (p: string) =>
  ["index.html", "html", "html/01-datasets.html", REPORT_MARKER].includes(p);

Deno.test("the swap replaces only what the report wrote: the user's files, folders and links go on, same bytes, mode and time", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const out = `${dir}/report`;
    await reportWithUserFiles(out);
    const users = entriesOf(out, isReportFile);
    assert.deepEqual(foreignEntries(out, { folders: true }), [
      "NOTES.txt",
      "empty/",
      "html/mine.html",
      "mine/deep/a.run",
      "notes-link",
    ]);
    const ws = await openWorkspace(out, { log: () => {} });
    await Deno.mkdir(`${ws.dir}/html`);
    await Deno.writeTextFile(`${ws.dir}/index.html`, "new index");
    await Deno.writeTextFile(`${ws.dir}/html/00-your-systems.html`, "new page");
    await writeMarker(ws.dir);
    const carried = await carryForeign(out, ws.dir);
    assert.equal(carried.length, 5);
    // A file added after the carry (during the last moments of the build) is moved at the swap.
    await Deno.writeTextFile(`${out}/LATE.txt`, "late");
    assert.deepEqual(uncarried(out, ws.dir), ["LATE.txt"]);
    assert.equal(ws.swapIn(), undefined);
    assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name), ["report"]);
    // The old report's own page is gone, the new one's pages are there, the user's unchanged.
    assert.deepEqual(
      entriesOf(
        out,
        (p) => isReportFile(p) || p === "LATE.txt" || p === "html/00-your-systems.html",
      ),
      users,
    );
    assert.equal(await Deno.readTextFile(`${out}/index.html`), "new index");
    assert.equal(await Deno.readTextFile(`${out}/LATE.txt`), "late");
    assert.equal(await Deno.stat(`${out}/html/01-datasets.html`).then(() => 1, () => 0), 0);
    // The new marker lists only what the new report wrote: the user's files stay theirs.
    assert.deepEqual(
      JSON.parse(await Deno.readTextFile(`${out}/${REPORT_MARKER}`)).files.map((
        f: { path: string },
      ) => f.path),
      ["html/00-your-systems.html", "index.html"],
    );
  } finally {
    await Deno.chmod(`${dir}/report/mine`, 0o755).catch(() => {});
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("carried over as copies where hard links fail (another file system): same bytes, mode and time", async () => {
  const shm = "/dev/shm";
  const other = await Deno.stat(shm).then((s) => s.dev, () => undefined);
  const dir = await Deno.makeTempDir();
  if (other === undefined || other === (await Deno.stat(dir)).dev) {
    console.log(`skipped: ${shm} is not a file system of its own here`);
    await Deno.remove(dir);
    return;
  }
  const old = await Deno.makeTempDir({ dir: shm });
  try {
    await reportWithUserFiles(old);
    const users = entriesOf(old, isReportFile);
    await carryForeign(old, dir);
    assert.deepEqual(entriesOf(dir, isReportFile), users);
    assert.deepEqual(uncarried(old, dir), []);
    assert.notEqual(
      (await Deno.stat(`${dir}/NOTES.txt`)).ino,
      (await Deno.stat(`${old}/NOTES.txt`)).ino,
    );
  } finally {
    for (const d of [old, dir]) {
      await Deno.chmod(`${d}/mine`, 0o755).catch(() => {});
      await Deno.remove(d, { recursive: true });
    }
  }
});

Deno.test("a user's file where the new report wrote stops the carry before anything is carried; the old report stays", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const out = `${dir}/report`;
    await reportWithUserFiles(out);
    const before = entriesOf(out);
    const ws = await openWorkspace(out, { log: () => {} });
    await Deno.mkdir(`${ws.dir}/html/mine.html`, { recursive: true }); // a folder at its path
    await Deno.writeTextFile(`${ws.dir}/empty`, "a file where the user has a folder");
    await writeMarker(ws.dir);
    await assert.rejects(
      () => carryForeign(out, ws.dir),
      (e: Error) =>
        e.message.startsWith(
          `${out}: refusing to build: 2 file(s) the report did not write sit where the new ` +
            "report writes (empty/, html/mine.html)",
        ),
    );
    assert.equal(await Deno.stat(`${ws.dir}/NOTES.txt`).then(() => 1, () => 0), 0);
    ws.discard();
    assert.deepEqual(entriesOf(out), before);
    assert.deepEqual(
      collisions(["NOTES.txt", "x/"], plannedKinds(["x/y.html", "NOTES.txt/z"])),
      ["NOTES.txt"],
    );
  } finally {
    await Deno.chmod(`${dir}/report/mine`, 0o755).catch(() => {});
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("an old report a killed swap left is swept only when the user's files in it are in the report", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const out = `${dir}/report`;
    await Deno.mkdir(out);
    // Swapped out by a build killed before it removed it: NOTES.txt was carried, MORE.txt not.
    const old = `${out}.tmp-999999999-abc`;
    await Deno.mkdir(old);
    await Deno.writeTextFile(
      `${old}/${REPORT_MARKER}`,
      JSON.stringify({ made_by: "x", files: [] }),
    );
    await Deno.writeTextFile(`${old}/NOTES.txt`, "mine");
    await Deno.link(`${old}/NOTES.txt`, `${out}/NOTES.txt`);
    await Deno.writeTextFile(`${old}/MORE.txt`, "mine too");
    // A build killed while it ran: its folder is the kit's alone.
    const partial = `${out}.tmp-999999998-abc`;
    await Deno.mkdir(`${partial}/html`, { recursive: true });
    await Deno.writeTextFile(
      `${partial}/${REPORT_MARKER}`,
      "made by deno task report (unfinished)\n",
    );
    await Deno.writeTextFile(`${partial}/html/x.png`, "");
    const lines: string[] = [];
    assert.deepEqual(sweepStale(out, (l) => lines.push(l)), [partial]);
    assert.equal(lines.length, 1);
    assert.match(
      lines[0],
      /^kept .*report\.tmp-999999999-abc, an old report a killed build left: it holds files the report did not write \(MORE\.txt\)/,
    );
    await Deno.rename(`${old}/MORE.txt`, `${out}/MORE.txt`);
    assert.deepEqual(sweepStale(out), [old]);
    assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name), ["report"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a build stopped after the carry (interrupt, failed check) leaves the user's files in the old report, unchanged", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const out = `${dir}/report`;
    await reportWithUserFiles(out);
    const before = entriesOf(out);
    for (const end of ["discard", "keepFailed"] as const) {
      const ws = await openWorkspace(out, { log: () => {} });
      await Deno.writeTextFile(`${ws.dir}/index.html`, "new index");
      await writeMarker(ws.dir);
      await carryForeign(out, ws.dir);
      assert.equal(await Deno.readTextFile(`${ws.dir}/NOTES.txt`), "my notes\n");
      // What the interrupt handler and a failed build do with the workspace.
      if (end === "discard") ws.discard();
      else assert.equal(ws.keepFailed(), `${out}.failed`);
      assert.deepEqual(entriesOf(out), before, end);
    }
    await Deno.chmod(`${out}.failed/mine`, 0o755);
    await Deno.remove(`${out}.failed`, { recursive: true });
    assert.deepEqual(entriesOf(out), before, "removing the failed attempt removes only it");
  } finally {
    await Deno.chmod(`${dir}/report/mine`, 0o755).catch(() => {});
    await Deno.remove(dir, { recursive: true });
  }
});
