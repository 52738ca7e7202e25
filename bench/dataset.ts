/**
 * Dataset throughput and memory: 1,000,000 generated rows of short answers scored by exact_match,
 * levenshtein, jaccard_similarity and tfidf_similarity with `runDataset` (what `simeval run` does,
 * writing results.jsonl; summary only, also of the same rows as a JSON array), against a bare pass that only reads, parses and re-serialises the same
 * JSONL to a file, and against the same bare pass writing lines as large as simeval's results.jsonl
 * lines (the floor for writing that much, on one thread). Each variant runs in its own child process (`dataset-child.mjs`), so that peak
 * memory (RSS, sampled every 20 ms, worker threads included) is its own.
 *
 * simeval runs from the build (`dist/`, what the `simeval` command runs), so build first:
 * `npm run build && npx tsx bench/dataset.ts [rows]`; part of `npm run bench`, which builds.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { seededRandom } from "./rng.js";

const ANSWERS = ["Paris", "The capital of France is Paris.", "Refunds take 5 business days.", "Yes", "No, that is not possible.", "Go to Settings, then Security.", "42", "Call support on weekdays."];

/** Writes the rows as JSONL to `path`, and as a JSON array (an element a line) to `jsonPath`. */
function generate(path: string, jsonPath: string, rows: number): void {
  const rand = seededRandom(42);
  const out: string[] = [];
  let text = "";
  for (let i = 0; i < rows; i++) {
    const expected = ANSWERS[Math.floor(rand() * ANSWERS.length)] as string;
    const r = rand();
    const output = r < 0.4 ? expected : r < 0.6 ? expected.toLowerCase() : r < 0.8 ? `${expected} Thanks!` : (ANSWERS[Math.floor(rand() * ANSWERS.length)] as string);
    out.push(JSON.stringify({ id: i, input: `question ${i}`, output, expected }));
    if (out.length === 10_000) {
      text += out.join("\n") + "\n";
      out.length = 0;
    }
  }
  text += out.length ? out.join("\n") + "\n" : "";
  writeFileSync(path, text);
  writeFileSync(jsonPath, `[\n${text.trimEnd().split("\n").join(",\n")}\n]\n`);
}

export async function benchDataset(rows = 1_000_000): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "simeval-bench-"));
  try {
    const dataset = join(dir, "rows.jsonl");
    const jsonArray = join(dir, "rows.json");
    generate(dataset, jsonArray, rows);
    const mb = statSync(dataset).size / 2 ** 20;
    console.log(`\n## Dataset run: ${rows.toLocaleString("en-US")} rows (${mb.toFixed(0)} MB JSONL), 4 evaluators\n`);
    const child = fileURLToPath(new URL("./dataset-child.mjs", import.meta.url));
    const measure = (mode: string, input = dataset, ...more: string[]) => {
      const p = spawnSync(process.execPath, [child, mode, input, join(dir, `${mode}.out`), ...more], { encoding: "utf8", maxBuffer: 1 << 20 });
      if (p.status !== 0) throw new Error(`${mode} failed: ${p.stderr}`);
      return JSON.parse(p.stdout) as { seconds: number; peakRssMb: number };
    };
    const results: Record<string, { seconds: number; peakRssMb: number }> = {};
    // Two rounds, best time of each (the machine is shared); peak memory is the larger of the two. Each
    // round of simeval+store records a run in the same database, which is then compared.
    for (let round = 0; round < 2; round++) {
      for (const mode of ["bare", "summary", "summary-json", "simeval", "bare-results", "simeval+store"]) {
        const r = mode === "bare-results" ? measure(mode, dataset, join(dir, "simeval.out")) : mode === "summary-json" ? measure("summary", jsonArray) : measure(mode);
        const prev = results[mode];
        results[mode] = prev ? { seconds: Math.min(prev.seconds, r.seconds), peakRssMb: Math.max(prev.peakRssMb, r.peakRssMb) } : r;
      }
    }
    const floor = results["bare"]!.seconds;
    console.log("| pass | seconds | rows/s | ratio to the bare pass | peak RSS (MB) |");
    console.log("|---|---:|---:|---:|---:|");
    const label: Record<string, string> = {
      bare: "bare: parse + re-serialise each row",
      summary: "simeval: 4 evaluators, summary only",
      "summary-json": "simeval: summary only, the rows as a JSON array",
      simeval: "simeval: 4 evaluators, results.jsonl",
      "bare-results": "bare, writing lines the size of results.jsonl's",
      "simeval+store": "simeval: results.jsonl, also recorded in SQLite",
    };
    for (const mode of ["bare", "bare-results", "summary", "summary-json", "simeval", "simeval+store"]) {
      const r = results[mode]!;
      console.log(`| ${label[mode]} | ${r.seconds.toFixed(2)} | ${Math.round(rows / r.seconds).toLocaleString("en-US")} | ${(r.seconds / floor).toFixed(2)} | ${r.peakRssMb.toFixed(0)} |`);
    }
    const sized = results["bare-results"]!.seconds;
    console.log(`\nWriting results.jsonl, simeval takes ${(results["simeval"]!.seconds / sized).toFixed(2)} times as long as the bare pass writing lines of the same size (1 thread).`);
    const compared = measure("compare", join(dir, "simeval+store.out.db"));
    console.log(`\nComparing the two recorded runs (\`simeval compare\`): ${compared.seconds.toFixed(2)} s, ${Math.round((2 * rows) / compared.seconds).toLocaleString("en-US")} rows/s read, peak RSS ${compared.peakRssMb.toFixed(0)} MB`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The row count given on the command line: a whole number of rows, or undefined for the default. "--help" prints
 * the usage and anything else is refused (exit 2): Number("--help") was NaN, which generated an empty file and
 * benchmarked it.
 */
function rowsArgument(args: readonly string[]): number | undefined {
  const usage = "usage: npm run build && npx tsx bench/dataset.ts [rows]   (rows: a whole number, default 1000000)";
  if (args.length === 0) return undefined;
  if (args.length === 1 && (args[0] === "--help" || args[0] === "-h")) {
    console.log(usage);
    process.exit(0);
  }
  if (args.length > 1 || !/^[1-9][0-9]*$/.test(args[0] ?? "")) {
    console.error(`bench/dataset.ts: rows must be a whole number above 0, received ${args.map((a) => JSON.stringify(a)).join(" ")}\n${usage}`);
    process.exit(2);
  }
  return Number(args[0]);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) await benchDataset(rowsArgument(process.argv.slice(2)));
