/**
 * The spec of a systems report, in its one form: the report's flags become it (paths against
 * the caller's folder), a notebook writes it as an object, `spec.json` holds it as JSON
 * (paths against the file's folder). Every value and every error is the same whichever way it
 * came; the kernel of page 00 gets the report's file, not the spec.
 */
import "../quick.ts";
import assert from "node:assert/strict";
import { KitError } from "../../lib/errors.ts";
import { paramsEnv } from "../../lib/report/build/execute.ts";
import { SYSTEMS_REPORT_ENV } from "../../lib/report/systems/report.ts";
import { readSpecFile, resolveSpec, specFromFlags } from "../../lib/report/systems/spec.ts";

const none = { runs: [], models: [] } as const;

/** The report flags of the task parts (`--qrcd-run`, `--qrcd-gold`), as report.ts reads them. */
function parts(values: Record<string, string | string[]>) {
  return {
    parts: {
      list: (name: string) => [values[name] ?? []].flat(),
      str: (name: string) => typeof values[name] === "string" ? values[name] as string : undefined,
      has: () => false,
    },
  };
}

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

Deno.test("specFromFlags: defaults, paths against the caller's folder, models, QRCD", async () => {
  const dir = await callerFolder();
  try {
    const spec = specFromFlags({
      runs: ["one=one.run", "seeds=runs/seed*.run"],
      models: ["local=models/mine", "bm25 again=lexical:bm25", "l=ltr", "hub=org/some-model"],
      ...parts({ "qrcd-run": ["q=qrcd.json"] }),
    }, dir)!;
    assert.deepEqual([spec.dataset, spec.split, spec.filter], ["wikiqa", "test", "clean"]);
    // No corpus asked: the installed one is chosen when the report is computed.
    assert.equal(spec.data, undefined);
    assert.equal(spec.baselines, true);
    // The filter default is the protocol's for the split, as in every command.
    assert.equal(
      specFromFlags({ ...none, runs: ["one=one.run"], split: "train" }, dir)!.filter,
      "no-all",
    );
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
    const trec = specFromFlags(
      {
        ...none,
        runs: ["x=one.run"],
        dataset: "trecqa",
        split: "dev",
        filter: "raw",
        data: "sample",
      },
      dir,
    )!;
    assert.deepEqual([trec.dataset, trec.split, trec.filter, trec.data], [
      "trecqa",
      "dev",
      "raw",
      "sample",
    ]);
    assert.equal(
      (specFromFlags(
        { ...none, ...parts({ "qrcd-run": ["q=qrcd.json"], "qrcd-gold": "gold.jsonl" }) },
        dir,
      )!.qrcd as { gold: string }).gold,
      `${dir}/gold.jsonl`,
    );
    assert.equal(specFromFlags(none, dir), undefined);
    // --no-baselines: the kit's baselines left out (the family is your pairs alone).
    assert.equal(
      specFromFlags({ ...none, runs: ["x=one.run"], baselines: false }, dir)!.baselines,
      false,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("specFromFlags: every error is a KitError naming the flag", async () => {
  const dir = await callerFolder();
  try {
    const cases: [Partial<Parameters<typeof specFromFlags>[0]>, RegExp][] = [
      [{ runs: ["one.run"] }, /--run takes NAME=PATH/],
      [{ runs: ["x=missing.run"] }, /--run x: file not found/],
      [{ runs: ["x=runs"] }, /--run x: not a regular file/],
      [{ runs: ["x=nothing*.run"] }, /--run x: no file matches the pattern 'nothing\*\.run'/],
      [{ models: ["lexical:bm25"] }, /--model takes NAME=SPEC/],
      [{ models: ["m= "] }, /--model m= : no model spec/],
      [parts({ "qrcd-run": ["q=qrcd.json,one.run"] }), /--qrcd-run q: give one/],
      [parts({ "qrcd-gold": "dev" }), /--qrcd-gold is for --qrcd-run/],
      [{ split: "test" }, /--split is for your systems; give --run/],
      [{ dataset: "wikiqa" }, /--dataset is for your systems/],
      [{ filter: "clean" }, /--filter is for your systems/],
      [{ compare: "a,b" }, /--compare is for your systems/],
      [{ runs: ["x=one.run"], dataset: "toString" }, /unknown dataset 'toString'/],
      [{ runs: ["x=one.run"], split: "tset" }, /unknown wikiqa split 'tset'/],
      [{ runs: ["x=one.run"], filter: "dirty" }, /unknown filter 'dirty'/],
      [{ runs: ["a=one.run", "a=runs/seed1.run"] }, /two systems are named 'a'/],
      [{ runs: ["BM25 (kit)=one.run"] }, /kit's baselines/],
      [{ runs: ["x=one.run,one.run"] }, /given twice/],
      [
        { runs: ["x=one.run"], compare: "x,y" },
        /--compare: no answer-selection system is named 'y'/,
      ],
      [{ runs: ["x=one.run"], compare: "x" }, /--compare takes two system names/],
    ];
    for (const [args, message] of cases) {
      assert.throws(
        () => specFromFlags({ ...none, ...args }, dir),
        (e: unknown) => e instanceof KitError && message.test(e.message),
        JSON.stringify(args),
      );
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the spec as an object or as spec.json: the same fields, paths against its folder, typed errors", async () => {
  const dir = await callerFolder();
  try {
    const object = {
      dataset: "wikiqa",
      systems: [{ name: "one", runs: ["one.run"] }, { name: "seeds", runs: ["runs/seed*.run"] }],
      compare: ["seeds", "one"] as [string, string],
    };
    const fromObject = resolveSpec(object, dir);
    // What ./kit report writes is a spec too, and reads back to itself from anywhere.
    const file = `${dir}/spec.json`;
    await Deno.writeTextFile(file, JSON.stringify(object));
    assert.deepEqual(await readSpecFile(file), fromObject);
    await Deno.writeTextFile(`${dir}/again.json`, JSON.stringify(fromObject));
    assert.deepEqual(await readSpecFile(`${dir}/again.json`), fromObject);
    assert.deepEqual(fromObject.systems[1].runs, [1, 2, 10].map((s) => `${dir}/runs/seed${s}.run`));
    // Wrong types are a message naming the field, never a TypeError.
    const cases: [unknown, RegExp][] = [
      [{ systems: [{ name: 5 }] }, /systems\[0\]\.name must be a string, got 5/],
      [null, /expected an object, got null/],
      [{ systems: [{ name: "a", runs: [5] }] }, /systems\[0\]\.runs\[0\] must be a string, got 5/],
      [{ systems: "x" }, /systems must be a list, got "x"/],
      [{ split: 3, systems: [] }, /split must be a string, got 3/],
      [{ systems: [{ name: "a", runs: ["one.run"] }], compare: ["a"] }, /compare must name two/],
      [{ systems: [{ name: "a" }] }, /system 'a': give its run files \(runs\) or a model/],
      [
        { systems: [{ name: "a", runs: ["one.run"] }], data: "full" },
        /data must be 'real' or 'sample'/,
      ],
      [{ systems: [{ name: "a", runs: ["one.run"] }], runs: [] }, /unknown field 'runs'/],
      [{ systems: [] }, /no system given/],
    ];
    for (const [spec, message] of cases) {
      await Deno.writeTextFile(file, JSON.stringify(spec));
      await assert.rejects(
        () => readSpecFile(file),
        (e: Error) => e instanceof KitError && message.test(e.message) && e.message.includes(file),
        JSON.stringify(spec),
      );
    }
    await assert.rejects(() => readSpecFile(`${dir}/none.json`), /cannot read the spec/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("page 00's kernel gets the report's file, and no other systems variable", () => {
  const env = paramsEnv({ data: "real", systemsReport: "/r/systems.json" });
  assert.equal(env[SYSTEMS_REPORT_ENV], "/r/systems.json");
  assert.deepEqual(
    Object.keys(env).filter((k) =>
      /^KIT_(RUNS|SYSTEMS|MODELS|QRCD|DATASET|SPLIT|FILTER|COMPARE)/.test(k)
    ),
    [SYSTEMS_REPORT_ENV],
  );
  // The lessons' kernels: none.
  assert.equal(paramsEnv({ data: "sample" })[SYSTEMS_REPORT_ENV], undefined);
});
