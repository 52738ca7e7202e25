#!/usr/bin/env node
// Bundles the scoring thread (dist/run/worker.js and every module it imports, zod and the JSONPath
// parser included, the run store aside) into one file, dist/run/worker.bundle.js, which the pool starts,
// and removes dist/run/worker.js and its worker.d.ts, which nothing else loads. A thread that loads one
// file instead of some 200 starts in about half the time: on 1M rows it saved 0.1 to 0.3 s of a 3 to
// 3.5 s summary-only run (2 cores). Runs after `tsc` in `npm run build`, with esbuild (a devDependency,
// already there for tsx and vitest).
//
// Usage: node scripts/bundle-worker.mjs
import { readFile, rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const entry = join(root, "dist", "run", "worker.js");

// levenshtein-wasm.js imports its generated WebAssembly through a specifier in a variable, so that tsc
// builds without it; a bundler leaves such an import for run time, where it would be looked up beside the
// bundle and not found (Levenshtein without WebAssembly). Here it is made literal, so that it is bundled.
const VARIABLE_IMPORT = "await import(generatedSpecifier)";
const wasmImportInlined = {
  name: "levenshtein-wasm-import",
  setup(b) {
    b.onLoad({ filter: /[\\/]metrics[\\/]levenshtein-wasm\.js$/ }, async ({ path }) => {
      const code = await readFile(path, "utf8");
      if (!code.includes(VARIABLE_IMPORT)) throw new Error(`${path}: "${VARIABLE_IMPORT}" not found; update scripts/bundle-worker.mjs`);
      return { contents: code.replace(VARIABLE_IMPORT, 'await import("./generated/levenshtein-wasm.js")'), loader: "js" };
    });
  },
};

// The run store (and better-sqlite3, a native addon, which a bundle would import as it starts) is loaded only for
// the embedding cache: the thread's import of it is left for run time, where it finds dist/storage/sqlite.js.
const STORE = "../storage/sqlite.js";
const storeOnDemand = {
  name: "store-on-demand",
  setup(b) {
    b.onResolve({ filter: /[\\/]storage[\\/]/ }, ({ path, importer, kind }) => {
      if (importer !== entry || path !== STORE || kind !== "dynamic-import") {
        throw new Error(`${importer} imports ${path} (${kind}): only worker.js's import("${STORE}") is expected; update scripts/bundle-worker.mjs`);
      }
      return { path, external: true };
    });
  },
};

await build({
  entryPoints: [entry],
  outfile: join(root, "dist", "run", "worker.bundle.js"),
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  // What a provider imports only when it is used.
  external: ["@huggingface/transformers"],
  plugins: [wasmImportInlined, storeOnDemand],
  logLevel: "warning",
});
await rm(entry);
// Its declarations too: they would describe a module the package does not ship.
await rm(entry.replace(/\.js$/, ".d.ts"));
