/**
 * An output that is one of the command's own inputs is refused before any work, even with
 * `--force` (the same file by device and inode: a relative spelling or a hard link too), in
 * every command that takes `--out` and in `convert`'s OUT; the input is left as it was. And `-c` with `--intersect` is
 * refused: they ask for two query sets.
 */
import { assert, assertEquals } from "../assert.ts";
import { runCli } from "../helpers.ts";

Deno.test("--out naming an input is refused even with --force; the input keeps its bytes", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const a = "q1 Q0 d1 1 1 a\nq1 Q0 d2 2 0.5 a\n", b = "q1 Q0 d1 1 0.2 b\nq1 Q0 d2 2 0.9 b\n";
    await Deno.writeTextFile(`${dir}/rA`, a);
    await Deno.writeTextFile(`${dir}/rB`, b);
    await Deno.writeTextFile(`${dir}/qrels`, "q1 0 d1 1\n");
    await Deno.link(`${dir}/rB`, `${dir}/rB-link`);
    const cases: [string[], string][] = [
      [["fuse", "--out", "rA", "rA", "rB", "--force"], "rA"],
      [["fuse", "--out", "./rA", "rA", "rB"], "./rA"],
      [
        ["eval", "compare", "--qrels", "qrels", "rA", "rB", "--out", "rB-link", "--force"],
        "rB-link",
      ],
      [["eval", "compare", "--qrels", "qrels", "rA", "rB", "--out", "qrels", "--force"], "qrels"],
    ];
    for (const [args, out] of cases) {
      const r = await runCli(args, { cwd: dir });
      assertEquals(r.code, 2, r.stderr);
      assert(
        new RegExp(`--out ${out.replace(".", "\\.")} is one of this command's inputs`).test(
          r.stderr,
        ),
        r.stderr,
      );
      assertEquals(r.stderr.trim().split("\n").length, 1, r.stderr);
    }
    assertEquals(await Deno.readTextFile(`${dir}/rA`), a);
    assertEquals(await Deno.readTextFile(`${dir}/rB`), b);
    assertEquals(await Deno.readTextFile(`${dir}/qrels`), "q1 0 d1 1\n");
    // Another file is written as before.
    const ok = await runCli(["fuse", "--out", "f.run", "rA", "rB"], { cwd: dir });
    assertEquals(ok.code, 0, ok.stderr);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("convert's OUT naming its IN is refused even with --force, as --out is everywhere; the input keeps its bytes", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const run = "q1 Q0 d1 1 1 a\nq1 Q0 d2 2 0.5 a\n";
    await Deno.writeTextFile(`${dir}/a.run`, run);
    await Deno.writeTextFile(`${dir}/q`, "q1 0 d1 1\n");
    await Deno.link(`${dir}/a.run`, `${dir}/a-link.run`);
    await Deno.link(`${dir}/q`, `${dir}/q-link`);
    const cases: [string[], string, string][] = [
      [["convert", "run", "a.run", "a.run", "--force"], "a.run", "a.run"],
      [["convert", "run", "a.run", "./a.run", "--force"], "./a.run", "a.run"],
      [["convert", "run", "a.run", "a-link.run", "--force"], "a-link.run", "a.run"],
      [["convert", "qrels", "q", "q-link", "--force"], "q-link", "q"],
    ];
    for (const [args, out, input] of cases) {
      const r = await runCli(args, { cwd: dir });
      assertEquals(r.code, 2, r.stderr);
      assertEquals(
        r.stderr,
        `error: OUT ${out} is one of this command's inputs (${input}): writing it would ` +
          "destroy what the command reads, even with --force; choose another OUT\n",
      );
    }
    assertEquals(await Deno.readTextFile(`${dir}/a.run`), run);
    assertEquals(await Deno.readTextFile(`${dir}/q`), "q1 0 d1 1\n");
    // Another file is written as before.
    const ok = await runCli(["convert", "run", "a.run", "a.json"], { cwd: dir });
    assertEquals(ok.code, 0, ok.stderr);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("-c and --intersect together are refused: two query sets asked for at once", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/r1`, "q1 Q0 d1 1 1 a\n");
    await Deno.writeTextFile(`${dir}/r2`, "q1 Q0 d1 1 1 b\n");
    await Deno.writeTextFile(`${dir}/qrels`, "q1 0 d1 1\nq2 0 d1 1\n");
    for (const command of [["eval", "compare"], ["eval", "stability"]]) {
      const r = await runCli([...command, "--qrels", "qrels", "-c", "--intersect", "r1", "r2"], {
        cwd: dir,
      });
      assertEquals(r.code, 2, r.stderr);
      assert(/-c and --intersect ask for two query sets/.test(r.stderr), r.stderr);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
