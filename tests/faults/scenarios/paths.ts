/**
 * Commands run from another folder, as users run them: `deno task --config` (which runs in
 * the project root and sets `INIT_CWD`), `./kit` (which changes to the project root first),
 * and `deno run` directly with a stale `INIT_CWD` inherited from an outer task.
 *
 * @module
 */
import { assert, assertEquals } from "../../assert.ts";
import { PROJECT_ROOT } from "../../../lib/data/paths.ts";
import {
  ARGS,
  type Ctx,
  finish,
  kitCommand,
  ownJupyterData,
  readOr,
  refused,
  type Run,
  SAMPLE,
  type Scenario,
  start,
  succeeded,
} from "./kit.ts";

const QRELS = "q1 0 d1 1\nq1 0 d2 0\nq2 0 d1 0\nq2 0 d2 1\n";
const RUN = "q1 Q0 d1 1 2 s\nq1 Q0 d2 2 1 s\nq2 Q0 d1 1 2 s\nq2 Q0 d2 2 1 s\n";
const MAP = "map                   \tall\t0.7500";

async function files(ctx: Ctx): Promise<void> {
  await Deno.writeTextFile(`${ctx.dir}/rel.qrels`, QRELS);
  await Deno.writeTextFile(`${ctx.dir}/rel.run`, RUN);
}

/** `deno task --config ROOT/deno.json GROUP ARGS` run in the scenario's folder, as a user would. */
function task(ctx: Ctx, args: string[], cwd = ctx.dir): Promise<Run> {
  const config = ["task", "-q", "--config", `${PROJECT_ROOT}/deno.json`];
  return finish(start(Deno.execPath(), [...config, ...args], cwd, { asCaller: true }));
}

/** `ROOT/kit ARGS` run in the scenario's folder. */
function kit(ctx: Ctx, args: string[]): Promise<Run> {
  return ownJupyterData(ctx).then((env) =>
    finish(start(`${PROJECT_ROOT}/kit`, args, ctx.dir, { env, asCaller: true }))
  );
}

/** The caller's-folder scenarios. */
export const PATH_SCENARIOS: Scenario[] = [
  {
    cls: "paths",
    tried: "`cd elsewhere && deno task --config ROOT/deno.json eval trec rel.qrels rel.run`",
    async run(ctx) {
      await files(ctx);
      const r = await task(ctx, ["eval", "trec", "-m", "map", "rel.qrels", "rel.run"]);
      succeeded(r);
      assertEquals(r.stdout.trim(), MAP);
      return "read from the caller's folder: `map all 0.7500`";
    },
  },
  {
    cls: "paths",
    tried: "`cd elsewhere && ROOT/kit eval trec rel.qrels rel.run` (`./kit` changes to the " +
      "project root itself)",
    needs: ["kit"],
    async run(ctx) {
      await files(ctx);
      const r = await kit(ctx, ["eval", "trec", "-m", "map", "rel.qrels", "rel.run"]);
      succeeded(r);
      assertEquals(r.stdout.trim(), MAP);
      return "the same: `./kit` passes its caller's folder on";
    },
  },
  {
    cls: "paths",
    tried: "`cd 'my folder' && ROOT/kit eval trec rel.qrels rel.run` (a space in the caller's " +
      "folder)",
    needs: ["kit"],
    async run(ctx) {
      const dir = `${ctx.dir}/my folder`;
      await Deno.mkdir(dir);
      await Deno.writeTextFile(`${dir}/rel.qrels`, QRELS);
      await Deno.writeTextFile(`${dir}/rel.run`, RUN);
      const r = await finish(
        start(`${PROJECT_ROOT}/kit`, ["eval", "trec", "-m", "map", "rel.qrels", "rel.run"], dir, {
          env: await ownJupyterData(ctx),
          asCaller: true,
        }),
      );
      succeeded(r);
      assertEquals(r.stdout.trim(), MAP);
      return "read from `my folder`";
    },
  },
  {
    cls: "paths",
    tried: "`deno task ... eval trec nope.qrels rel.run` from elsewhere (a missing file)",
    async run(ctx) {
      await files(ctx);
      return refused(
        await task(ctx, ["eval", "trec", "nope.qrels", "rel.run"]),
        "nope.qrels",
        /not found/,
      );
    },
  },
  {
    cls: "paths",
    tried: "`deno task ... data qrels ... --out sub/dev.qrels` from elsewhere",
    async run(ctx) {
      const r = await task(ctx, ARGS.qrels("dev", "--out", "sub/dev.qrels"));
      succeeded(r);
      assert(await readOr(`${ctx.dir}/sub/dev.qrels`));
      assertEquals(await readOr(`${PROJECT_ROOT}/sub/dev.qrels`), undefined);
      return "written to `elsewhere/sub/dev.qrels`, nothing in the project";
    },
  },
  {
    cls: "paths",
    tried: "`deno task ... data qrels ... --out sub/dev.qrels` again (the refusal names the " +
      "path as typed)",
    async run(ctx) {
      const args = ARGS.qrels("dev", "--out", "sub/dev.qrels");
      succeeded(await task(ctx, args));
      return refused(
        await task(ctx, args),
        "sub/dev.qrels",
        /refusing to overwrite an existing file/,
      );
    },
  },
  {
    cls: "paths",
    tried: "`deno task ... score ... --out runs/wc.run` and `eval as2 runs/wc.run` from elsewhere",
    async run(ctx) {
      const s = await task(ctx, ARGS.score("test", "runs/wc.run"));
      succeeded(s);
      assert(s.stderr.includes("runs/wc.run:"), s.stderr);
      const e = await task(ctx, ARGS.as2("test", "runs/wc.run"));
      succeeded(e);
      assert(/^map\s+all\s+\d\.\d{4}/m.test(e.stdout), e.stdout);
      return "the run is written and read in the caller's folder";
    },
  },
  {
    cls: "paths",
    tried:
      "`deno task ... eval compare --qrels rel.qrels rel.run rel.run --out t.md` from elsewhere",
    async run(ctx) {
      await files(ctx);
      const r = await task(ctx, [
        "eval",
        "compare",
        "--qrels",
        "rel.qrels",
        "rel.run",
        "rel.run",
        "--name",
        "a",
        "--name",
        "b",
        "--trials",
        "10",
        "--out",
        "t.md",
      ]);
      succeeded(r);
      assert((await readOr(`${ctx.dir}/t.md`))?.includes("| a"));
      return "`t.md` in the caller's folder";
    },
  },
  {
    cls: "paths",
    tried: "`deno task ... fuse rel.run rel.run --out f.run` from elsewhere",
    async run(ctx) {
      await files(ctx);
      const r = await task(ctx, ["fuse", "rel.run", "rel.run", "--out", "f.run"]);
      succeeded(r);
      assert((await readOr(`${ctx.dir}/f.run`))?.includes(" Q0 "));
      assert(r.stderr.includes("-> f.run"), r.stderr);
      return "`f.run` in the caller's folder, named as typed";
    },
  },
  {
    cls: "paths",
    tried: "`deno task ... data fetch qrcd --mirror REL --dir REL` from elsewhere (both relative)",
    needs: ["corpora"],
    async run(ctx) {
      await Deno.symlink(ctx.corpora, `${ctx.dir}/mirror`);
      const r = await task(ctx, ["data", "fetch", "qrcd", "--mirror", "mirror", "--dir", "cache"]);
      succeeded(r);
      assert(await readOr(`${ctx.dir}/cache/qrcd/.installed.json`));
      return "taken from `elsewhere/mirror`, installed into `elsewhere/cache`";
    },
  },
  {
    cls: "paths",
    tried: "`deno task ... data stats wikiqa --dir samples` from elsewhere (the keyword, not " +
      "a folder)",
    async run(ctx) {
      const r = await task(ctx, ["data", "stats", "wikiqa", "--dir", "samples", "--split", "dev"]);
      succeeded(r);
      assert(/^dev\s+\d+/m.test(r.stdout), r.stdout);
      return "still the bundled samples";
    },
  },
  {
    cls: "paths",
    tried: "`deno run ROOT/lib/cli/main.ts eval trec rel.qrels rel.run` from elsewhere with " +
      "a stale `INIT_CWD` (another folder) inherited from an outer task",
    async run(ctx) {
      await files(ctx);
      const r = await ctx.kit(["eval", "trec", "-m", "map", "rel.qrels", "rel.run"], {
        env: { INIT_CWD: PROJECT_ROOT },
      });
      succeeded(r);
      assertEquals(r.stdout.trim(), MAP);
      return "the working folder wins (only a process in the project root, as `deno task` " +
        "starts it, takes `INIT_CWD`)";
    },
  },
  {
    cls: "paths",
    tried: "`deno task` from a folder that is removed before the command starts",
    async run(ctx) {
      const argv = ["eval", "trec", "-m", "map", SAMPLE.qrels, SAMPLE.run];
      const r = await finish(start(...kitCommand(argv), PROJECT_ROOT, {
        env: { INIT_CWD: `${ctx.dir}/gone-already` },
      }));
      const err = r.stderr;
      assertEquals(r.code, 0, err);
      const warning = err.split("\n").find((l) => l.startsWith("warning: cannot work in"));
      assert(warning, err);
      return "a warning (`warning: cannot work in the folder the command was run from, ...`); " +
        "relative paths are then taken from the project root";
    },
  },
];
