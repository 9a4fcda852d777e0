/**
 * Gives an isolate's temporary files their own folder: `Deno.makeTempDir()`, `makeTempFile()`
 * and their Sync forms, called without a `dir`, make them in `dir`, in this isolate alone.
 * (TMPDIR would not do: it is the process's, and the test files that `--parallel` runs beside
 * one another are threads of one process.) Used by `tests/quick.ts` and the doc examples'
 * runner, so that a test or example that leaves a file leaves it in a folder removed after.
 *
 * @module
 */

/** Makes `Deno`'s temporary files and folders of this isolate go into `dir` by default. */
export function keepTempFilesIn(dir: string): void {
  for (
    const name of ["makeTempDir", "makeTempDirSync", "makeTempFile", "makeTempFileSync"] as const
  ) {
    const made = Deno[name] as (o?: Deno.MakeTempOptions) => unknown;
    Object.defineProperty(Deno, name, {
      value: (options: Deno.MakeTempOptions = {}) => made({ ...options, dir: options.dir ?? dir }),
    });
  }
}
