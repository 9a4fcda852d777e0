/**
 * The fetch path end to end: from a mirror folder and from a local HTTP server that serves
 * the upstream layout (GitHub raw URLs at pinned commits, and Microsoft's WikiQA zip rebuilt
 * with CRLF members), plus every failure: checksum mismatch, missing mirror file, HTTP error,
 * offline, truncated download. Needs the shared mirror (`../shared/datasets`); skipped without it.
 */
import { zipSync } from "fflate";
import { assert, assertEquals, assertRejects } from "../assert.ts";
import { fetchDataset } from "../../lib/data/mod.ts";
import { DATASETS, findDataset } from "../../lib/data/datasets.ts";
import { PROJECT_ROOT } from "../../lib/data/paths.ts";
import { sha256Hex } from "../../lib/data/fetch.ts";
import { exists } from "../../lib/io/atomic.ts";

const MIRROR = Deno.env.get("QA_KIT_MIRROR") ?? `${PROJECT_ROOT}/../shared/datasets`;
const haveMirror = await exists(`${MIRROR}/qrcd/qrcd_v1.1_dev.jsonl`);
if (!haveMirror) console.error(`skipping fetch tests: no mirror at ${MIRROR} (set QA_KIT_MIRROR)`);
const quiet = () => {};

async function copyTree(from: string, to: string): Promise<void> {
  await Deno.mkdir(to, { recursive: true });
  for await (const e of Deno.readDir(from)) {
    if (e.isDirectory) await copyTree(`${from}/${e.name}`, `${to}/${e.name}`);
    else await Deno.copyFile(`${from}/${e.name}`, `${to}/${e.name}`);
  }
}

Deno.test({
  name: "fetch from a mirror installs verified files and is idempotent",
  ignore: !haveMirror,
  async fn() {
    const dir = await Deno.makeTempDir();
    const first = await fetchDataset("qrcd", { mirror: MIRROR, dir, log: quiet });
    assertEquals(first.installed.length, findDataset("qrcd").files.length);
    const again = await fetchDataset("qrcd", { mirror: MIRROR, dir, log: quiet });
    assertEquals(again.installed, []);
    assertEquals(again.unchanged.length, findDataset("qrcd").files.length);
    assert(await exists(`${dir}/qrcd/.installed.json`));
    // No temporary files left behind.
    for await (const e of Deno.readDir(`${dir}/qrcd`)) assert(!e.name.includes(".tmp-"), e.name);
  },
});

Deno.test({
  name: "checksum mismatch: bad file kept aside, nothing installed, good files kept",
  ignore: !haveMirror,
  async fn() {
    const dir = await Deno.makeTempDir();
    await fetchDataset("qrcd", { mirror: MIRROR, dir, log: quiet });
    const good = await Deno.readFile(`${dir}/qrcd/qrcd_v1.1_dev.jsonl`);
    // A corrupted mirror, and an installed file damaged so it must be fetched again.
    const bad = await Deno.makeTempDir();
    await copyTree(`${MIRROR}/qrcd`, `${bad}/qrcd`);
    await Deno.chmod(`${bad}/qrcd/qrcd_v1.1_train.jsonl`, 0o644);
    await Deno.writeTextFile(`${bad}/qrcd/qrcd_v1.1_train.jsonl`, "{}\n", { append: true });
    await Deno.writeTextFile(`${dir}/qrcd/qrcd_v1.1_train.jsonl`, "damaged");
    await Deno.remove(`${dir}/qrcd/.installed.json`);
    await assertRejects(
      () => fetchDataset("qrcd", { mirror: bad, dir, log: quiet }),
      /checksum mismatch for qrcd\/qrcd_v1\.1_train\.jsonl.*kept aside at .*rejected.*NOT installed/,
    );
    assertEquals(await Deno.readFile(`${dir}/qrcd/qrcd_v1.1_dev.jsonl`), good);
    assertEquals(await Deno.readTextFile(`${dir}/qrcd/qrcd_v1.1_train.jsonl`), "damaged");
    assert(!(await exists(`${dir}/qrcd/.installed.json`)), "no marker for an incomplete install");
    const rejected = [...Deno.readDirSync(`${dir}/rejected/qrcd`)].map((e) => e.name);
    assertEquals(rejected.length, 1);
    // A missing mirror file says what to do.
    await Deno.copyFile(
      `${MIRROR}/qrcd/qrcd_v1.1_train.jsonl`,
      `${bad}/qrcd/qrcd_v1.1_train.jsonl`,
    );
    await Deno.remove(`${bad}/qrcd/README.md`);
    const fresh = await Deno.makeTempDir();
    await assertRejects(
      () => fetchDataset("qrcd", { mirror: bad, dir: fresh, log: quiet }),
      /lacks qrcd\/README\.md/,
    );
    await assertRejects(
      () => fetchDataset("qrcd", { mirror: `${bad}/nope`, dir, log: quiet }),
      /does not exist/,
    );
  },
});

/** A local server that answers upstream URLs from the mirror (the path after the host). */
async function upstreamServer(options: { truncate?: string; crlf: boolean }) {
  const files = new Map<string, Uint8Array>();
  const zipMembers: Record<string, Uint8Array> = {};
  const enc = new TextEncoder();
  for (const specs of DATASETS.map((d) => d.files)) {
    for (const spec of specs) {
      let bytes = await Deno.readFile(`${MIRROR}/${spec.path}`);
      if (spec.upstream.kind === "zip") {
        // Microsoft's zip: members under WikiQACorpus/, text with CRLF line ends.
        if (spec.text && options.crlf) {
          bytes = enc.encode(new TextDecoder().decode(bytes).replace(/\r?\n/g, "\r\n"));
        }
        const name = typeof spec.upstream.member === "string"
          ? spec.upstream.member
          : "WikiQACorpus/Microsoft Research Data License Agreement.pdf";
        zipMembers[name] = bytes;
      } else {
        files.set(new URL(spec.upstream.url).pathname, bytes);
      }
    }
  }
  const zipUrl = findDataset("wikiqa").files[0].upstream.url;
  files.set(new URL(zipUrl).pathname, zipSync(zipMembers));
  const requests: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (req) => {
    const path = new URL(req.url).pathname;
    requests.push(path);
    const body = files.get(path);
    if (!body) return new Response("not found", { status: 404 });
    if (options.truncate && path.endsWith(options.truncate)) {
      // Announce the full length but send half, then close: a broken-off transfer.
      const half = body.subarray(0, body.length >> 1);
      return new Response(
        new ReadableStream({
          start(c) {
            c.enqueue(half);
            c.error(new Error("connection reset"));
          },
        }),
        { headers: { "content-length": String(body.length) } },
      );
    }
    return new Response(body as Uint8Array<ArrayBuffer>);
  });
  const base = `http://127.0.0.1:${server.addr.port}`;
  return {
    mapUrl: (u: string) => base + new URL(u).pathname,
    requests,
    close: () => server.shutdown(),
  };
}

Deno.test({
  name: "fetch from upstream over HTTP: GitHub raw files and the WikiQA zip (CRLF members)",
  ignore: !haveMirror,
  async fn() {
    const srv = await upstreamServer({ crlf: true });
    try {
      const dir = await Deno.makeTempDir();
      for (const name of ["wikiqa", "trecqa", "qrcd"] as const) {
        const r = await fetchDataset(name, { dir, mapUrl: srv.mapUrl, log: quiet });
        assertEquals(r.installed.length, findDataset(name).files.length);
      }
      // Installed text is LF and hashes to the pinned value.
      const tsv = await Deno.readFile(`${dir}/wikiqa/WikiQA-train.tsv`);
      assertEquals(await sha256Hex(tsv), findDataset("wikiqa").files[0].sha256);
      assert(srv.requests.some((p) => p.endsWith("WikiQACorpus.zip")));
      assert(
        srv.requests.some((p) =>
          p.includes("/castorini/data/056cbbcbf997cc0b35032430110c5e5e5525700a/")
        ),
      );
      assertEquals(
        srv.requests.filter((p) => p.endsWith(".zip")).length,
        1,
        "the zip is downloaded once",
      );
    } finally {
      await srv.close();
    }
  },
});

Deno.test({
  name: "fetch failures over HTTP: 404, broken-off transfer, offline",
  ignore: !haveMirror,
  async fn() {
    const srv = await upstreamServer({ crlf: false, truncate: "qrcd_v1.1_dev.jsonl" });
    try {
      const dir = await Deno.makeTempDir();
      await assertRejects(
        () => fetchDataset("qrcd", { dir, mapUrl: srv.mapUrl, log: quiet }),
        /broke off after \d+ bytes.*nothing was installed/,
      );
      assert(!(await exists(`${dir}/qrcd/qrcd_v1.1_train.jsonl`)), "nothing installed on failure");
      await assertRejects(
        () => fetchDataset("trecqa", { dir, mapUrl: (u) => srv.mapUrl(u) + "-moved", log: quiet }),
        /HTTP 404 .*--mirror DIR/,
      );
    } finally {
      await srv.close();
    }
    // Offline: nothing listens on this port any more.
    const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const port = (l.addr as Deno.NetAddr).port;
    l.close();
    const offlineDir = await Deno.makeTempDir();
    await assertRejects(
      () =>
        fetchDataset("qrcd", {
          dir: offlineDir,
          mapUrl: (u) => `http://127.0.0.1:${port}${new URL(u).pathname}`,
          log: quiet,
        }),
      /cannot download .*offline.*--mirror DIR/,
    );
  },
});
