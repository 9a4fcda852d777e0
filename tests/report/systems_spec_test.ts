/**
 * The arguments that name the user's systems, read once by `specFromArgs` for both places a
 * user writes them: the report's flags (`--run`, ...) and notebook 00's environment
 * (`KIT_RUNS`, ...), so the two agree on every value and every error names what the user
 * wrote. Paths resolve against the caller's folder, never the kernel's or the project's.
 */
import assert from "node:assert/strict";
import { KitError } from "../../lib/errors.ts";
import { paramsEnv } from "../../lib/report/execute.ts";
import {
  ENV_NAMES,
  EXAMPLE_SYSTEMS,
  FLAG_NAMES,
  SAMPLE_SYSTEMS,
  specFromArgs,
  SYSTEMS_ENV,
  systemsFromEnv,
  userSystems,
} from "../../lib/report/user_systems.ts";

const none = { runs: [], models: [], qrcdRuns: [] } as const;

/** A caller's folder: two seeds, one run, a model folder, a QRCD run and gold file. */
async function callerFolder(): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "kit-args-" });
  await Deno.mkdir(`${dir}/runs`);
  await Deno.mkdir(`${dir}/models/mine`, { recursive: true });
  for (const f of ["runs/seed1.run", "runs/seed2.run", "runs/seed10.run", "one.run"]) {
    await Deno.writeTextFile(`${dir}/${f}`, "");
  }
  await Deno.writeTextFile(`${dir}/qrcd.json`, "{}");
  await Deno.writeTextFile(`${dir}/gold.jsonl`, "");
  return dir;
}

Deno.test("specFromArgs: defaults, paths against the caller's folder, models, QRCD", async () => {
  const dir = await callerFolder();
  try {
    const spec = specFromArgs({
      runs: ["one=one.run", "seeds=runs/seed*.run"],
      models: ["local=models/mine", "bm25 again=lexical:bm25", "l=ltr", "hub=org/some-model"],
      qrcdRuns: ["q=qrcd.json"],
    }, dir)!;
    assert.deepEqual([spec.dataset, spec.split, spec.filter], ["wikiqa", "test", "clean"]);
    // The filter default is the protocol's for the split, as in every command.
    const train = specFromArgs(
      { runs: ["one=one.run"], models: [], qrcdRuns: [], split: "train" },
      dir,
    )!;
    assert.equal(train.filter, "no-all");
    assert.deepEqual(spec.systems, [
      { name: "one", runs: [`${dir}/one.run`] },
      // A glob in numeric order.
      { name: "seeds", runs: [1, 2, 10].map((s) => `${dir}/runs/seed${s}.run`) },
      // A model folder made absolute; other specs (lexical, ltr, a hub id) kept as written.
      { name: "local", runs: [], model: `${dir}/models/mine` },
      { name: "bm25 again", runs: [], model: "lexical:bm25" },
      { name: "l", runs: [], model: "ltr" },
      { name: "hub", runs: [], model: "org/some-model" },
    ]);
    assert.deepEqual(spec.qrcd, { gold: "dev", runs: [{ name: "q", path: `${dir}/qrcd.json` }] });

    const trec = specFromArgs({
      ...none,
      runs: ["x=one.run"],
      dataset: "trecqa",
      split: "dev",
      filter: "raw",
    }, dir)!;
    assert.deepEqual([trec.dataset, trec.split, trec.filter], ["trecqa", "dev", "raw"]);
    // Gold: a split name, or a file relative to the caller.
    assert.equal(
      specFromArgs({ ...none, qrcdRuns: ["q=qrcd.json"], qrcdGold: "gold.jsonl" }, dir)!.qrcd!
        .gold,
      `${dir}/gold.jsonl`,
    );
    assert.equal(
      specFromArgs({ ...none, qrcdRuns: ["q=qrcd.json"], qrcdGold: "train" }, dir)!.qrcd!.gold,
      "train",
    );
    assert.equal(specFromArgs(none, dir), undefined);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("specFromArgs: every error is a KitError naming the flag or variable written", async () => {
  const dir = await callerFolder();
  try {
    const cases: [Partial<Parameters<typeof specFromArgs>[0]>, RegExp, RegExp][] = [
      [{ runs: ["one.run"] }, /--run takes NAME=PATH/, /KIT_RUNS takes NAME=PATH/],
      [{ runs: ["x=missing.run"] }, /--run x: file not found/, /KIT_RUNS x: file not found/],
      [{ runs: ["x=runs"] }, /--run x: not a regular file/, /KIT_RUNS x: not a regular file/],
      [
        { runs: ["x=nothing*.run"] },
        /--run x: no file matches the pattern 'nothing\*\.run'/,
        /KIT_RUNS x: no file matches/,
      ],
      [{ models: ["lexical:bm25"] }, /--model takes NAME=SPEC/, /KIT_MODELS takes NAME=SPEC/],
      [{ models: ["m= "] }, /--model m= : no model spec/, /KIT_MODELS m= : no model spec/],
      [{ qrcdRuns: ["q=qrcd.json,one.run"] }, /--qrcd-run q: give one/, /KIT_QRCD_RUNS q: give/],
      [{ qrcdGold: "dev" }, /--qrcd-gold is for --qrcd-run/, /KIT_QRCD_GOLD is for KIT_QRCD_RUNS/],
      [
        { qrcdRuns: ["q=qrcd.json"], qrcdGold: "nope.jsonl" },
        /--qrcd-gold: file not found/,
        /KIT_QRCD_GOLD: file not found/,
      ],
      [{ split: "test" }, /--split is for the user's systems; give --run/, /KIT_SPLIT is for/],
      [
        { dataset: "wikiqa" },
        /--dataset is for/,
        /KIT_DATASET is for the user's systems; give KIT_RUNS/,
      ],
      [{ filter: "clean" }, /--filter is for/, /KIT_FILTER is for/],
      // Values checked whichever way they came.
      [
        { runs: ["x=one.run"], dataset: "toString" },
        /unknown dataset 'toString'/,
        /unknown dataset/,
      ],
      [{ runs: ["x=one.run"], split: "tset" }, /unknown wikiqa split 'tset'/, /split 'tset'/],
      [{ runs: ["x=one.run"], filter: "dirty" }, /unknown filter 'dirty'/, /filter 'dirty'/],
      [{ runs: ["a=one.run", "a=runs/seed1.run"] }, /two systems are named 'a'/, /named 'a'/],
      [{ runs: ["BM25 (kit)=one.run"] }, /kit's baselines/, /kit's baselines/],
      [{ runs: ["x=one.run,one.run"] }, /given twice/, /given twice/],
    ];
    for (const [args, flagMessage, envMessage] of cases) {
      for (
        const [names, message] of [[FLAG_NAMES, flagMessage], [ENV_NAMES, envMessage]] as const
      ) {
        assert.throws(
          () => specFromArgs({ ...none, ...args }, dir, names),
          (e: unknown) => e instanceof KitError && message.test(e.message),
          `${JSON.stringify(args)} with ${names.runs}`,
        );
      }
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("notebook 00's environment: KIT_RUNS and friends read like the flags", async () => {
  const dir = await callerFolder();
  try {
    // `;` or new lines between values; spaces around them ignored; empty variables unset.
    const spec = systemsFromEnv({
      KIT_RUNS: "one=one.run;\n seeds = runs/seed*.run ;",
      KIT_QRCD_RUNS: "q=qrcd.json",
      KIT_QRCD_GOLD: " train ",
      KIT_SPLIT: "dev",
      KIT_FILTER: "",
    }, dir)!;
    assert.deepEqual(
      spec,
      specFromArgs({
        runs: ["one=one.run", "seeds = runs/seed*.run"],
        models: [],
        qrcdRuns: ["q=qrcd.json"],
        qrcdGold: "train",
        split: "dev",
      }, dir),
    );
    assert.equal(spec.systems[1].runs.length, 3);
    assert.equal(systemsFromEnv({ KIT_RUNS: " ; ", KIT_SPLIT: "" }, dir), undefined);
    // A model needs scoring, which only the report does: refused, with what to do instead.
    assert.throws(
      () => systemsFromEnv({ KIT_MODELS: "m=ltr", KIT_RUNS: "one=one.run" }, dir),
      /KIT_MODELS is for 'deno task report --model'.*score it first.*KIT_RUNS/s,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("userSystems: the caller's folder is INIT_CWD, else PWD; KIT_SYSTEMS alone", async () => {
  const dir = await callerFolder();
  try {
    const other = await Deno.makeTempDir();
    const runs = (env: Record<string, string>) => userSystems(env).systems[0].runs;
    assert.deepEqual(runs({ KIT_RUNS: "x=one.run", INIT_CWD: dir, PWD: other }), [
      `${dir}/one.run`,
    ]);
    // Jupyter started by hand (no INIT_CWD, or an empty one): the shell's folder.
    assert.deepEqual(runs({ KIT_RUNS: "x=one.run", PWD: dir }), [`${dir}/one.run`]);
    assert.deepEqual(runs({ KIT_RUNS: "x=one.run", INIT_CWD: "", PWD: dir }), [`${dir}/one.run`]);
    assert.throws(() => runs({ KIT_RUNS: "x=one.run", INIT_CWD: other }), /file not found/);
    await Deno.remove(other);

    // KIT_SYSTEMS names the spec file the report writes. Both ways at once is ambiguous; an
    // empty variable is unset (as the report leaves them).
    const specFile = (spec: unknown) => {
      const file = `${dir}/spec-${Math.random()}.json`;
      Deno.writeTextFileSync(file, JSON.stringify(spec));
      return file;
    };
    const file = specFile({ ...SAMPLE_SYSTEMS, qrcd: undefined });
    assert.throws(
      () => userSystems({ [SYSTEMS_ENV]: file, KIT_RUNS: "x=one.run", PWD: dir }),
      /KIT_SYSTEMS and KIT_RUNS are both set/,
    );
    assert.equal(userSystems({ [SYSTEMS_ENV]: file, KIT_RUNS: "", KIT_SPLIT: " " }).split, "test");
    // The spec from the report has every model scored into a run.
    const unscored = { ...SAMPLE_SYSTEMS, systems: [{ name: "m", runs: [], model: "ltr" }] };
    assert.throws(
      () => userSystems({ [SYSTEMS_ENV]: specFile(unscored) }),
      /system 'm' has no run file/,
    );
    // Wrong types are a message naming the field, never a TypeError.
    const base = { dataset: "wikiqa", split: "test", filter: "clean" };
    for (
      const [spec, message] of [
        [{ ...base, systems: [{ name: 5 }] }, /systems\[0\]\.name must be a string, got 5/],
        [null, /expected a JSON object, got null/],
        [
          { ...base, systems: [{ name: "a", runs: [5] }] },
          /systems\[0\]\.runs\[0\] must be a string, got 5/,
        ],
        [{ ...base, systems: "x" }, /systems must be a list, got "x"/],
        [{ ...base, split: 3, systems: [] }, /split must be a string, got 3/],
        [
          { ...base, systems: [{ name: "a", runs: ["/r"] }], compare: ["a"] },
          /compare must name two systems/,
        ],
      ] as const
    ) {
      assert.throws(
        () => userSystems({ [SYSTEMS_ENV]: specFile(spec) }),
        (e: Error) => e instanceof KitError && message.test(e.message) && e.message.includes(dir),
      );
    }
    assert.throws(
      () => userSystems({ [SYSTEMS_ENV]: `${dir}/none.json` }),
      /cannot read the spec file/,
    );
    // Nothing given: the page's example (the kit's baselines), on either data.
    assert.equal(userSystems({ KIT_DATA: "sample" }), EXAMPLE_SYSTEMS);
    assert.equal(userSystems({ KIT_DATA: "real" }), EXAMPLE_SYSTEMS);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the report's kernels get KIT_SYSTEMS and every KIT_RUNS-like variable emptied", () => {
  const env = paramsEnv({ data: "real", systems: SAMPLE_SYSTEMS, systemsFile: "/tmp/s.json" });
  assert.equal(env[SYSTEMS_ENV], "/tmp/s.json");
  for (const name of Object.values(ENV_NAMES)) assert.equal(env[name], "", name);
  // Without systems (notebooks 01-07) the user's environment is left alone.
  const plain = paramsEnv({ data: "sample" });
  for (const name of [SYSTEMS_ENV, ...Object.values(ENV_NAMES)]) {
    assert.equal(plain[name], undefined);
  }
});
