/**
 * The install marker check (`verifyInstalled`) on a small corpus laid out by hand: an intact
 * install passes on stamps alone, a touched file is hashed once (a note; its new stamp recorded
 * in the marker), a copied corpus gives one note for all its files, an
 * edited one and a missing one are errors naming the file and the restoring command, and a
 * marker of an older kit (sha256 only) is checked by hash without a note.
 *
 * No test waits for the clock: an edit's later modification time is set explicitly
 * (`Deno.utime`), and a copy's later change time (which nothing can set, and which Deno gives
 * to the second) by recording the install's change times a second earlier in the marker.
 */
import { assert, assertEquals, assertThrows } from "../assert.ts";
import { fileSha256, fileStamp, verifyInstalled } from "../../lib/data/installed.ts";

/** Sets a file's modification time a second past what it is (an edit made later). */
async function setLater(path: string): Promise<void> {
  const later = new Date((await Deno.stat(path)).mtime!.getTime() + 1000);
  await Deno.utime(path, later, later);
}

async function installed(files: Record<string, string>, stamps = true): Promise<string> {
  const dir = await Deno.makeTempDir();
  await Deno.mkdir(`${dir}/qrcd`);
  const marker: Record<string, unknown> = {};
  for (const [name, text] of Object.entries(files)) {
    const path = `${dir}/qrcd/${name}`;
    await Deno.writeTextFile(path, text);
    const sha256 = fileSha256(path);
    marker[`qrcd/${name}`] = stamps ? { sha256, ...fileStamp(path) } : sha256;
  }
  await Deno.writeTextFile(
    `${dir}/qrcd/.installed.json`,
    JSON.stringify({ dataset: "qrcd", source: "test", files: marker }),
  );
  return dir;
}

Deno.test("verifyInstalled: intact, touched (one note), edited, missing", async () => {
  const dir = await installed({ "a.jsonl": "one\n", "b.jsonl": "two\n" });
  assertEquals(verifyInstalled("qrcd", dir), []);
  const later = new Date(Date.now() + 60_000);
  await Deno.utime(`${dir}/qrcd/a.jsonl`, later, later);
  const notes = verifyInstalled("qrcd", dir, "FETCH");
  assertEquals(notes.length, 1);
  assert(notes[0].includes("a.jsonl was touched or copied after installation"), notes[0]);
  assert(notes[0].includes("recorded in its install marker"), notes[0]);
  assertEquals(verifyInstalled("qrcd", dir), [], "hashed once per process, then remembered");
  // The new stamp is in the marker: the next process checks stamps alone.
  const marker = JSON.parse(await Deno.readTextFile(`${dir}/qrcd/.installed.json`));
  assertEquals(marker.files["qrcd/a.jsonl"].mtimeMs, later.getTime());
  // An edit comes later than the install (times are compared to the millisecond; the file
  // system's clock may not have moved on yet, so the edit's time is set).
  await Deno.writeTextFile(`${dir}/qrcd/b.jsonl`, "twO\n");
  await setLater(`${dir}/qrcd/b.jsonl`);
  assertThrows(
    () => verifyInstalled("qrcd", dir, "FETCH"),
    /b\.jsonl: changed after it was installed .*same size.*restore it with 'FETCH'/,
  );
  await Deno.remove(`${dir}/qrcd/b.jsonl`);
  assertThrows(() => verifyInstalled("qrcd", dir), /b\.jsonl: is missing/);
  assertEquals(verifyInstalled("qrcd", `${dir}/nothing-here`), []);
});

Deno.test("verifyInstalled: a copied corpus (every stamp new) gives one note for all files", async () => {
  const dir = await installed({ "a.jsonl": "one\n", "b.jsonl": "two\n", "c.jsonl": "three\n" });
  const copy = await Deno.makeTempDir();
  // Deno reports change times to the second, and nothing sets them: the install is recorded
  // as a second earlier, so the copy's change times (now) are later whatever the clock says.
  const path = `${dir}/qrcd/.installed.json`;
  const marker = JSON.parse(await Deno.readTextFile(path));
  for (const f of Object.values(marker.files) as { ctimeMs: number }[]) f.ctimeMs -= 1000;
  await Deno.writeTextFile(path, JSON.stringify(marker));
  const cp = await new Deno.Command("cp", { args: ["-a", `${dir}/qrcd`, `${copy}/qrcd`] }).output();
  assert(cp.success);
  const notes = verifyInstalled("qrcd", copy);
  assertEquals(notes.length, 1, notes.join("\n"));
  assert(notes[0].startsWith(`note: 3 files of ${copy}/qrcd were touched or copied`), notes[0]);
  assertEquals(verifyInstalled("qrcd", copy), []);
});

Deno.test("verifyInstalled: a marker of an older kit (sha256 only) is checked by hash", async () => {
  const dir = await installed({ "a.jsonl": "one\n" }, false);
  assertEquals(verifyInstalled("qrcd", dir), []);
  await Deno.writeTextFile(`${dir}/qrcd/a.jsonl`, "One\n");
  await setLater(`${dir}/qrcd/a.jsonl`); // not the stamp hashed a moment ago
  assertThrows(() => verifyInstalled("qrcd", dir), /a\.jsonl: changed after it was installed/);
});

Deno.test("verifyInstalled: a damaged marker is an error naming it", async () => {
  const dir = await installed({ "a.jsonl": "one\n" });
  await Deno.writeTextFile(`${dir}/qrcd/.installed.json`, '{"dataset": ');
  assertThrows(
    () => verifyInstalled("qrcd", dir),
    /\.installed\.json: the install marker is damaged/,
  );
});
