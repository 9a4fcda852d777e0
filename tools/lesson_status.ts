/**
 * Each lesson's estimated class time (`lessonLength`: exercises at 15 minutes, solution cells
 * left out) and its comparative sentences that no test backs (tests/report/lesson_claims.ts):
 * what an author checks after editing a lesson. `deno run -A tools/lesson_status.ts`
 *
 * @module
 */
import { CLASS_MINUTES, lessonLength, LESSONS } from "../lib/report/build/lessons.ts";
import { unbackedClaims } from "../tests/report/lesson_claims.ts";

const root = new URL("../notebooks/", import.meta.url).pathname;
for (const l of LESSONS) {
  let nb;
  try {
    nb = JSON.parse(Deno.readTextFileSync(`${root}${l.file}`));
  } catch {
    console.log(`== ${l.file}: missing`);
    continue;
  }
  const n = lessonLength(nb);
  const claims = unbackedClaims(nb);
  const fits = n.minutes <= CLASS_MINUTES ? "fits" : `over ${CLASS_MINUTES}`;
  console.log(
    `== ${l.file}: ${n.minutes} min (${fits}; ${n.exercises} exercises), ` +
      `${claims.length} comparison(s) with no test above`,
  );
  for (const c of claims) console.log(`  cell ${c.cell} (${c.section}): ${c.sentence}`);
}
