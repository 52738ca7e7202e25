import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, posix } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { transformersInstalled, writeTinyModel } from "../src/embeddings/transformers/test-support.js";

const root = fileURLToPath(new URL("..", import.meta.url));

/** The variables by which onnxruntime-node 1.30 tells it runs in CI (and keeps its telemetry off): CI, and those named in its library. */
const ONNX_CI_VARIABLES = ["CI", "TF_BUILD", "GITHUB_ACTIONS", "GITLAB_CI", "CIRCLECI", "TRAVIS", "JENKINS_URL", "CODEBUILD_BUILD_ID", "BUILDKITE", "TEAMCITY_VERSION", "APPVEYOR", "BITBUCKET_BUILD_NUMBER"];

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

  it("starts scoring threads from one bundled file that holds the WebAssembly Levenshtein, and scores on them as on the main thread; SQLite only for an embedding cache", () => {
    const bundle = readFileSync(join(root, "dist/run/worker.bundle.js"), "utf8");
    const { wasmBase64 } = JSON.parse(
      spawnSync(process.execPath, ["--input-type=module", "-e", `console.log(JSON.stringify(await import("./dist/metrics/generated/levenshtein-wasm.js")))`], { cwd: root, encoding: "utf8" }).stdout,
    ) as { wasmBase64: string };
    expect(wasmBase64.length).toBeGreaterThan(1000);
    expect(bundle).toContain(wasmBase64);
    expect(bundle).not.toContain("import(generatedSpecifier)");
    // SQLite is not in it: a thread loads the run store from dist/storage/ when it keeps embeddings.
    expect(bundle).not.toContain("better-sqlite3");
    // Long texts (the WebAssembly engine's), short ones, and every local evaluator, on 2 threads and on this one.
    const script = `
      import { writeFileSync } from "node:fs";
      import { createRequire } from "node:module";
      const { runDataset } = await import(${JSON.stringify(pathToFileURL(join(root, "dist/node.js")).href)});
      const path = process.env.DATASET;
      const rows = Array.from({ length: 300 }, (_, i) => JSON.stringify({ output: "ab".repeat(i * 7) + "x", expected: "ba".repeat(i * 7) + (i % 3 ? "x" : "y") }));
      writeFileSync(path, rows.join("\\n") + "\\n");
      const evaluators = [{ type: "exact_match" }, { type: "levenshtein" }, { type: "levenshtein_distance" }, { type: "jaccard_similarity" }, { type: "tfidf_similarity" }];
      const lines = async (workers) => {
        const out = [];
        await runDataset({ dataset: path, evaluators, workers, write: async (bytes) => void out.push(Buffer.from(bytes).toString()) });
        return out.join("");
      };
      const [threads, here] = [await lines(2), await lines(0)];
      // An embedding evaluator's threads load the run store on demand and keep their embeddings in it.
      const vectors = path + ".vectors.txt";
      writeFileSync(vectors, "ab 0.1 0.2\\nba 0.3 0.1\\nx 0.5 0.5\\n");
      const db = path + ".db";
      const semantic = [{ type: "semantic_similarity", config: { provider: "word_vectors", path: vectors } }];
      await runDataset({ dataset: path, evaluators: semantic, workers: 2, embeddingCacheDb: db });
      const Database = createRequire(${JSON.stringify(join(root, "package.json"))})("better-sqlite3");
      const cached = new Database(db).prepare("SELECT count(*) AS n FROM embedding_cache").get().n;
      console.log(JSON.stringify({ same: threads === here, lines: threads.split("\\n").length - 1, cached: cached > 0 }));
    `;
    // A file, not --input-type=module -e: worker threads inherit the process's flags, and that one is refused there.
    const dir = mkdtempSync(join(tmpdir(), "simeval-bundle-"));
    writeFileSync(join(dir, "check.mjs"), script);
    const p = spawnSync(process.execPath, [join(dir, "check.mjs")], { cwd: root, encoding: "utf8", env: { ...process.env, DATASET: join(dir, "rows.jsonl") } });
    rmSync(dir, { recursive: true, force: true });
    expect(p.stderr).toBe("");
    expect(JSON.parse(p.stdout)).toEqual({ same: true, lines: 300, cached: true });
  });

  it.skipIf(!transformersInstalled)("embeds with transformers.js on two scoring threads from the bundle, as on the main thread", () => {
    const dir = mkdtempSync(join(tmpdir(), "simeval-bundle-tf-"));
    try {
      const model = writeTinyModel(join(dir, "tiny"), ["the", "cat", "sat", "on", "mat", "dog"]);
      const texts = ["the cat sat", "the dog sat on the mat", "a cat", "the mat"];
      const rows = Array.from({ length: 200 }, (_, i) => JSON.stringify({ output: texts[i % 4], expected: texts[(i * 3) % 4] }));
      writeFileSync(join(dir, "rows.jsonl"), rows.join("\n") + "\n");
      const script = `
        const { runDataset } = await import(${JSON.stringify(pathToFileURL(join(root, "dist/node.js")).href)});
        const evaluators = [{ type: "semantic_similarity", config: { provider: "transformers", model: ${JSON.stringify(model.dir)} } }];
        const lines = async (workers) => {
          const out = [];
          await runDataset({ dataset: ${JSON.stringify(join(dir, "rows.jsonl"))}, evaluators, workers, write: async (bytes) => void out.push(Buffer.from(bytes).toString()) });
          return out.join("").split("\\n").filter(Boolean).map((l) => JSON.parse(l).results.semantic_similarity.score);
        };
        console.log(JSON.stringify({ threads: await lines(2), here: await lines(0) }));
      `;
      writeFileSync(join(dir, "check.mjs"), script);
      // ONNX Runtime's telemetry is on outside CI, which it tells by these variables: simeval switches it off.
      const outsideCi = Object.fromEntries(Object.entries(process.env).filter(([name]) => !ONNX_CI_VARIABLES.includes(name) && name !== "ORT_DISABLE_TELEMETRY"));
      const temp = join(dir, "tmp");
      mkdirSync(temp);
      const p = spawnSync(process.execPath, [join(dir, "check.mjs")], { cwd: root, encoding: "utf8", env: { ...outsideCi, TMPDIR: temp } });
      expect(p.stderr).toBe("");
      expect(readdirSync(temp)).toEqual([]); // its .ses and mat-debug-PID.log
      const { threads, here } = JSON.parse(p.stdout) as { threads: number[]; here: number[] };
      expect(threads).toHaveLength(200);
      expect(threads).toEqual(here);
      expect(new Set(threads.map((x) => x.toFixed(6))).size).toBeGreaterThan(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("ships no declarations without their module (the scoring thread's, bundled into worker.bundle.js)", () => {
    const files = new Set(packedFiles());
    expect([...files].filter((f) => f.endsWith(".d.ts") && !files.has(f.replace(/\.d\.ts$/, ".js")))).toEqual([]);
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
