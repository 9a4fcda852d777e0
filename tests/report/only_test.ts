/**
 * `--only` picks notebooks by number, as its help says ("the notebook numbered NN"): `1` is
 * `01`, never `10` to `12` (a tester's `--only 1` built 10-12 when it was a name prefix).
 */
import "../quick.ts";
import assert from "node:assert/strict";
import { listNotebooks } from "../../lib/report/build/notebooks.ts";
import { KitError } from "../../lib/errors.ts";

const DIR = new URL("../../notebooks", import.meta.url).pathname;

Deno.test("--only: a number picks that notebook alone, with or without its leading zero", () => {
  assert.deepEqual(listNotebooks(DIR, ["1"]), ["01-datasets.ipynb"]);
  assert.deepEqual(listNotebooks(DIR, ["01"]), ["01-datasets.ipynb"]);
  assert.deepEqual(listNotebooks(DIR, ["12", "1"]), ["01-datasets.ipynb", "12-qqa23.ipynb"]);
  assert.deepEqual(listNotebooks(DIR, ["10"]), ["10-robustness.ipynb"]);
  assert.deepEqual(listNotebooks(DIR, ["03-sc"]), ["03-scoring.ipynb"]);
});

Deno.test("--only: a number no notebook has is refused, naming the numbers there are", () => {
  assert.throws(
    () => listNotebooks(DIR, ["13"]),
    (e) =>
      e instanceof KitError &&
      /--only 13 matches no notebook \(the notebooks: 01, 02,/.test(e.message),
  );
  assert.throws(
    () => listNotebooks(DIR, ["0"]),
    (e) =>
      e instanceof KitError && /--only 0 matches no notebook \(00 needs systems/.test(e.message),
  );
  assert.throws(() => listNotebooks(DIR, ["1", "13"]), /--only 13/);
  // An empty value (`--only "$N"`, N unset) or a spaced one picks nothing: refused, quoted.
  assert.throws(() => listNotebooks(DIR, [""]), /--only "" matches no notebook/);
  assert.throws(() => listNotebooks(DIR, ["1", ""]), /--only "" matches no notebook/);
  assert.throws(() => listNotebooks(DIR, [" 1"]), /--only " 1" matches no notebook/);
  assert.throws(() => listNotebooks(DIR, ["datasets"]), /--only datasets matches no notebook/);
  assert.throws(
    () => listNotebooks(DIR, [""], { systems: true }),
    /--only "" matches no notebook/,
  );
});
