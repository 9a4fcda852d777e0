/**
 * Downloads and the cache under faults the fetch tests (tests/data/fetch_test.ts) do not
 * cover: a server that closes the TCP connection mid-body (with and without a
 * Content-Length), a full disk while installing (the kernel's own ENOSPC, from `/dev/full`)
 * and a full disk while keeping a rejected file aside. In every case: no partial or temporary
 * file in the cache, the good files already there unchanged, no install marker for an
 * incomplete corpus, and a later run completes the install. Needs the shared mirror.
 */
import { assert, assertEquals, assertRejects } from "../assert.ts";
import { fetchDataset } from "../../lib/data/mod.ts";
import { findDataset } from "../../lib/data/datasets.ts";
import { PROJECT_ROOT } from "../../lib/data/paths.ts";
import { sha256Hex } from "../../lib/data/fetch.ts";
import { exists } from "../../lib/io/atomic.ts";

const MIRROR = Deno.env.get("QA_KIT_MIRROR") ?? `${PROJECT_ROOT}/../shared/datasets`;
const haveMirror = await exists(`${MIRROR}/qrcd/qrcd_v1.1_dev.jsonl`);
if (!haveMirror) {
  console.error(`skipping download fault tests: no mirror at ${MIRROR} (set QA_KIT_MIRROR)`);
}
const quiet = () => {};

/** Every file under `dir` with its sha256, relative paths sorted. */
async function snapshot(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  async function walk(d: string, rel: string) {
    for await (const e of Deno.readDir(d)) {
      if (e.isDirectory) await walk(`${d}/${e.name}`, `${rel}${e.name}/`);
      else out[`${rel}${e.name}`] = await sha256Hex(await Deno.readFile(`${d}/${e.name}`));
    }
  }
  if (await exists(dir)) await walk(dir, "");
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => a < b ? -1 : 1));
}

function noTemporaryFiles(snap: Record<string, string>): void {
  const tmp = Object.keys(snap).filter((p) => p.includes(".tmp-"));
  assertEquals(tmp, [], "temporary files left in the cache");
}

/**
 * A bare HTTP/1.1 server on a TCP socket, serving the upstream paths from the mirror. For
 * `cut`, it sends the headers and 40% of the body and then closes the connection; with
 * `announceLength` false it sends no Content-Length (the client cannot know it got less).
 */
function rawServer(options: { cut: string; announceLength: boolean }) {
  const files = new Map<string, Uint8Array>();
  for (const spec of findDataset("qrcd").files) {
    if (spec.upstream.kind === "url") {
      files.set(new URL(spec.upstream.url).pathname, Deno.readFileSync(`${MIRROR}/${spec.path}`));
    }
  }
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  const enc = new TextEncoder();
  const conns = new Set<Deno.Conn>();
  const serve = async (conn: Deno.Conn) => {
    conns.add(conn);
    try {
      const buf = new Uint8Array(65536);
      let head = "";
      while (!head.includes("\r\n\r\n")) {
        const n = await conn.read(buf);
        if (n === null) return;
        head += new TextDecoder().decode(buf.subarray(0, n));
      }
      const path = head.split(" ")[1];
      const body = files.get(path);
      if (!body) {
        await conn.write(enc.encode("HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n"));
        return;
      }
      const cut = path.endsWith(options.cut);
      const sent = cut ? body.subarray(0, Math.floor(body.length * 0.4)) : body;
      const length = options.announceLength || !cut ? `Content-Length: ${body.length}\r\n` : "";
      await conn.write(enc.encode(`HTTP/1.1 200 OK\r\n${length}Connection: close\r\n\r\n`));
      let off = 0;
      while (off < sent.length) off += await conn.write(sent.subarray(off));
    } catch {
      /* the client went away */
    } finally {
      conns.delete(conn);
      try {
        conn.close();
      } catch { /* closed */ }
    }
  };
  const loop = (async () => {
    for await (const conn of listener) serve(conn);
  })().catch(() => {});
  return {
    mapUrl: (u: string) => `http://127.0.0.1:${port}${new URL(u).pathname}`,
    async close() {
      listener.close();
      for (const c of conns) {
        try {
          c.close();
        } catch { /* closed */ }
      }
      await loop;
    },
  };
}

/** A cache holding a complete good qrcd install, with one file damaged so it is fetched again. */
async function cacheWithDamagedTrain(): Promise<string> {
  const dir = await Deno.makeTempDir();
  await fetchDataset("qrcd", { mirror: MIRROR, dir, log: quiet });
  await Deno.writeTextFile(`${dir}/qrcd/qrcd_v1.1_train.jsonl`, "damaged by the user\n");
  return dir;
}

Deno.test({
  name: "server closes the connection mid-body (Content-Length announced): nothing changes",
  ignore: !haveMirror,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const srv = rawServer({ cut: "qrcd_v1.1_train.jsonl", announceLength: true });
    try {
      const dir = await cacheWithDamagedTrain();
      const before = await snapshot(dir);
      await assertRejects(
        () => fetchDataset("qrcd", { dir, mapUrl: srv.mapUrl, log: quiet }),
        /qrcd_v1\.1_train\.jsonl (broke off after \d+ bytes|.*got \d+ of \d+ bytes).*nothing was installed/,
      );
      const after = await snapshot(dir);
      assertEquals(after, before, "the cache must be exactly as before");
      noTemporaryFiles(after);
    } finally {
      await srv.close();
    }
  },
});

Deno.test({
  name: "server closes mid-body without Content-Length: the checksum catches it, nothing installed",
  ignore: !haveMirror,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const srv = rawServer({ cut: "qrcd_v1.1_dev.jsonl", announceLength: false });
    try {
      const dir = await Deno.makeTempDir();
      await assertRejects(
        () => fetchDataset("qrcd", { dir, mapUrl: srv.mapUrl, log: quiet }),
        /checksum mismatch for qrcd\/qrcd_v1\.1_dev\.jsonl.*kept aside at .*rejected.*NOT installed/,
      );
      const after = await snapshot(dir);
      noTemporaryFiles(after);
      // Only the rejected copy exists: no corpus file, no marker.
      assertEquals(Object.keys(after).filter((p) => !p.startsWith("rejected/")), []);
      const [aside] = Object.keys(after);
      const full = (await Deno.stat(`${MIRROR}/qrcd/qrcd_v1.1_dev.jsonl`)).size;
      assertEquals((await Deno.stat(`${dir}/${aside}`)).size, Math.floor(full * 0.4));
    } finally {
      await srv.close();
    }
  },
});

/** A write function that lets `okFiles` files through, then writes to /dev/full (ENOSPC). */
function diskFullAfterFiles(okFiles: number) {
  let files = 0;
  const devFull = Deno.openSync("/dev/full", { write: true });
  const seen = new Set<Deno.FsFile>();
  return {
    write: async (file: Deno.FsFile, bytes: Uint8Array): Promise<number> => {
      if (!seen.has(file)) {
        seen.add(file);
        files++;
      }
      if (files <= okFiles) return await file.write(bytes);
      // Half of the first chunk reaches the disk, then it is full: a partial temp file exists.
      if (bytes.length > 1 && seen.size === okFiles + 1 && !partial.has(file)) {
        partial.add(file);
        return await file.write(bytes.subarray(0, bytes.length >> 1));
      }
      return await devFull.write(bytes);
    },
    close: () => devFull.close(),
  };
}
const partial = new Set<Deno.FsFile>();
const haveDevFull = await exists("/dev/full");

Deno.test({
  name:
    "disk full while installing: installed files complete, no partial file, no marker; a rerun finishes",
  ignore: !haveMirror || !haveDevFull,
  async fn() {
    const dir = await Deno.makeTempDir();
    const disk = diskFullAfterFiles(2);
    try {
      await assertRejects(
        () => fetchDataset("qrcd", { mirror: MIRROR, dir, log: quiet, write: disk.write }),
        /qrcd_v1\.1_test_noAnswers\.jsonl: could not write: the disk is full \(No space left on device.*unchanged/,
      );
    } finally {
      disk.close();
    }
    const after = await snapshot(dir);
    noTemporaryFiles(after);
    // The two files written before the disk filled up are complete and verified.
    const pinned = Object.fromEntries(findDataset("qrcd").files.map((s) => [s.path, s.sha256]));
    assertEquals(Object.keys(after).sort(), [
      "qrcd/qrcd_v1.1_dev.jsonl",
      "qrcd/qrcd_v1.1_train.jsonl",
    ]);
    for (const [p, sha] of Object.entries(after)) assertEquals(sha, pinned[p], p);
    assert(!(await exists(`${dir}/qrcd/.installed.json`)), "no marker for an incomplete install");
    // With space again, a rerun installs only what is missing.
    const r = await fetchDataset("qrcd", { mirror: MIRROR, dir, log: quiet });
    assertEquals(r.unchanged.sort(), ["qrcd/qrcd_v1.1_dev.jsonl", "qrcd/qrcd_v1.1_train.jsonl"]);
    assertEquals(r.installed.length, findDataset("qrcd").files.length - 2);
    assert(await exists(`${dir}/qrcd/.installed.json`));
  },
});

Deno.test({
  name: "disk full while replacing a damaged cache file: the rest of the cache is untouched",
  ignore: !haveMirror || !haveDevFull,
  async fn() {
    const dir = await cacheWithDamagedTrain();
    const before = await snapshot(dir);
    const disk = diskFullAfterFiles(0);
    try {
      await assertRejects(
        () => fetchDataset("qrcd", { mirror: MIRROR, dir, log: quiet, write: disk.write }),
        /qrcd_v1\.1_train\.jsonl: could not write: the disk is full/,
      );
    } finally {
      disk.close();
    }
    assertEquals(await snapshot(dir), before);
  },
});

Deno.test({
  name: "checksum mismatch on a full disk: the mismatch is still what the user is told",
  ignore: !haveMirror || !haveDevFull,
  async fn() {
    const bad = await Deno.makeTempDir();
    await Deno.mkdir(`${bad}/qrcd`);
    for (const s of findDataset("qrcd").files) {
      await Deno.copyFile(`${MIRROR}/${s.path}`, `${bad}/${s.path}`);
      await Deno.chmod(`${bad}/${s.path}`, 0o644);
    }
    await Deno.writeTextFile(`${bad}/qrcd/README.md`, "changed\n", { append: true });
    const dir = await Deno.makeTempDir();
    const disk = diskFullAfterFiles(0);
    try {
      await assertRejects(
        () => fetchDataset("qrcd", { mirror: bad, dir, log: quiet, write: disk.write }),
        /checksum mismatch for qrcd\/README\.md.*NOT installed \(nor kept aside: .*the disk is full/,
      );
    } finally {
      disk.close();
    }
    const after = await snapshot(dir);
    assertEquals(after, {});
  },
});
