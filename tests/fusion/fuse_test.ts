/** Fusion: every method and normalization on hand-worked runs (ranx's definitions). */
import { assertClose, assertEquals, assertThrows } from "../assert.ts";
import { fuse, type FusionMethod, normalizeScores } from "../../lib/fusion/mod.ts";
import { readRun } from "../../lib/metrics/mod.ts";
import { runCli } from "../helpers.ts";

const run = (docs: Record<string, number>, qid = "q") =>
  new Map([[qid, new Map(Object.entries(docs))]]);
// A ranks d1 > d2 > d3; B ranks d2 > d4 > d1. Min-max: A d1 1, d2 0.5, d3 0; B d2 1, d4 0.5, d1 0.
const A = run({ d1: 4, d2: 2, d3: 0 });
const B = run({ d2: 9, d4: 5, d1: 1 });

function fused(method: FusionMethod, extra: Parameters<typeof fuse>[1] = {}, runs = [A, B]) {
  return Object.fromEntries(fuse(runs, { method, ...extra }).get("q")!);
}

function close(got: Record<string, number>, want: Record<string, number>) {
  assertEquals(Object.keys(got).sort(), Object.keys(want).sort());
  for (const [d, v] of Object.entries(want)) assertClose(got[d], v, 1e-12, d);
}

Deno.test("score methods after min-max, worked by hand", () => {
  close(fused("combsum"), { d1: 1 + 0, d2: 0.5 + 1, d3: 0, d4: 0.5 });
  close(fused("combmnz"), { d1: (1 + 0) * 2, d2: (0.5 + 1) * 2, d3: 0 * 1, d4: 0.5 * 1 });
  close(fused("anz"), { d1: 0.5, d2: 0.75, d3: 0, d4: 0.5 });
  close(fused("max"), { d1: 1, d2: 1, d3: 0, d4: 0.5 });
  close(fused("min"), { d1: 0, d2: 0.5, d3: 0, d4: 0.5 });
  close(fused("med"), { d1: 0.5, d2: 0.75, d3: 0, d4: 0.5 }); // two values: their mean
  const C = run({ d1: 3, d2: 1 }); // min-max: d1 1, d2 0
  close(fused("med", {}, [A, B, C]), { d1: 1, d2: 0.5, d3: 0, d4: 0.5 }); // [1,0,1], [.5,1,0]
  close(fused("wsum", { weights: [2, 1] }), { d1: 2 * 1 + 0, d2: 2 * 0.5 + 1, d3: 0, d4: 0.5 });
});

Deno.test("rrf: 1 / (k + rank) summed over the runs retrieving the document; ranks only", () => {
  const want = { d1: 1 / 61 + 1 / 63, d2: 1 / 62 + 1 / 61, d3: 1 / 63, d4: 1 / 62 };
  close(fused("rrf"), want);
  close(fused("rrf", { norm: "zmuv" }), want);
  close(fused("rrf", { k: 0 }), { d1: 1 + 1 / 3, d2: 1 / 2 + 1, d3: 1 / 3, d4: 1 / 2 });
});

Deno.test("normalizations: min-max, zmuv, sum, rank, none; ties and constant scores", () => {
  assertEquals(normalizeScores([4, 2, 0], "min-max"), [1, 0.5, 0]);
  const sd = Math.sqrt(8 / 3); // population standard deviation of 4, 2, 0
  assertEquals(normalizeScores([4, 2, 0], "zmuv"), [2 / sd, 0, -2 / sd]);
  assertEquals(normalizeScores([4, 2, 0], "sum"), [4 / 6, 2 / 6, 0]);
  assertEquals(normalizeScores([4, 2, 0], "rank"), [1, 1 - 1 / 3, 1 - 2 / 3]);
  assertEquals(normalizeScores([4, 2, 0], "none"), [4, 2, 0]);
  // Constant scores: the denominator's 1e-9 floor maps them to 0.
  assertEquals(normalizeScores([3, 3], "min-max"), [0, 0]);
  assertEquals(normalizeScores([3, 3], "zmuv"), [0, 0]);
  // Tied scores get ranks in trec_eval order (docno descending): d2 before d1.
  close(fused("combsum", { norm: "rank" }, [run({ d1: 1, d2: 1 }), run({ d1: 1, d2: 1 })]), {
    d1: 2 * (1 - 1 / 2),
    d2: 2 * 1,
  });
  close(fused("combsum", { norm: "none" }), { d1: 4 + 1, d2: 2 + 9, d3: 0, d4: 5 });
  close(fused("combsum", { norm: "sum" }), {
    d1: 4 / 6 + 0,
    d2: 2 / 6 + 8 / 12,
    d3: 0,
    d4: 4 / 12,
  });
});

Deno.test("queries in some runs only are fused over the runs that have them; bad options", () => {
  const f = fuse([run({ a: 1 }, "q1"), run({ b: 2 }, "q2")], { method: "combsum", norm: "none" });
  assertEquals([...f.keys()].sort(), ["q1", "q2"]);
  assertEquals(f.get("q2")!.get("b"), 2);
  assertThrows(() => fuse([A], {}), /at least two runs/);
  assertThrows(() => fuse([A, B], { method: "wsum" }), /wsum needs one weight per run/);
  assertThrows(() => fuse([A, B], { method: "wsum", weights: [1] }), /1 weights for 2 runs/);
  assertThrows(() => fuse([A, B], { method: "rrf", weights: [1, 1] }), /weights are for wsum/);
});

Deno.test("deno task fuse writes a TREC run, ranked, and refuses to overwrite without --force", async () => {
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(`${dir}/a.run`, "q Q0 d1 1 4 a\nq Q0 d2 2 2 a\nq Q0 d3 3 0 a\n");
  await Deno.writeTextFile(`${dir}/b.run`, "q Q0 d2 1 9 b\nq Q0 d4 2 5 b\nq Q0 d1 3 1 b\n");
  const args = [
    "fuse",
    `${dir}/a.run`,
    `${dir}/b.run`,
    "--method",
    "combmnz",
    "--out",
    `${dir}/f.run`,
  ];
  const r = await runCli(args);
  assertEquals(r.code, 0, r.stderr);
  assertEquals(
    await Deno.readTextFile(`${dir}/f.run`),
    "q Q0 d2 1 3 combmnz\nq Q0 d1 2 2 combmnz\nq Q0 d4 3 0.5 combmnz\nq Q0 d3 4 0 combmnz\n",
  );
  const again = await runCli(args);
  assertEquals(again.code, 2);
  const forced = await runCli([...args.slice(0, 4), "rrf", "--out", `${dir}/f.run`, "--force"]);
  assertEquals(forced.code, 0, forced.stderr);
  assertClose((await readRun(`${dir}/f.run`)).get("q")!.get("d2")!, 1 / 62 + 1 / 61);
  const bad = await runCli([
    "fuse",
    `${dir}/a.run`,
    `${dir}/b.run`,
    "--method",
    "borda",
    "--out",
    `${dir}/g`,
  ]);
  assertEquals(bad.code, 2);
  assertEquals(bad.stderr.includes("unknown method 'borda'"), true);
});

Deno.test("deno task fuse reads runs as eval trec does: --trec-eval 10.0 skips '#' lines", async () => {
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(`${dir}/a.run`, "# made by hand\nq Q0 d1 1 2 a\nq Q0 d2 2 1 a\n");
  await Deno.writeTextFile(`${dir}/b.run`, "q Q0 d2 1 2 b\nq Q0 d1 2 1 b\n");
  const fuse = (...more: string[]) =>
    runCli(["fuse", `${dir}/a.run`, `${dir}/b.run`, "--out", `${dir}/f.run`, "--force", ...more]);
  // 9.0.8 (the default) has no comment lines: '#' is a query id, and its line is short.
  const strict = await fuse();
  assertEquals(strict.code, 2);
  assertEquals(/a\.run:1: expected 6 fields/.test(strict.stderr), true, strict.stderr);
  const r = await fuse("--trec-eval", "10.0");
  assertEquals(r.code, 0, r.stderr);
  const fused = (await readRun(`${dir}/f.run`)).get("q")!;
  assertClose(fused.get("d1")!, 1 / 61 + 1 / 62);
  assertClose(fused.get("d2")!, 1 / 62 + 1 / 61);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("fusion ranks in doubles, as ranx: 0.6000000000000001 above 0.6 (issue 28, item 8)", () => {
  // As 32-bit floats the two scores tie and docno b would rank first; in doubles a does.
  const a = new Map([["q", new Map([["b", 0.6], ["a", 0.6000000000000001]])]]);
  const b = new Map([["q", new Map([["c", 1]])]]);
  const rrf = fuse([a, b], { method: "rrf" }).get("q")!;
  assertEquals([rrf.get("a"), rrf.get("b")], [1 / 61, 1 / 62]);
  const rank = fuse([a, b], { method: "combsum", norm: "rank" }).get("q")!;
  assertEquals([rank.get("a"), rank.get("b")], [1, 0.5]);
});

Deno.test("an infinite score is refused by the normalizations it breaks, naming file, query, document", async () => {
  const a = new Map([["q1", new Map([["d1", Infinity], ["d2", 1]])]]);
  const b = new Map([["q1", new Map([["d1", 3], ["d3", -Infinity]])]]);
  for (const norm of ["min-max", "zmuv", "sum"] as const) {
    assertThrows(
      () => fuse([a, b], { method: "combsum", norm, names: ["a.run", "b.run"] }),
      new RegExp(`^a\\.run: query q1, document d1: score inf is infinite, which --norm ${norm}`),
    );
    assertThrows(
      () => fuse([b, a], { method: "max", norm }),
      /^run 1: query q1, document d3: score -inf is infinite/,
    );
  }
  // rrf uses ranks only; rank and none take an infinite score.
  assertEquals(fuse([a, b]).get("q1")!.get("d1"), 1 / 61 + 1 / 61);
  assertEquals(fuse([a, b], { method: "combsum", norm: "rank" }).get("q1")!.get("d1"), 2);
  assertEquals(fuse([a, b], { method: "combsum", norm: "none" }).get("q1")!.get("d1"), Infinity);
  // On the command line, with the value as the run file gives it.
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(`${dir}/a.run`, "q1 Q0 d1 1 inf a\nq1 Q0 d2 2 1 a\n");
  await Deno.writeTextFile(`${dir}/b.run`, "q1 Q0 d1 1 3 b\nq1 Q0 d3 2 1 b\n");
  const r = await runCli(
    ["fuse", "--method", "combsum", "a.run", "b.run", "--out", "f.run"],
    { cwd: dir },
  );
  assertEquals(r.code, 2);
  assertEquals(
    r.stderr,
    "error: a.run: query q1, document d1: score inf is infinite, which --norm min-max cannot " +
      "normalize (ranx gets NaN); use --norm rank or none, or rrf\n",
  );
  await Deno.remove(dir, { recursive: true });
});
