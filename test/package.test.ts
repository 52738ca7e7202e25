import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import { join, posix } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("..", import.meta.url));

let packed: string[] | undefined;
/** The files `npm pack` would ship (asked once: npm takes most of a second). */
function packedFiles(): string[] {
  if (packed === undefined) {
    const p = spawnSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: root, encoding: "utf8" });
    expect(p.status).toBe(0);
    packed = (JSON.parse(p.stdout) as { files: { path: string }[] }[])[0]!.files.map((f) => f.path);
  }
  return packed;
}

/** The built package, as a user imports it (`npm ci` builds dist/ through `prepare`). */
describe("the package's exports", () => {
  it("import('simeval'), 'simeval/metrics' and 'simeval/node' resolve to built JavaScript", () => {
    const script = `
      const root = await import("simeval");
      const metrics = await import("simeval/metrics");
      const node = await import("simeval/node");
      const lev = root.createEvaluator({ type: "levenshtein", config: { threshold: 0.9, case_sensitive: true } });
      const r = await lev.evaluate({ output: "Hello World!", expected: "Hello World" });
      console.log(JSON.stringify({ score: r.score, passed: r.passed, d: metrics.levenshteinDistance("kitten", "sitting"), run: typeof node.runDataset, from: import.meta.resolve("simeval") }));
    `;
    const p = spawnSync(process.execPath, ["--input-type=module", "-e", script], { cwd: root, encoding: "utf8" });
    expect(p.stderr).toBe("");
    const out = JSON.parse(p.stdout) as { score: number; passed: boolean; d: number; run: string; from: string };
    expect(out).toMatchObject({ score: 0.92, passed: true, d: 3, run: "function" });
    expect(out.from).toMatch(/\/dist\/index\.js$/);
  });

  it("builds the command executable, so that `npx simeval` runs it after `npm run build` too (tsc writes it without the x bit)", () => {
    expect(statSync(join(root, "dist/cli/bin.js")).mode & 0o111).toBe(0o111);
    const p = spawnSync("npx", ["--no-install", "simeval", "--version"], { cwd: root, encoding: "utf8" });
    expect(p.stderr).toBe("");
    expect(p.status).toBe(0);
  });

  it("ships the build, the README and the WebAssembly source, without tests or source maps", () => {
    const files = packedFiles();
    expect(files).toContain("dist/index.js");
    expect(files).toContain("dist/cli/bin.js");
    expect(files).toContain("README.md");
    expect(files.filter((f) => f.endsWith(".map") || /\.test\.|test-support/.test(f))).toEqual([]);
    expect(files.every((f) => /^(dist\/|asm\/|README\.md$|package\.json$|LICENSE)/.test(f))).toBe(true);
  });

  it("ships no module that nothing loads (dev-only code such as the README's table generator)", () => {
    const shipped = packedFiles().filter((f) => f.endsWith(".js"));
    // What the entry points load, statically or dynamically, and the files they start (workers, child processes).
    const loaded = new Set<string>();
    const visit = (file: string) => {
      if (loaded.has(file) || !existsSync(join(root, file))) return;
      loaded.add(file);
      const text = readFileSync(join(root, file), "utf8");
      // Any quoted relative path to a .js file: an import, an import(), a new URL() of a worker or child process.
      for (const m of text.matchAll(/["'](\.{1,2}\/[^"']+\.js)["']/g)) visit(posix.join(posix.dirname(file), m[1]!));
    };
    for (const entry of ["dist/index.js", "dist/node.js", "dist/metrics/index.js", "dist/cli/bin.js"]) visit(entry);
    // Modules of types alone compile to an empty module, which is harmless.
    const unused = shipped.filter((f) => !loaded.has(f) && readFileSync(join(root, f), "utf8").replace(/\/\*[\s\S]*?\*\//g, "").trim() !== "export {};");
    expect(unused).toEqual([]);
  });
});
