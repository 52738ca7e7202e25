/**
 * Gives the test run a temporary folder of its own (TMPDIR, inherited by the test workers and every
 * process they start) and fails the run when a test leaves anything in it: a suite that leaves files
 * behind fills a developer's /tmp a little more on every run.
 */
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export default function setup(): () => void {
  const outer = process.env["TMPDIR"];
  const dir = mkdtempSync(join(tmpdir(), "simeval-tests-"));
  process.env["TMPDIR"] = dir;
  return () => {
    if (outer === undefined) delete process.env["TMPDIR"];
    else process.env["TMPDIR"] = outer;
    // tsx's compile cache (tsx-<uid>) is the tool's, not a test's.
    const left = readdirSync(dir).filter((name) => !/^tsx-\d+$/.test(name));
    rmSync(dir, { recursive: true, force: true });
    if (left.length > 0) {
      // vitest reports an error thrown here but still exits 0, so the exit code is set as well.
      console.error(`The tests left ${left.length === 1 ? "a file or folder" : `${left.length} files or folders`} in their temporary folder (${dir}): ${left.slice(0, 10).join(", ")}`);
      process.exitCode = 1;
    }
  };
}
