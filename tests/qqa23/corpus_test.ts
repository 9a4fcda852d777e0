/**
 * The Qur'an QA 2023 Task A corpus: its pinned files against the shared mirror, a fetch over
 * HTTP from a zip laid out like the organisers' (built here from the mirror's files), the
 * published counts, the readers' errors, and the BM25 baseline's run against the official
 * checker's rules (and the checker itself when pandas imports), with its MAP@10 and MRR computed
 * here by brute force under the official scorer's rules (and checked against trec_eval 9.0.8 where
 * it is built). Needs the mirror (`../shared/datasets`) or the fetched corpus; skipped without.
 */
import { zipSync } from "fflate";
import { assert, assertClose, assertEquals, assertRejects, assertThrows } from "../assert.ts";
import { mem, pandasPython, realDataDir, trecEvalBinary } from "../helpers.ts";
import { addDataset } from "../../lib/data/datasets.ts";
import { fetchDataset, sha256Hex } from "../../lib/data/fetch.ts";
import { PROJECT_ROOT } from "../../lib/data/paths.ts";
import { exists } from "../../lib/io/atomic.ts";
import {
  formatQqa23Run,
  loadQqa23Split,
  plainDecimal,
  QQA23_DATASET,
  QQA23_ZIP,
  qqa23SplitFiles,
  qqa23Stats,
  readCollection,
  readQuestions,
  retrieve,
  scoreQqa23Split,
} from "../../lib/qqa23/mod.ts";

const MIRROR = Deno.env.get("QA_KIT_MIRROR") ?? `${PROJECT_ROOT}/../shared/datasets`;
const haveMirror = await exists(`${MIRROR}/qqa23/QQA23_TaskA_QPC_v1.1.tsv`);
/** A folder holding `qqa23/`: the mirror (byte-identical), else the fetched corpus. */
const DATA = haveMirror ? MIRROR : realDataDir("qqa23");
if (!haveMirror) console.error(`skipping qqa23 mirror tests: no mirror at ${MIRROR}`);
if (!DATA) {
  console.error(
    "skipping qqa23 real-data tests: neither the mirror nor a fetched corpus " +
      "(./kit data fetch qqa23 --mirror ../shared/datasets)",
  );
}
const TOOLS = `${PROJECT_ROOT}/../shared/tools/qqa23`;
const FIXTURE = `${PROJECT_ROOT}/tests/fixtures/qqa23`;
const quiet = () => {};

Deno.test("the entry pins the nine files of the mirror, byte for byte, from the zip", () => {
  const files = QQA23_DATASET.files;
  assertEquals(QQA23_DATASET.name, "qqa23");
  assertEquals(QQA23_DATASET.task, "qqa23");
  assertEquals(files.length, 9);
  assert(files.every((f) => !f.text && f.path.startsWith("qqa23/")));
  assert(files.every((f) => f.upstream.kind === "zip" && f.upstream.url === QQA23_ZIP));
  const members = Object.fromEntries(
    files.map((f) => [f.path, f.upstream.kind === "zip" ? f.upstream.member : ""]),
  );
  assertEquals(members["qqa23/LICENSE"], "quran-qa-2023-main/LICENSE");
  assertEquals(members["qqa23/README-TaskA.md"], "quran-qa-2023-main/Task-A/README.md");
  assertEquals(
    members["qqa23/QQA23_TaskA_QPC_v1.1.tsv"],
    "quran-qa-2023-main/Task-A/data/Thematic_QPC/QQA23_TaskA_QPC_v1.1.tsv",
  );
  assertEquals(
    members["qqa23/QQA23_TaskA_ayatec_v1.2_qrels_dev.gold"],
    "quran-qa-2023-main/Task-A/data/qrels/QQA23_TaskA_ayatec_v1.2_qrels_dev.gold",
  );
  assertEquals(
    members["qqa23/QQA23_TaskA_ayatec_v1.2_test.tsv"],
    "quran-qa-2023-main/Task-A/data/QQA23_TaskA_ayatec_v1.2_test.tsv",
  );
  for (const [split, s] of Object.entries(QQA23_DATASET.splits)) {
    assertEquals(s.file, `qqa23/QQA23_TaskA_ayatec_v1.2_${split}.tsv`);
  }
  assertEquals(
    Object.values(QQA23_DATASET.splits).map((s) => s.published.raw?.questions),
    [174, 25, 52],
  );
});

Deno.test({
  name: "every sha256 of the entry is the mirror file's, and the mirror has no other file",
  ignore: !haveMirror,
  async fn() {
    const pinned = new Set(QQA23_DATASET.files.map((f) => f.path));
    for await (const e of Deno.readDir(`${MIRROR}/qqa23`)) {
      assert(pinned.has(`qqa23/${e.name}`), `${e.name} is in the mirror but not pinned`);
    }
    for (const f of QQA23_DATASET.files) {
      assertEquals(await sha256Hex(await Deno.readFile(`${MIRROR}/${f.path}`)), f.sha256, f.path);
    }
  },
});

/** Serves the upstream zip, rebuilt from the mirror's files under their member names. */
function zipServer(edit: (path: string, bytes: Uint8Array) => Uint8Array = (_, b) => b) {
  const members: Record<string, Uint8Array> = {};
  for (const f of QQA23_DATASET.files) {
    if (f.upstream.kind !== "zip" || typeof f.upstream.member !== "string") throw new Error(f.path);
    members[f.upstream.member] = edit(f.path, Deno.readFileSync(`${MIRROR}/${f.path}`));
  }
  // The real zip holds much else, e.g. .txt copies of the questions beside the .tsv files.
  members["quran-qa-2023-main/Task-A/data/QQA23_TaskA_ayatec_v1.2_dev.txt"] = new Uint8Array(3);
  const zip = zipSync(members);
  const requests: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (req) => {
    const path = new URL(req.url).pathname;
    requests.push(path);
    return path === new URL(QQA23_ZIP).pathname
      ? new Response(zip as Uint8Array<ArrayBuffer>)
      : new Response("not found", { status: 404 });
  });
  const base = `http://127.0.0.1:${server.addr.port}`;
  return {
    mapUrl: (u: string) => base + new URL(u).pathname,
    requests,
    close: () => server.shutdown(),
  };
}

// A copy of the entry under its own name: fetchDataset finds corpora by name, and the registry's
// own `qqa23` must not be touched.
const FETCHTEST = haveMirror ? addDataset({ ...QQA23_DATASET, name: "qqa23-fetchtest" }) : null;

Deno.test({
  name: "fetch over HTTP from the organisers' zip installs byte-identical files, once",
  ignore: !haveMirror,
  async fn() {
    const srv = zipServer();
    try {
      const dir = await Deno.makeTempDir();
      const r = await fetchDataset(FETCHTEST!.name, { dir, mapUrl: srv.mapUrl, log: quiet });
      assertEquals(r.installed.length, 9);
      assertEquals(srv.requests, [new URL(QQA23_ZIP).pathname]); // one download for nine files
      for (const f of QQA23_DATASET.files) {
        assertEquals(
          await Deno.readFile(`${dir}/${f.path}`),
          await Deno.readFile(`${MIRROR}/${f.path}`),
          f.path,
        );
      }
      const again = await fetchDataset(FETCHTEST!.name, { dir, mapUrl: srv.mapUrl, log: quiet });
      assertEquals(again.unchanged.length, 9);
      assertEquals(srv.requests.length, 1);
      // The installed folder is a corpus folder the loader reads.
      assertEquals((await loadQqa23Split("dev", { dir })).questions.length, 25);
      // And from the mirror folder.
      const viaMirror = await Deno.makeTempDir();
      const m = await fetchDataset(FETCHTEST!.name, { mirror: MIRROR, dir: viaMirror, log: quiet });
      assertEquals(m.installed.length, 9);
    } finally {
      await srv.close();
    }
  },
});

Deno.test({
  name: "a copy with CRLF line ends is a modified copy: refused, nothing installed",
  ignore: !haveMirror,
  async fn() {
    const crlf = (path: string, b: Uint8Array) =>
      path.endsWith("LICENSE")
        ? new TextEncoder().encode(new TextDecoder().decode(b).replace(/\n/g, "\r\n"))
        : b;
    const srv = zipServer(crlf);
    try {
      const dir = await Deno.makeTempDir();
      await assertRejects(
        () => fetchDataset(FETCHTEST!.name, { dir, mapUrl: srv.mapUrl, log: quiet }),
        /checksum mismatch for qqa23\/LICENSE from .*!quran-qa-2023-main\/LICENSE/,
      );
      assert(!(await exists(`${dir}/qqa23/QQA23_TaskA_QPC_v1.1.tsv`)));
    } finally {
      await srv.close();
    }
  },
});

Deno.test({
  name: "the real files: 1,266 passages, questions, judged, zero-answer and qrels counts",
  ignore: !DATA,
  async fn() {
    const s = await qqa23Stats(DATA);
    assertEquals(s.passages, 1266);
    assertEquals(s.splits, {
      train: { questions: 174, judged: 174, zeroAnswer: 26, qrelsLines: 972, relevantPairs: 946 },
      dev: { questions: 25, judged: 25, zeroAnswer: 4, qrelsLines: 160, relevantPairs: 156 },
      test: { questions: 52, judged: 51, zeroAnswer: 7, qrelsLines: 427, relevantPairs: 420 },
    });
    const test = await loadQqa23Split("test", { dir: DATA });
    assertEquals([test.judged, test.zeroAnswer, test.questions.length], [51, 7, 52]);
    assert(test.questions.some((q) => q.id === "504")); // in the questions, not in the qrels
    const qrels = await Deno.readTextFile(test.qrelsPath);
    assert(!/^504\t/m.test(qrels));
    // Train and dev end without a newline; dev's qrels with an empty line.
    for (const split of ["train", "dev"] as const) {
      const text = await Deno.readTextFile(qqa23SplitFiles(split, DATA).questions);
      assert(!text.endsWith("\n"), split);
    }
    assert((await Deno.readTextFile(qqa23SplitFiles("dev", DATA).qrels)).endsWith("\n\n"));
    // Ids in file order; the first and last passages.
    const c = test.collection;
    assertEquals([...c.keys()][0], "1:1-4");
    assertEquals([...c.keys()].at(-1), "114:1-6");
  },
});

/** A copy of the fixture corpus in a temp folder, with `edit` applied to one of its files. */
async function editedCorpus(file: string, edit: (text: string) => string): Promise<string> {
  const dir = await Deno.makeTempDir();
  await Deno.mkdir(`${dir}/qqa23`);
  for await (const e of Deno.readDir(`${FIXTURE}/qqa23`)) {
    await Deno.copyFile(`${FIXTURE}/qqa23/${e.name}`, `${dir}/qqa23/${e.name}`);
  }
  const path = `${dir}/qqa23/${file}`;
  await Deno.writeTextFile(path, edit(await Deno.readTextFile(path)));
  return dir;
}

Deno.test("reader errors name the file and the line", async () => {
  const c = (text: string) => readCollection(mem("qpc.tsv", text));
  await assertRejects(() => c("1:1-2\ta\n1:3-4\tb\tc\n"), /^qpc\.tsv:2: expected 2 tab-sep/);
  await assertRejects(() => c("1:1-2\ta\n\n1:1-2\tb\n"), /^qpc\.tsv:3: passage id 1:1-2 repeats/);
  await assertRejects(() => c("115:1-2\ta\n"), /^qpc\.tsv:1: passage id "115:1-2": surah 1-114/);
  await assertRejects(() => c("2:5-3\ta\n"), /^qpc\.tsv:1: .*first <= last/);
  await assertRejects(() => c("2 :1-3\ta\n"), /^qpc\.tsv:1: passage id "2 :1-3" is not/);
  await assertRejects(() => c("2:1-3\t \n"), /^qpc\.tsv:1: passage 2:1-3 has no text/);
  await assertRejects(() => c("\n"), /^qpc\.tsv: no passages/);
  const q = (text: string) => readQuestions(mem("q.tsv", text));
  await assertRejects(() => q("1\ta\n2 3\tb"), /^q\.tsv:2: question id "2 3" is empty or has/);
  await assertRejects(() => q("1\ta\n2"), /^q\.tsv:2: expected 2 tab-separated fields/);
  assertEquals([...(await q("1\ta\r\n2\tb"))], [["1", "a"], ["2", "b"]]);
  // The qrels, read by the loader: unknown question, wrong fields, -1 beside a passage.
  const gold = "QQA23_TaskA_ayatec_v1.2_qrels_dev.gold";
  for (
    const [edit, pattern] of [
      [(t: string) => t + "99\t0\t1:1-3\t1\n", /_qrels_dev\.gold:5: question 99 is not in/],
      [(t: string) => t.replace("2\t0\t1:4-6\t1", "2 0 1:4-6 1"), /_dev\.gold:2: expected 4/],
      [
        (t: string) => t.replace("1:4-6\t1", "1:4-6\thigh"),
        /_dev\.gold:2: relevance 'high' is not an integer/,
      ],
      [
        (t: string) => t + "3\t0\t1:1-3\t1\n",
        /_dev\.gold:5: question 3 has both the zero-answer line/,
      ],
    ] as const
  ) {
    const dir = await editedCorpus(gold, edit);
    await assertRejects(() => loadQqa23Split("dev", { dir }), pattern);
  }
  const bad = await editedCorpus("QQA23_TaskA_QPC_v1.1.tsv", (t) => t.replace("2:1-2", "2-1"));
  const e = await assertRejects(() => loadQqa23Split("dev", { dir: bad }), /:3: passage id "2-1"/);
  assert(e.message.startsWith(`${bad}/qqa23/QQA23_TaskA_QPC_v1.1.tsv:3:`));
});

Deno.test("a missing corpus says how to fetch it", async () => {
  const empty = await Deno.makeTempDir();
  assertThrows(
    () => qqa23SplitFiles("dev", empty),
    /QQA23_TaskA_QPC_v1\.1\.tsv: no Qur'an QA 2023 corpus here .*\.\/kit data fetch qqa23 --dir .* --mirror/,
  );
  assertThrows(() => qqa23SplitFiles("dev", "samples"), /no bundled sample.*--mirror/);
  assertThrows(() => qqa23SplitFiles("valid" as "dev", FIXTURE), /unknown qqa23 split 'valid'/);
  const before = Deno.env.get("QA_KIT_DATA_DIR");
  Deno.env.set("QA_KIT_DATA_DIR", empty);
  try {
    await assertRejects(
      () => loadQqa23Split("dev"),
      /not installed in .*: run '\.\/kit data fetch qqa23 --mirror \.\.\/shared\/datasets'/,
    );
  } finally {
    if (before === undefined) Deno.env.delete("QA_KIT_DATA_DIR");
    else Deno.env.set("QA_KIT_DATA_DIR", before);
  }
});

/** The official checker's rules on a run's text; returns the lines by question. */
function checkRunRules(text: string): Map<string, string[][]> {
  const byQ = new Map<string, string[][]>();
  const pairs = new Set<string>();
  assert(text.endsWith("\n"));
  for (const line of text.slice(0, -1).split("\n")) {
    const f = line.split("\t");
    assertEquals(f.length, 6, line);
    assertEquals(f[1], "Q0");
    assert(/^-?\d+(?:\.\d+)?$/.test(f[4]), `score ${f[4]} is not a plain decimal`);
    const pair = `${f[0]}\t${f[2]}`;
    assert(!pairs.has(pair), `duplicate pair ${pair}`);
    pairs.add(pair);
    if (!byQ.has(f[0])) byQ.set(f[0], []);
    byQ.get(f[0])!.push(f);
  }
  for (const [q, lines] of byQ) {
    assert(lines.length <= 10, `question ${q}: ${lines.length} lines`);
    if (lines.some((l) => l[2] === "-1")) assertEquals(lines.length, 1, `question ${q}`);
  }
  return byQ;
}

/** trec_eval's order of a question's lines: score descending, then docid descending. */
function trecOrder(lines: string[][]): string[] {
  return [...lines].sort((a, b) =>
    Number(b[4]) - Number(a[4]) || (a[2] < b[2] ? 1 : a[2] > b[2] ? -1 : 0)
  ).map((l) => l[2]);
}

/** The official scorer's MAP@10 and MRR (QQA23_TaskA_eval.py's rules), by brute force. */
async function officialScores(run: string, qrelsPath: string) {
  const rel = new Map<string, Set<string>>();
  for (const line of (await Deno.readTextFile(qrelsPath)).split("\n")) {
    if (line.trim() === "") continue;
    const [q, , d, r] = line.split("\t");
    if (!rel.has(q)) rel.set(q, new Set());
    if (Number(r) > 0) rel.get(q)!.add(d);
  }
  const byQ = checkRunRules(run);
  const normal: { q: string; ap: number; rr: number }[] = [];
  const zero: number[] = [];
  for (const [q, gold] of rel) {
    const lines = byQ.get(q);
    if (gold.has("-1")) {
      if (!lines) zero.push(0); // a zero-answer question missing from the run: 0, then 0 again
      zero.push(lines?.length === 1 && lines[0][2] === "-1" ? 1 : 0);
      continue;
    }
    if (!lines) continue; // left out of the mean, as pytrec_eval leaves it out
    let hits = 0, ap = 0, rr = 0;
    trecOrder(lines).slice(0, 10).forEach((d, i) => {
      if (!gold.has(d)) return;
      hits++;
      ap += hits / (i + 1);
      if (rr === 0) rr = 1 / (i + 1);
    });
    normal.push({ q, ap: ap / gold.size, rr });
  }
  const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
  return {
    map: mean([...normal.map((n) => n.ap), ...zero]),
    mrr: mean([...normal.map((n) => n.rr), ...zero]),
    normal,
    zero,
  };
}

/** trec_eval 9.0.8's per-question map_cut.10 and recip_rank on the questions with answers. */
async function trecEvalNormal(run: string, qrelsPath: string) {
  const bin = trecEvalBinary();
  if (!bin) return undefined;
  const dir = await Deno.makeTempDir();
  const qrels = (await Deno.readTextFile(qrelsPath)).split("\n").filter((l) => l.trim());
  const zero = new Set(qrels.filter((l) => l.split("\t")[2] === "-1").map((l) => l.split("\t")[0]));
  const keep = (l: string) => !zero.has(l.split("\t")[0]);
  await Deno.writeTextFile(`${dir}/qrels`, qrels.filter(keep).join("\n") + "\n");
  await Deno.writeTextFile(`${dir}/run`, run.split("\n").filter((l) => l && keep(l)).join("\n"));
  const out = await new Deno.Command(bin, {
    args: ["-q", "-m", "map_cut.10", "-m", "recip_rank", `${dir}/qrels`, `${dir}/run`],
    stdout: "piped",
  }).output();
  const values = new Map<string, number>();
  for (const line of new TextDecoder().decode(out.stdout).split("\n")) {
    const [m, q, v] = line.trim().split(/\s+/);
    if (q && q !== "all") values.set(`${m}\t${q}`, Number(v));
  }
  return values;
}

/** Runs the official checker on `text` saved as `name`; its output. */
async function officialCheck(python: string, text: string, name: string): Promise<string> {
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(`${dir}/${name}`, text);
  const out = await new Deno.Command(python, {
    args: [`${TOOLS}/QQA23_TaskA_submission_checker.py`, "-m", `${dir}/${name}`],
    cwd: TOOLS,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const dec = new TextDecoder();
  assert(out.success, dec.decode(out.stderr));
  return dec.decode(out.stdout);
}

Deno.test({
  name: "BM25 runs on dev and test pass the checker's rules; MAP@10 and MRR reported",
  ignore: !DATA,
  async fn() {
    const python = pandasPython();
    const haveChecker = await exists(`${TOOLS}/QQA23_TaskA_submission_checker.py`);
    if (!python || !haveChecker) {
      console.error(
        `skipping the official checker: ${!python ? "no python3 with pandas" : `none at ${TOOLS}`}`,
      );
    }
    const found: Record<string, string> = {};
    for (const split of ["dev", "test"] as const) {
      // 8: the threshold on the top BM25 score that maximises train's official MAP@10 (7.99;
      // 105 of 174 train questions abstain, 16 of its 26 zero-answer ones among them).
      for (const abstainBelow of [undefined, 8]) {
        const r = await scoreQqa23Split("lexical:bm25", split, {
          dir: DATA,
          abstainBelow,
          tag: "kitBM25",
        });
        const byQ = checkRunRules(r.text);
        assertEquals(r.questions, split === "dev" ? 25 : 52);
        assertEquals(byQ.size, r.questions); // every question is in the run
        const minus = [...byQ.values()].filter((l) => l[0][2] === "-1").length;
        assertEquals(minus, r.abstained);
        const qrels = qqa23SplitFiles(split, DATA).qrels;
        const s = await officialScores(r.text, qrels);
        found[`${split} abstainBelow=${abstainBelow ?? "none"}`] = `MAP@10 ${
          s.map.toFixed(4)
        } MRR ${s.mrr.toFixed(4)} (${r.abstained} abstained)`;
        const te = await trecEvalNormal(r.text, qrels);
        for (const n of te ? s.normal : []) {
          assertClose(n.ap, te!.get(`map_cut_10\t${n.q}`) ?? 0, 1e-4, `map_cut_10 ${n.q}`);
          assertClose(n.rr, te!.get(`recip_rank\t${n.q}`) ?? 0, 1e-4, `recip_rank ${n.q}`);
        }
        if (python && haveChecker) {
          const out = await officialCheck(python, r.text, "kitqa_bm25.tsv");
          assert(out.includes("Format check: Passed"), out);
        }
      }
    }
    console.log("qqa23 BM25 (the official scorer's rules, brute force):", found);
    // The numbers of this normalisation (see lib/qqa23/retrieve.ts); the organisers' BM25
    // (Terrier, Snowball stemming) has 0.1703 / 0.3133 on dev. A change of the normalisation
    // moves them: update here on purpose.
    const dev = await officialScores(
      (await scoreQqa23Split("lexical:bm25", "dev", { dir: DATA })).text,
      qqa23SplitFiles("dev", DATA).qrels,
    );
    assertClose(dev.map, 0.1210, 5e-5, "dev MAP@10");
    assertClose(dev.mrr, 0.2844, 5e-5, "dev MRR");
    assertEquals(dev.zero, [0, 0, 0, 0]); // no abstention: the four zero-answer questions score 0
    if (python && haveChecker) {
      // The checker does check: a score with an exponent, and 11 passages for a question, fail.
      const bad = "1\tQ0\t1:1-2\t1\t1e-7\tx\n";
      assert((await officialCheck(python, bad, "kitqa_bad.tsv")).includes("Failed"));
      const many = Array.from({ length: 11 }, (_, i) => `1\tQ0\t2:${i + 1}-${i + 1}\t1\t1\tx\n`);
      assert((await officialCheck(python, many.join(""), "kitqa_many.tsv")).includes("Failed"));
    }
  },
});

Deno.test("abstention: one -1 line; the run format refuses what the checker refuses", () => {
  const collection = new Map([["1:1-2", "النحل يصنع العسل"], ["1:3-4", "العسل شفاء"]]);
  const ranking = retrieve(collection, [{ id: "5", text: "ما العسل؟" }], { abstainBelow: 99 });
  assert(ranking[0].abstained && ranking[0].topScore > 0);
  assertEquals(formatQqa23Run(ranking, "t1"), "5\tQ0\t-1\t1\t0\tt1\n");
  assertEquals(retrieve(collection, [{ id: "5", text: "ما العسل؟" }])[0].passages.length, 2);
  // Equal scores are in trec_eval's order: passage id descending.
  const twins = new Map([["1:1-2", "العسل شفاء"], ["1:10-12", "العسل شفاء"], [
    "1:3-4",
    "العسل شفاء",
  ]]);
  const tied = retrieve(twins, [{ id: "5", text: "العسل" }])[0].passages;
  assertEquals(tied.map((p) => p.id), ["1:3-4", "1:10-12", "1:1-2"]);
  const p = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `2:${i + 1}-9`, score: 1 }));
  const one = (passages: { id: string; score: number }[], questionId = "1") => ({
    questionId,
    passages,
    abstained: false,
    topScore: 1,
  });
  assertThrows(() => formatQqa23Run([one(p(11))], "t"), /11 passages; .*at most 10/);
  assertThrows(() => formatQqa23Run([one([...p(2), ...p(1)])], "t"), /ranks 2:1-9 twice/);
  assertThrows(() => formatQqa23Run([one(p(1)), one(p(1))], "t"), /question 1 is ranked twice/);
  assertThrows(() => formatQqa23Run([one([])], "t"), /no passage and is not abstained/);
  assertThrows(() => formatQqa23Run([one(p(1))], "my tag"), /run tag "my tag" .*white space/);
  assertThrows(() => formatQqa23Run([one(p(1), "")], "t"), /question id "" is empty/);
  assertThrows(() => formatQqa23Run([one([{ id: "x", score: NaN }])], "t"), /not a finite/);
});

Deno.test("scores are plain decimals that read back as the same number", () => {
  let x = 1;
  for (let i = 0; i < 2000; i++) {
    // A deterministic walk over magnitudes 1e-30 .. 1e30, both signs.
    x = ((x * 7919.123) % 1000) + 1e-3;
    const v = (i % 2 ? -1 : 1) * x * 10 ** ((i % 61) - 30);
    const s = plainDecimal(v);
    assert(/^-?\d+(?:\.\d+)?$/.test(s), s);
    assertEquals(Number(s), v, s);
  }
  assertEquals(plainDecimal(1e21), "1000000000000000000000");
  assertEquals(plainDecimal(123e-9), "0.000000123");
});

Deno.test("normalisation: a question with harakat, shadda and tatweel finds the same passages", () => {
  const collection = new Map([
    ["1:1-2", "إن الله على كل شيء قدير"],
    ["1:3-4", "الأرض بعد ذلك دحاها"],
    ["1:7-9", "ادخلوا الجنة"],
    ["1:5-6", "ذلك الكتاب لا ريب فيه"],
  ]);
  const plain = retrieve(collection, [{ id: "1", text: "الارض دحاها الجنة" }]);
  const marked = retrieve(collection, [{ id: "1", text: "الأَرْضُ دَحَــاهَا، الجنّةُ؟" }]);
  assertEquals(marked, plain);
  assertEquals(plain[0].passages.map((p) => p.id), ["1:3-4", "1:7-9"]);
  // ى is read as ي: a question written "على" and one written "علي" match alike.
  const a = retrieve(collection, [{ id: "2", text: "على كل شيء" }], { stopwords: new Set() });
  const b = retrieve(collection, [{ id: "2", text: "علي كل شيء" }], { stopwords: new Set() });
  assertEquals(a, b);
});

Deno.test("the fixture corpus: Word Cnt and Wgt Word Cnt runs pass the rules too", async () => {
  for (const model of ["lexical:wordcnt", "lexical:wgtwordcnt", "lexical:bm25"]) {
    for (const split of ["train", "dev", "test"] as const) {
      const r = await scoreQqa23Split(model, split, { dir: FIXTURE, depth: 3 });
      const byQ = checkRunRules(r.text);
      assert([...byQ.values()].every((l) => l.length <= 3));
      assert(r.text.includes(`\t${model}\n`));
    }
  }
  await assertRejects(
    () => scoreQqa23Split("lexical:bm25", "dev", { dir: FIXTURE, depth: 11 }),
    /1 to 10 passages/,
  );
});
