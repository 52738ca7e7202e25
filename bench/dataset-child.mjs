/**
 * One measured pass of the dataset benchmark (`bench/dataset.ts` runs it in a child process):
 * `node bench/dataset-child.mjs MODE DATASET OUT`, MODE = bare | summary | simeval | simeval+store
 * (summary: the summary alone, as `simeval run --no-db` without `--out`; simeval: also results.jsonl);
 * `node bench/dataset-child.mjs bare-results DATASET OUT RESULTS`: the bare pass writing lines as large
 * as those of RESULTS (a results.jsonl that simeval wrote); or
 * `node bench/dataset-child.mjs compare DB`: compares the two runs recorded in DB.
 * Prints {seconds, peakRssMb}; peak RSS is sampled every 20 ms and covers every thread.
 *
 * Plain JavaScript on purpose: under a TypeScript loader (tsx), Node runs the loader on a thread of its
 * own, which would add about 30 MB to every figure. simeval runs from the build (`dist/`), as the
 * `simeval` command does.
 */
import { createReadStream, createWriteStream } from "node:fs";
import { once } from "node:events";
import { createInterface } from "node:readline";

const SPECS = [{ type: "exact_match" }, { type: "levenshtein" }, { type: "jaccard_similarity" }, { type: "tfidf_similarity" }];

/**
 * The floor: read each line, JSON.parse it, JSON.stringify it, write it. With `results` (parsed results
 * objects), each row is written as a results.jsonl line instead, `{"row":N,"id":…,"results":…}` with the
 * row's id and the next of `results` in turn: the same pass with simeval's output size, on one thread.
 */
async function bare(dataset, outPath, results) {
  const out = createWriteStream(outPath);
  const lines = createInterface({ input: createReadStream(dataset), crlfDelay: Infinity });
  let buffer = [];
  let row = 0;
  for await (const line of lines) {
    const parsed = JSON.parse(line);
    buffer.push(JSON.stringify(results ? { row: ++row, id: parsed.id, results: results[row % results.length] } : parsed));
    if (buffer.length === 1000) {
      if (!out.write(buffer.join("\n") + "\n")) await once(out, "drain");
      buffer = [];
    }
  }
  out.end(buffer.join("\n") + "\n");
  await once(out, "finish");
}

async function simeval(dataset, outPath, withStore) {
  const built = (file) => new URL(`../dist/${file}`, import.meta.url).href;
  const { runDataset } = await import(built("run/run-dataset.js"));
  if (outPath === null) return void (await runDataset({ dataset, evaluators: SPECS }));
  const { openSqliteStore } = await import(built("storage/sqlite.js"));
  const out = createWriteStream(outPath);
  const store = withStore ? openSqliteStore(`${outPath}.db`) : undefined;
  await runDataset({
    dataset,
    evaluators: SPECS,
    ...(store ? { store } : {}),
    // The bytes are lent until this settles (see RunDatasetOptions.write): once written.
    write: (bytes) => new Promise((resolve, reject) => out.write(bytes, (error) => (error ? reject(error) : resolve()))),
  });
  await store?.close();
  out.end();
  await once(out, "finish");
}

/** The `results` objects of the first 1000 lines of a results.jsonl. */
async function resultsOf(path) {
  const results = [];
  for await (const line of createInterface({ input: createReadStream(path), crlfDelay: Infinity })) {
    if (results.push(JSON.parse(line).results) === 1000) break;
  }
  return results;
}

/** Compares the two runs recorded in the database `dbPath` as `simeval compare` does (the text output aside). */
async function compareRecorded(dbPath) {
  const built = (file) => new URL(`../dist/${file}`, import.meta.url).href;
  const { openSqliteStore } = await import(built("storage/sqlite.js"));
  const { loadRun } = await import(built("cli/run-ref.js"));
  const { compare } = await import(built("cli/commands/compare.js"));
  const store = openSqliteStore(dbPath);
  try {
    const [b, a] = await store.listRuns();
    if (!a || !b) throw new Error(`${dbPath}: expected two recorded runs`);
    await compare(await loadRun(a.id, store), await loadRun(b.id, store));
  } finally {
    await store.close();
  }
}

const [mode, dataset, outPath, resultsPath] = process.argv.slice(2);
const results = mode === "bare-results" ? await resultsOf(resultsPath) : undefined;
let peak = process.memoryUsage.rss();
const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 20);
const t0 = performance.now();
if (mode === "bare" || mode === "bare-results") await bare(dataset, outPath, results);
else if (mode === "compare") await compareRecorded(dataset);
else await simeval(dataset, mode === "summary" ? null : outPath, mode === "simeval+store");
const seconds = (performance.now() - t0) / 1000;
clearInterval(timer);
peak = Math.max(peak, process.memoryUsage.rss());
process.stdout.write(JSON.stringify({ seconds, peakRssMb: peak / 2 ** 20 }));
