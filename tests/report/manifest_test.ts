/**
 * The manifest `.kit-report` is checked before a report deletes anything: a stale or
 * hand-edited one that lists a user's file (by name only, as an older kit wrote it, or with
 * another size and hash) does not make that file the report's. Without --force the report
 * refuses, saying why; with it the file is kept in the new report.
 */
import assert from "node:assert/strict";
import { runCli } from "../helpers.ts";
import { REPORT_MARKER } from "../../lib/report/build/foreign.ts";

const REPORT = (out: string) => ["report", "--only", "01", "--no-pdf", "--out", out];

Deno.test("a manifest listing a user's file does not let the report delete it (stale, hand-edited, an older kit's list)", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const out = `${dir}/R`;
    await Deno.mkdir(out);
    await Deno.writeTextFile(`${out}/old.html`, "an old report page");
    await Deno.writeTextFile(`${out}/NOTES.txt`, "my notes\n");
    const markers = {
      // An older kit's list of names, edited by hand to name the notes.
      names: { made_by: "deno task report", files: ["NOTES.txt", "old.html"] },
      // The kit's form, but NOTES.txt listed with another size and hash (a stale manifest).
      stale: {
        made_by: "deno task report",
        files: [{ path: "NOTES.txt", bytes: 3, sha256: "ab".repeat(32) }],
      },
      // A name outside the folder.
      outside: {
        made_by: "deno task report",
        files: [{ path: "../elsewhere.txt", bytes: 3, sha256: "ab".repeat(32) }],
      },
    };
    const why = {
      names:
        /its \.kit-report lists names with no sizes and hashes \(written by an earlier version of the kit\), so the report cannot show which files it wrote \(it deletes only those\)/,
      stale:
        /it holds 2 file\(s\) the report did not write \(NOTES\.txt, old\.html\) \(1 of them listed in \.kit-report but changed since the report wrote them: NOTES\.txt\)/,
      outside:
        /its \.kit-report names a file outside the folder: \.\.\/elsewhere\.txt, so the report cannot show/,
    };
    for (const [name, marker] of Object.entries(markers)) {
      await Deno.writeTextFile(`${out}/${REPORT_MARKER}`, JSON.stringify(marker));
      const r = await runCli(REPORT(out));
      assert.equal(r.code, 2, `${name}: ${r.stderr}`);
      assert.doesNotMatch(r.stderr, /executing/, name);
      assert.match(r.stderr, why[name as keyof typeof why], name);
      assert.equal(await Deno.readTextFile(`${out}/NOTES.txt`), "my notes\n", name);
    }
    // With --force the stale manifest's NOTES.txt is the user's: kept in the new report.
    await Deno.writeTextFile(`${out}/${REPORT_MARKER}`, JSON.stringify(markers.stale));
    const forced = await runCli([...REPORT(out), "--force"]);
    assert.equal(forced.code, 0, forced.stderr);
    assert.equal(await Deno.readTextFile(`${out}/NOTES.txt`), "my notes\n");
    const written = JSON.parse(await Deno.readTextFile(`${out}/${REPORT_MARKER}`));
    assert(!written.files.some((f: { path: string }) => f.path === "NOTES.txt"));
    for (const made of ["html/01-datasets.html", "solutions/01-datasets.html"]) {
      assert(written.files.some((f: { path: string }) => f.path === made), made);
    }
    assert(
      written.files.some((f: { path: string }) => f.path === "student/student-01-datasets.ipynb"),
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
