/**
 * The syllabus's content against the course: objectives for every lesson and none for a lesson
 * that is gone, the references and licences the issue names, and the warm-up cell run for real
 * (it must work for a student on the first day).
 */
import assert from "node:assert/strict";
import { htmlText } from "../../lib/io/escape.ts";
import { lessonLength, LESSONS } from "../../lib/report/build/lessons.ts";
import {
  COURSE,
  lessonParts,
  syllabusHtml,
  WARM_UP_CODE,
} from "../../lib/report/build/syllabus.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

Deno.test("syllabus: objectives for every lesson, and only for lessons", () => {
  const names = LESSONS.map((l) => l.file.replace(/\.ipynb$/, ""));
  assert.deepEqual(Object.keys(COURSE.objectives).sort(), [...names].sort());
  for (const n of names) assert.ok(COURSE.objectives[n].length >= 2, `${n}: objectives`);
});

Deno.test("syllabus: full references and each dataset's licence", () => {
  const refs = COURSE.references.join("\n");
  for (
    const must of [
      "WikiQA",
      "Jeopardy",
      "TANDA",
      "arXiv:1911.04118",
      "OSACT5",
      "Qur'an QA 2023",
      "AI-Powered Search",
      "trec_eval",
    ]
  ) assert.ok(refs.includes(must), must);
  const licences = COURSE.licences.map((l) => `${l.dataset}: ${l.licence}`).join("\n");
  assert.match(licences, /WikiQA: Microsoft Research Data License/);
  assert.match(licences, /QRCD.*: CC BY-NC-ND 4\.0/);
  assert.match(licences, /TREC-QA.*: MIT/);
  // the README and docs/datasets.md name them too
  for (const doc of ["README.md", "docs/datasets.md"]) {
    const t = Deno.readTextFileSync(`${ROOT}${doc}`).replace(/\s+/g, " ");
    for (const l of ["Microsoft Research Data License", "CC BY-NC-ND 4.0", "MIT"]) {
      assert.ok(t.includes(l), `${doc} names ${l}`);
    }
  }
});

Deno.test("syllabus: every lesson's parts add up to its minutes, give or take rounding", () => {
  for (const l of LESSONS) {
    const nb = JSON.parse(Deno.readTextFileSync(`${ROOT}notebooks/${l.file}`));
    const parts = lessonParts(nb);
    assert.ok(parts.length >= 3, `${l.file}: parts`);
    assert.equal(parts.at(-1)!.title, "Exercises", l.file);
    // each part rounds up: the sum exceeds the lesson's minutes by less than a minute a part
    const sum = parts.reduce((n, p) => n + p.minutes, 0);
    const minutes = lessonLength(nb).minutes;
    assert.ok(
      sum >= minutes - 1 && sum <= minutes + parts.length,
      `${l.file}: ${sum} vs ${minutes}`,
    );
    const html = syllabusHtml([{
      file: l.file,
      title: parts[0].title,
      notebook: nb,
      links: { page: "p" },
    }]);
    assert.ok(html.includes(htmlText(parts[1].title)), l.file);
  }
});

Deno.test("syllabus: the warm-up cell runs against the kit and prints its table", async () => {
  const dir = await Deno.makeTempDir({ dir: `${ROOT}notebooks`, prefix: ".warmup-" });
  try {
    // it sits where a student's notebook sits: one folder below the checkout's root
    await Deno.writeTextFile(`${dir}/warmup.ts`, WARM_UP_CODE.replace("../lib/", "../../lib/"));
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", `${dir}/warmup.ts`],
      stdout: "piped",
      stderr: "piped",
    }).output();
    const stdout = new TextDecoder().decode(out.stdout);
    assert.ok(out.success, new TextDecoder().decode(out.stderr));
    assert.match(stdout, /WikiQA test: raw and clean/);
    assert.match(stdout, /clean/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
