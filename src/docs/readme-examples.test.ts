import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../..", import.meta.url));
const readme = readFileSync(join(root, "README.md"), "utf8");
/** The README's TypeScript examples, as a user copies them. */
const examples = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1] as string);

/**
 * What each example says it prints: the `// …` comment after each `console.log(…);` (on its line, or the
 * comment lines that follow it), read as a JavaScript value.
 */
function promised(example: string): unknown[] {
  const values: unknown[] = [];
  // Indented as a whole when the example sits in a list item.
  for (const m of example.matchAll(/^ *console\.log\(.*\);(?: *\/\/ (.*))?\n((?: *\/\/.*\n)*)/gm)) {
    const comment = m[1] ?? m[2]!.replace(/^ *\/\/ ?/gm, "");
    values.push(new Function(`return (${comment});`)());
  }
  return values;
}

/** The built package, as a user installs it: the examples compiled strict (nodenext and bundler), then run. */
describe("README TypeScript examples", () => {
  // Inside the package, so that `simeval` resolves to itself through its exports.
  const dir = mkdtempSync(join(root, "test", ".readme-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const tsc = (file: string, ...args: string[]) =>
    spawnSync(process.execPath, [join(root, "node_modules", "typescript", "bin", "tsc"), "--strict", "--exactOptionalPropertyTypes", "--noUncheckedIndexedAccess", "--target", "es2022", "--types", "node", ...args, file], { cwd: root, encoding: "utf8" });

  it("there is at least one", () => expect(examples.length).toBeGreaterThan(0));

  examples.forEach((example, i) => {
    it(`#${i + 1} compiles with no error and prints what its comments say`, () => {
      const file = join(dir, `example-${i + 1}.ts`);
      writeFileSync(file, `${example}\nexport {};\n`);
      const bundler = tsc(file, "--noEmit", "--module", "esnext", "--moduleResolution", "bundler");
      expect(bundler.stdout + bundler.stderr).toBe("");
      const nodenext = tsc(file, "--module", "nodenext", "--moduleResolution", "nodenext", "--outDir", dir, "--rootDir", dir);
      expect(nodenext.stdout + nodenext.stderr).toBe("");
      const printed = `const out = []; console.log = (...a) => out.push(a.length === 1 ? a[0] : a); await import(${JSON.stringify(file.replace(/\.ts$/, ".js"))}); process.stdout.write(JSON.stringify(out));`;
      const p = spawnSync(process.execPath, ["--input-type=module", "-e", printed], { cwd: root, encoding: "utf8" });
      expect(p.stderr).toBe("");
      expect(JSON.parse(p.stdout)).toEqual(promised(example));
    }, 60_000);
  });
});
