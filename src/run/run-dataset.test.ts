import { describe, expect, it } from "vitest";
import { appendFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { tempFiles } from "../dataset/test-support.js";
import { openSqliteStore, type SqliteRunStore } from "../storage/sqlite.js";
import { collect, evalErrorOf } from "../test-support.js";
import { EvalError } from "../errors.js";
import { memoryEmbeddingCache } from "../embeddings/cache.js";
import type { EmbeddingProvider } from "../embeddings/provider.js";
import { renderRunReport } from "../report/run-report.js";
import { runReportInput } from "./report-input.js";
import { rowScores } from "./row-scores.js";
import { defaultBatchSize, defaultWorkers, runDataset } from "./run-dataset.js";
import { finishStoredRun } from "./stored-summary.js";
import { RUN_NAME_EXPECTED } from "../storage/run-name.js";

const files = tempFiles("simeval-run-dataset-");

const SPECS = [
  { type: "exact_match" },
  { type: "levenshtein" },
  { type: "jaccard_similarity" },
  { type: "tfidf_similarity" },
  // An error on the rows with two alternatives (a JSONPath that matches several values), skipped on those without.
  { type: "exact_match", name: "alternative", inputs: { expected: "$.alternatives[*]" } },
];

function rows(n: number): string {
  return Array.from({ length: n }, (_, i) => {
    if (i % 211 === 0) return "{not json";
    // Some rows are not ASCII, so that the threads' byte offsets differ from string offsets.
    const word = i % 7 === 0 ? "überrécht 😀" : i % 5 ? "right" : "wrong";
    const alternatives = ["answer 1 is right", "answer 2 is right"].slice(0, i % 3);
    return JSON.stringify({ id: `r${i}`, output: `answer ${i % 17} is ${word}`, expected: i % 97 === 0 ? null : `answer ${i % 13} is right`, alternatives });
  }).join("\n");
}

async function linesOf(dataset: string, workers: number) {
  const chunks: Uint8Array[] = [];
  const store = openSqliteStore(join(files.dir(), `run-${workers}.db`));
  try {
    const result = await runDataset({ dataset, evaluators: SPECS, workers, batchSize: 16, store, write: (bytes) => void chunks.push(bytes.slice()) });
    // Each row's stored_at is the time its batch was stored (no record: the dataset file holds the rows).
    const stored = (await collect(store.rows(result.runId as string))).map(({ stored_at, ...r }) => {
      expect(stored_at).toBeTypeOf("number");
      expect(r).not.toHaveProperty("record");
      return r;
    });
    const scores = await collect(store.scores(result.runId as string));
    return { lines: Buffer.concat(chunks).toString("utf8").split("\n").slice(0, -1), stored, scores, result };
  } finally {
    await store.close();
  }
}

describe("runDataset with env", () => {
  it("scores with the caller's own embedding provider and cache, on this thread", async () => {
    const dataset = await files.file("env.jsonl", '{"output":"ab","expected":"ac"}\n{"output":"ab","expected":"ab"}\n');
    const sent: string[][] = [];
    const letters = (): EmbeddingProvider => ({
      name: "letters",
      model: "letters-3",
      async embed(texts) {
        if (texts.length) sent.push([...texts]); // [] when asked to be ready
        return { vectors: texts.map((t) => ["a", "b", "c"].map((ch) => (t.includes(ch) ? 1 : 0))) };
      },
    });
    const cache = memoryEmbeddingCache();
    const specs = [{ type: "semantic_similarity", config: { provider: "letters" } }];
    const run = () => runDataset({ dataset, evaluators: specs, env: { embeddingProviders: { letters }, embeddingCache: cache } });
    const first = await run();
    expect(first.summary.evaluators[0]).toMatchObject({ n: 2, errors: 0, min: 0.5, max: 1 });
    expect(sent.flat().sort()).toEqual(["ab", "ac"]);
    // Its cache served the second run: nothing sent again.
    expect((await run()).summary.evaluators[0]).toMatchObject({ n: 2, mean: 0.75 });
    expect(sent).toHaveLength(1);
    // Without env, the provider is not one simeval ships.
    await expect(runDataset({ dataset, evaluators: specs })).rejects.toMatchObject({ code: "CONFIG_INVALID", message: expect.stringContaining('embedding provider "letters" is not available') });
  });
});

describe("runDataset on worker threads", () => {
  it("refuses options of the wrong kind with CONFIG_INVALID naming the option, before reading anything", async () => {
    const dataset = await files.file("options.jsonl", '{"output":"a","expected":"a"}\n');
    const base = { dataset, evaluators: [{ type: "exact_match" }] };
    const cases: [unknown, string][] = [
      [undefined, "opts must be an object ({ dataset, evaluators, ... }), received nothing"],
      [null, "opts must be an object ({ dataset, evaluators, ... }), received null"],
      [{ ...base, dataset: 5 }, "opts.dataset must be the path of a dataset file (a non-empty string), received number 5"],
      [{ ...base, name: 5 }, `opts.name must be ${RUN_NAME_EXPECTED}, null or nothing, received number 5`],
      // A run's name as beginRun takes it, refused before anything is read rather than once the store is asked.
      [{ ...base, name: " nightly" }, `opts.name must be ${RUN_NAME_EXPECTED}, null or nothing, received string " nightly"`],
      [{ ...base, name: "a\nb" }, `opts.name must be ${RUN_NAME_EXPECTED}, null or nothing, received string "a\\nb"`],
      [{ ...base, countSkippedAsZero: "yes" }, 'opts.countSkippedAsZero must be a boolean or nothing, received string "yes"'],
      [{ ...base, embeddingCacheDb: 5 }, "opts.embeddingCacheDb must be the path of a SQLite database (a non-empty string) or nothing, received number 5"],
      [{ ...base, signal: 5 }, "opts.signal must be an AbortSignal or nothing, received number 5"],
      [{ ...base, write: 5 }, "opts.write must be a function or nothing, received number 5"],
      [{ ...base, onProgress: "x" }, 'opts.onProgress must be a function or nothing, received string "x"'],
      [{ ...base, onNotice: "x" }, 'opts.onNotice must be a function or nothing, received string "x"'],
      [{ ...base, store: 5 }, "opts.store must be a RunStore (such as openSqliteStore(path)) or nothing, received number 5"],
      [{ ...base, store: {} }, "opts.store.beginRun must be a function (the store is no RunStore), received nothing"],
      [{ ...base, env: 5 }, "opts.env must be an object ({ embeddingProviders?, embeddingCache? }) or nothing, received number 5"],
      [{ ...base, env: { notice: () => {} } }, "opts.env.notice must be nothing: runDataset's env takes embeddingProviders and embeddingCache (onNotice is runDataset's notice), received function"],
      [{ ...base, env: {}, workers: 2 }, "opts.workers must be 0 or nothing with opts.env: its providers and cache are functions, which cannot reach worker threads, so its rows are scored on this thread, received number 2"],
      [{ ...base, env: { embeddingCache: memoryEmbeddingCache() }, embeddingCacheDb: "x.db" }, 'opts.embeddingCacheDb must be nothing when opts.env.embeddingCache is given (one embedding cache), received string "x.db"'],
    ];
    for (const [opts, message] of cases) {
      await expect(runDataset(opts as never)).rejects.toMatchObject({ name: "EvalError", code: "CONFIG_INVALID", message: `runDataset: ${message}` });
    }
    expect((await runDataset({ ...base, name: null })).summary.rows).toBe(1);
  });

  it("writes and records a JSON array's rows as the same rows in JSONL, on threads as on this one; a bad element is placed by line and byte", async () => {
    // rows() as JSON.stringify(rows, null, 2) writes them, over several lines each; "{not json", whose brace is never
    // closed, becomes an element JSON.parse refuses (a comma missing) whose brackets and quotes pair up.
    const elements = rows(600)
      .split("\n")
      .map((line) => (line === "{not json" ? '{"id": "bad" "output": "é"}' : JSON.stringify(JSON.parse(line), null, 2)));
    const text = `[\n${elements.map((e) => e.replace(/^/gm, "  ")).join(",\n")}\n]\n`;
    const dataset = await files.file("rows.json", text);
    const inline = await linesOf(dataset, 0);
    const threaded = await linesOf(dataset, 1);
    expect(threaded.lines).toHaveLength(600);
    expect(threaded.lines).toEqual(inline.lines);
    expect(threaded.stored).toEqual(inline.stored);
    expect(threaded.result.summary).toEqual(inline.result.summary);
    // Each bad element (rows 1, 212 and 423) is a row error at its own line; the rows after it are scored.
    const starts = [1];
    for (const e of elements) starts.push(starts.at(-1)! + e.split("\n").length);
    const bad = threaded.lines.map((l) => JSON.parse(l) as { row: number; error?: { message: string } }).filter((l) => l.error);
    expect(bad.map((l) => [l.row, l.error?.message])).toEqual(
      [1, 212, 423].map((row) => [row, `line ${starts[row - 1]! + 1}: not valid JSON (Expected ',' or '}' after property value at byte 16 of the line); expected a JSON array of row objects`]),
    );
    // The JSONL file of the same rows scores the others alike.
    const jsonl = await linesOf(await files.file("same.jsonl", rows(600)), 1);
    const scored = (lines: string[]) => lines.filter((l) => !l.includes('"error":{"code":"DATASET_ROW_INVALID"'));
    expect(scored(threaded.lines)).toHaveLength(597);
    expect(scored(threaded.lines)).toEqual(scored(jsonl.lines));
  });

  it("writes and records exactly what scoring on one thread does, in input order", async () => {
    const dataset = await files.file("rows.jsonl", rows(3000));
    const inline = await linesOf(dataset, 0);
    const threaded = await linesOf(dataset, 1);
    expect(threaded.lines).toHaveLength(3000);
    expect(threaded.lines).toEqual(inline.lines);
    // The store holds what the file holds, and the line of every row (the file, of unreadable rows only).
    const withoutLine = threaded.stored.map(({ line, ...rest }) => (rest.error ? { ...rest, line } : rest));
    expect(withoutLine).toEqual(threaded.lines.map((l) => JSON.parse(l)));
    expect(threaded.stored.every((r, i) => r.line === i + 1)).toBe(true);
    expect(inline.stored).toEqual(threaded.stored);
    // The scores kept for comparisons are the ones the results give (errors, skips and unreadable rows included).
    expect(threaded.scores).toEqual(threaded.stored.map(rowScores));
    expect(new Set(threaded.scores.map((r) => JSON.stringify(r.scores.alternative)))).toEqual(new Set([undefined, "null", "1", "0"]));
    expect(threaded.result.summary).toEqual(inline.result.summary);
    expect(threaded.result.worst).toEqual(inline.result.worst);
    // Each evaluator's first error: row 1 is unreadable, row 3 the first with two alternatives.
    expect(threaded.result.evaluatorErrors).toEqual({ alternative: { row: 3, code: "INPUT_INVALID", message: expect.stringContaining("matched 2 values") } });
    expect(inline.result.evaluatorErrors).toEqual(threaded.result.evaluatorErrors);
    expect(threaded.result.histograms).toEqual(inline.result.histograms);
  });
});

describe("runDataset's results bytes", () => {
  it.each([0, 2])("lends write each batch's bytes until its promise settles, then writes later batches over them (workers %i)", async (workers) => {
    const dataset = await files.file(`lent-${workers}.jsonl`, rows(3000));
    const lent: Uint8Array[] = [];
    const copies: Buffer[] = [];
    const result = await runDataset({
      dataset,
      evaluators: SPECS,
      workers,
      batchSize: 64,
      write: async (bytes) => {
        const copy = Buffer.from(bytes);
        // Later batches are scored meanwhile: none is written into these bytes while they are lent.
        await new Promise((resolve) => setTimeout(resolve, 2));
        expect(Buffer.from(bytes).equals(copy)).toBe(true);
        lent.push(bytes);
        copies.push(copy);
      },
    });
    const lines = Buffer.concat(copies).toString("utf8").split("\n").slice(0, -1);
    expect(lines.map((l) => (JSON.parse(l) as { row: number }).row)).toEqual(Array.from({ length: 3000 }, (_, i) => i + 1));
    expect(result.summary.rows).toBe(3000);
    if (workers === 0) {
      // On this thread, the batches' bytes are a few buffers written over in turn.
      expect(new Set(lent.map((b) => b.buffer)).size).toBeLessThan(8);
    } else {
      // Moved back to the thread that wrote them: empty here once handed back.
      expect(lent.every((b) => b.byteLength === 0)).toBe(true);
    }
  });
});

describe("defaultWorkers", () => {
  const large = { bytes: 100 << 20, remote: false, recorded: false, cores: 4 };
  it("starts one scoring thread per core, one fewer (at least one) when the store's inserts keep this thread busy", () => {
    expect(defaultWorkers(large)).toBe(4);
    expect(defaultWorkers({ ...large, recorded: true })).toBe(3);
    expect(defaultWorkers({ ...large, recorded: true, cores: 2 })).toBe(1);
    expect(defaultWorkers({ ...large, recorded: true, cores: 1 })).toBe(1);
  });
  it("scores on this thread a file under 1 MiB, and a run with an evaluator that calls a service", () => {
    expect(defaultWorkers({ ...large, bytes: (1 << 20) - 1 })).toBe(0);
    expect(defaultWorkers({ ...large, bytes: 1 << 20 })).toBe(4);
    expect(defaultWorkers({ ...large, remote: true, recorded: true })).toBe(0);
  });
});

describe("runDataset's batches", () => {
  it("closes a batch of JSONL lines at about a million characters, whatever its row count: rows of a megabyte are not sent 512 at a time", async () => {
    const long = "word ".repeat(60_000); // 300,000 characters, twice in a row of 600,000: two such rows fill a batch
    const dataset = await files.file("long.jsonl", Array.from({ length: 6 }, (_, i) => JSON.stringify({ id: i, output: long, expected: `${long}${i}` })).join("\n"));
    const progress: number[] = [];
    const result = await runDataset({ dataset, evaluators: [{ type: "exact_match" }], workers: 0, onProgress: (done) => void progress.push(done) });
    expect(result.summary.evaluators[0]?.n).toBe(6);
    expect(progress).toEqual([2, 4, 6]);
    // Short rows still go 512 to a batch.
    const short = [] as number[];
    await runDataset({ dataset: await files.file("short.jsonl", rows(1100)), evaluators: [{ type: "exact_match" }], workers: 0, onProgress: (done) => void short.push(done) });
    expect(short).toEqual([512, 1024, 1100]);
  });

  it("sends fewer rows a batch past four evaluators, so that a batch holds about 2,048 results whatever the config", async () => {
    expect([1, 4, 5, 20, 200, 5000].map(defaultBatchSize)).toEqual([512, 512, 409, 102, 10, 1]);
    const evaluators = Array.from({ length: 200 }, (_, i) => ({ type: "exact_match", name: `em${i}` }));
    const progress: number[] = [];
    const result = await runDataset({ dataset: await files.file("wide.jsonl", rows(25)), evaluators, workers: 0, onProgress: (done) => void progress.push(done) });
    expect(result.summary.rows).toBe(25);
    expect(progress).toEqual([10, 20, 25]);
  });

  it("tells a JSONL file's rows as the expected total, its blank lines left out", async () => {
    const spaced = rows(1100).split("\n").join("\n\n \r\n");
    const totals = new Set<number | null>();
    const result = await runDataset({ dataset: await files.file("spaced.jsonl", spaced), evaluators: [{ type: "exact_match" }], workers: 0, onProgress: (_, total) => void totals.add(total) });
    expect(result.summary.rows).toBe(1100);
    expect([...totals]).toEqual([1100]);
  });
});

describe("runDataset keeping only the summary (no results file, no store)", () => {
  it.each([0, 1])("gives the summary, worst rows, errors and histograms of a full run (workers %i)", async (workers) => {
    const dataset = await files.file("summary-only.jsonl", rows(3000));
    const full = (await linesOf(dataset, workers)).result;
    const lean = await runDataset({ dataset, evaluators: SPECS, workers, batchSize: 16 });
    expect(lean.runId).toBeNull();
    expect(lean.summary).toEqual(full.summary);
    // Worst rows are explained again when kept: the same reasoning and details as the full run's.
    expect(lean.worst).toEqual(full.worst);
    expect(Object.values(lean.worst).flat().every((w) => w.reasoning.length > 0)).toBe(true);
    expect(lean.rowErrors).toEqual(full.rowErrors);
    expect(lean.rowErrors.length).toBeGreaterThan(0);
    expect(lean.evaluatorErrors).toEqual(full.evaluatorErrors);
    expect(lean.histograms).toEqual(full.histograms);
    expect(lean.datasetHash).toBe(full.datasetHash);
  });
});

describe("runDataset before the first row", () => {
  it.each([0, 1])("an evaluator that cannot load its file fails before the dataset IDF's pass reads the dataset (workers %i)", async (workers) => {
    const dataset = await files.file("idf.jsonl", rows(50));
    const specs = [
      { type: "tfidf_similarity", config: { idf: "dataset" } },
      { type: "semantic_similarity", config: { provider: "word_vectors", path: join(files.dir(), "missing.vec"), cache_dir: join(files.dir(), "vectors") } },
    ];
    // Reading the dataset would end at once with this reason: the error must be the vectors file's.
    const signal = AbortSignal.abort(new Error("the dataset was read"));
    // The error as it was, code and all, also from a scoring thread.
    await expect(runDataset({ dataset, evaluators: specs, workers, signal })).rejects.toMatchObject({ code: "CONFIG_INVALID", message: expect.stringMatching(/missing\.vec/) });
  });

  it.each([0, 1])("interrupted during the dataset IDF's pass, records an incomplete run of no rows (workers %i)", async (workers) => {
    const dataset = await files.file("idf-stop.jsonl", rows(50));
    const store = openSqliteStore(join(files.dir(), `idf-stop-${workers}.db`));
    try {
      const result = await runDataset({ dataset, evaluators: [{ type: "tfidf_similarity", config: { idf: "dataset" } }], workers, store, signal: AbortSignal.abort() });
      expect(result.interrupted).toBe(true);
      expect(result.summary.rows).toBe(0);
      expect(await store.findRun(result.runId as string)).toMatchObject({ status: "incomplete", stop_reason: "interrupted" });
    } finally {
      await store.close();
    }
  });
});

describe("runDataset on a file refused as a whole", () => {
  it.each([0, 1])("throws DATASET_INVALID and records no run: the file was never read (workers %i)", async (workers) => {
    const store = openSqliteStore(join(files.dir(), `refused-${workers}.db`));
    try {
      const refused = [
        await files.file("refused-empty.jsonl", ""),
        await files.file("refused-pretty.jsonl", JSON.stringify([{ output: "a", expected: "a" }], null, 2)),
        await files.file("refused-json-header.csv", '{"output":"a","expected":"a"}\n'),
        await files.file("refused-utf16.csv", Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("output,expected\na,a\n", "utf16le")])),
      ];
      for (const dataset of refused) {
        await expect(runDataset({ dataset, evaluators: SPECS, workers, store }), dataset).rejects.toMatchObject({ code: "DATASET_INVALID" });
      }
      expect(await store.listRuns()).toEqual([]);
      // A file that reads is recorded as ever.
      const dataset = await files.file("refused-then-fine.jsonl", rows(20));
      const result = await runDataset({ dataset, evaluators: SPECS, workers, store });
      expect((await store.listRuns()).map((r) => [r.id, r.status])).toEqual([[result.runId, "complete"]]);
    } finally {
      await store.close();
    }
  });
});

describe("runDataset with the dataset IDF", () => {
  it.each([0, 1])("fits each idf \"dataset\" evaluator its own table (workers %i)", async (workers) => {
    const dataset = await files.file("two-idf.jsonl", rows(400));
    const words = { name: "words", type: "tfidf_similarity", config: { idf: "dataset" } };
    const grams = { name: "grams", type: "tfidf_similarity", config: { idf: "dataset", tokenizer: "char_ngram", ngram_size: 2, case_sensitive: true } };
    const alone = async (spec: object) => (await runDataset({ dataset, evaluators: [spec], workers, batchSize: 16 })).summary.evaluators[0];
    const together = (await runDataset({ dataset, evaluators: [words, grams], workers, batchSize: 16 })).summary.evaluators;
    expect(together[0]).toEqual(await alone(words));
    expect(together[1]).toEqual(await alone(grams));
    expect(together[0]?.mean).not.toBe(together[1]?.mean);
  });

  it("tells what it does before the first row: the bytes fingerprinted of the file's size, then the rows read to fit the IDF", async () => {
    const text = rows(3000);
    const dataset = await files.file("steps.jsonl", text);
    const steps: string[] = [];
    const rowsSeen: number[] = [];
    await runDataset({
      dataset,
      evaluators: [{ type: "tfidf_similarity", config: { idf: "dataset" } }],
      workers: 0,
      onStep: (step) => void steps.push(step),
      onProgress: (done) => void rowsSeen.push(done),
    });
    // A file of about 0.3 MB, read in several reads.
    const mb = (Buffer.byteLength(text) / 2 ** 20).toFixed(1);
    const fingerprint = steps.filter((step) => step.startsWith("fingerprinting"));
    expect(fingerprint.every((step) => /^fingerprinting the dataset: \d\.\d of \d\.\d MB$/.test(step) && step.endsWith(` of ${mb} MB`))).toBe(true);
    expect(fingerprint.at(-1)).toBe(`fingerprinting the dataset: ${mb} of ${mb} MB`);
    expect(steps.slice(fingerprint.length)).toEqual(["fitting the dataset IDF: 1,024 rows read", "fitting the dataset IDF: 2,048 rows read"]);
    expect(rowsSeen.at(-1)).toBe(3000);
    // Without the dataset IDF, the fingerprint alone.
    const plain: string[] = [];
    await runDataset({ dataset, evaluators: [{ type: "exact_match" }], workers: 0, onStep: (step) => void plain.push(step) });
    expect(plain).toEqual(fingerprint);
  });

  it.each(["json", "csv"])("tells a %s file's rows as the expected total once the IDF's pass has read them, and estimates them from the bytes read without it", async (format) => {
    // 20,000 rows of about 45 bytes: several reads of 256 KiB.
    const records = Array.from({ length: 20_000 }, (_, i) => ({ id: `r${i}`, output: `answer ${i % 17}`, expected: `answer ${i % 13}` }));
    const text = format === "json" ? JSON.stringify(records) : ["id,output,expected", ...records.map((r) => `${r.id},${r.output},${r.expected}`)].join("\n");
    const dataset = await files.file(`totals.${format}`, text);
    const totals = async (spec: object) => {
      const seen: [number, number | null][] = [];
      await runDataset({ dataset, evaluators: [spec], workers: 0, onProgress: (rows, total) => void seen.push([rows, total]) });
      return seen;
    };
    expect(new Set((await totals({ type: "tfidf_similarity", config: { idf: "dataset" } })).map(([, total]) => total))).toEqual(new Set([20_000]));
    const estimated = await totals({ type: "tfidf_similarity" });
    // Each batch's estimate is within 5% of the rows there are (the rows are alike), never below the rows done, and exact once all are read.
    expect(estimated.length).toBeGreaterThan(3);
    for (const [rows, total] of estimated) {
      expect(total).not.toBeNull();
      expect(total!).toBeGreaterThanOrEqual(rows);
      expect(Math.abs(total! - 20_000)).toBeLessThan(1_000);
    }
    expect(new Set(estimated.map(([, total]) => total)).size).toBeGreaterThan(1);
    expect(estimated.at(-1)).toEqual([20_000, 20_000]);
  });

});

describe("runDataset with the dataset IDF, whatever the outputs", () => {
  it.each([0, 1])("fits on every reference, also a row whose output cannot be read: two prompt variants on the same references share one IDF (workers %i)", async (workers) => {
    const references = ["the cat sat", "the dog ran", "a bird flew", "the cat ran"];
    // Variant B's first answer cannot be read (two values where one is expected): that row is an error, not a gap in the IDF.
    const answers = (variant: string) => references.map((_, i) => (variant === "b" && i === 0 ? ["x", "y"] : [i === 0 ? "x" : "the cat"]));
    const scores = async (variant: string) => {
      const dataset = await files.file(`idf-${variant}.jsonl`, references.map((expected, i) => JSON.stringify({ expected, answers: answers(variant)[i] })).join("\n"));
      const chunks: Uint8Array[] = [];
      const spec = { type: "tfidf_similarity", config: { idf: "dataset" }, inputs: { output: "$.answers[*]" } };
      await runDataset({ dataset, evaluators: [spec], workers, write: (bytes) => void chunks.push(bytes.slice()) });
      return Buffer.concat(chunks).toString("utf8").trim().split("\n").map((l) => (JSON.parse(l) as { results: { tfidf_similarity: { score?: number; error?: unknown } } }).results.tfidf_similarity);
    };
    const [a, b] = [await scores("a"), await scores("b")];
    expect(b[0]).toMatchObject({ error: { code: "INPUT_INVALID" } });
    // The rows both variants answered alike score alike: the same IDF, over all four references.
    expect(b.slice(1)).toEqual(a.slice(1));
    expect(a[1]?.score).toBeGreaterThan(0);
  });
});

describe("runDataset when writing fails", () => {
  it.each([0, 2])("a write that fails (disk full) ends the run with that error, recorded as incomplete, batches in flight or not (workers %i)", async (workers) => {
    const dataset = await files.file("write-fails.jsonl", rows(3000));
    const store = openSqliteStore(join(files.dir(), `write-fails-${workers}.db`));
    // Batches still being scored on the threads when the write fails must not surface later as unhandled rejections.
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => void unhandled.push(reason);
    process.on("unhandledRejection", onUnhandled);
    try {
      const write = () => Promise.reject(new Error("ENOSPC: no space left on device"));
      await expect(runDataset({ dataset, evaluators: SPECS, workers, batchSize: 16, store, write })).rejects.toThrow("ENOSPC");
      const [run] = await store.listRuns();
      expect(run?.status).toBe("incomplete");
      expect(run?.stop_reason).toBe("stopped by an error: ENOSPC: no space left on device");
      await new Promise((r) => setTimeout(r, 200));
      expect(unhandled).toEqual([]);
    } finally {
      process.off("unhandledRejection", onUnhandled);
      await store.close();
    }
  });

  it.each([
    { size: 100, batchSize: 16, failing: 2, kept: 32, said: "32 rows" },
    { size: 1100, batchSize: 512, failing: 2, kept: 1024, said: "1,024 rows" },
  ])("says of a run it recorded which one it is and how many rows it holds ($said), with the error's code", async ({ size, batchSize, failing, kept, said }) => {
    const dataset = await files.file(`write-fails-said-${size}.jsonl`, rows(size));
    const store = openSqliteStore(join(files.dir(), `write-fails-said-${size}.db`));
    try {
      let writes = 0;
      const write = () => (++writes === failing ? Promise.reject(new EvalError("OUTPUT_FAILED", "--out x: cannot write")) : Promise.resolve());
      const error = await evalErrorOf(runDataset({ dataset, evaluators: SPECS, workers: 0, batchSize, store, write }));
      const [run] = await store.listRuns();
      // The second batch is recorded before it is written to the file.
      expect(run?.summary?.rows).toBe(kept);
      expect(await collect(store.rows(run?.id as string))).toHaveLength(kept);
      expect(error).toMatchObject({ code: "OUTPUT_FAILED", message: `--out x: cannot write; the run ${run?.id} is recorded as incomplete, with ${said}` });
    } finally {
      await store.close();
    }
  });

  it("keeps a store failure's transient when it says which run it recorded: a queue consumer may still retry it", async () => {
    const dataset = await files.file("store-busy.jsonl", rows(100));
    const store = openSqliteStore(join(files.dir(), "store-busy.db"));
    try {
      let batches = 0;
      const busy = new EvalError("STORE_FAILED", "store-busy.db: could not add rows 17..32: database is locked", { transient: true });
      // The store itself, whose second batch fails as when another process held the lock too long; then the lock is free.
      const flaky = new Proxy(store, {
        get(target, prop) {
          if (prop === "addRows") return (...args: Parameters<typeof store.addRows>) => (++batches === 2 ? Promise.reject(busy) : target.addRows(...args));
          const value: unknown = Reflect.get(target, prop);
          return typeof value === "function" ? value.bind(target) : value;
        },
      });
      const error = await evalErrorOf(runDataset({ dataset, evaluators: SPECS, workers: 0, batchSize: 16, store: flaky }));
      const [run] = await store.listRuns();
      expect(error).toMatchObject({ code: "STORE_FAILED", transient: true, message: `${busy.message}; the run ${run?.id} is recorded as incomplete, with 16 rows` });
    } finally {
      await store.close();
    }
  });

  it("says that another process ended the run, and why, when that is what stopped it (simeval abort RUN --force), not that this run recorded it incomplete", async () => {
    const dataset = await files.file("aborted-elsewhere.jsonl", rows(100));
    const store = openSqliteStore(join(files.dir(), "aborted-elsewhere.db"));
    try {
      let batches = 0;
      // Another process aborts the run once its first batch is recorded: the second batch is refused.
      const racing = new Proxy(store, {
        get(target, prop) {
          if (prop === "addRows") {
            return async (...args: Parameters<typeof store.addRows>) => {
              if (++batches === 2) await target.abortRun(args[0], null, "job cancelled");
              return target.addRows(...args);
            };
          }
          const value: unknown = Reflect.get(target, prop);
          return typeof value === "function" ? value.bind(target) : value;
        },
      });
      const error = await evalErrorOf(runDataset({ dataset, evaluators: SPECS, workers: 0, batchSize: 16, store: racing }));
      const [run] = await store.listRuns();
      expect(run).toMatchObject({ status: "incomplete", stop_reason: "job cancelled" });
      expect(error).toMatchObject({ code: "RUN_CONFLICT", transient: false }); // the store's refusal, the note added
      expect(error.message).toMatch(new RegExp(`^.*is incomplete; cannot add rows 17\\.\\.32 to it.*; another process ended the run meanwhile \\(job cancelled\\): it keeps the rows recorded before$`));
      expect(error.message).not.toContain("is recorded as incomplete, with");
      expect(await store.rowCount(run!.id)).toBe(16);
    } finally {
      await store.close();
    }
  });

  it("says of a run it recorded nothing when the database file was deleted meanwhile: the run went to a file nothing can open", async () => {
    const dataset = await files.file("db-deleted.jsonl", rows(100));
    const path = join(files.dir(), "db-deleted.db");
    const store = openSqliteStore(path);
    try {
      // Deleted once the first batch is recorded: the second batch's rows have nowhere to go.
      const write = () => void rmSync(path, { force: true });
      const error = await evalErrorOf(runDataset({ dataset, evaluators: SPECS, workers: 0, batchSize: 16, store, write }));
      expect(error.code).toBe("STORE_FAILED");
      expect(error.message).toContain("the database file was deleted after this process opened it");
      expect(error.message).not.toContain("is recorded as incomplete");
    } finally {
      await store.close().catch(() => undefined);
    }
  });

  // Another connection to the file, as `simeval delete RUN --force` or `simeval finish RUN` in another process is, ends
  // the run once the first batch is recorded: the second batch's rows have no running run to go to.
  it.each([
    ["deleted it (delete --force): it is not recorded at all", (other: SqliteRunStore, id: string) => other.deleteRun(id, { force: true }), "RUN_NOT_FOUND", "was deleted by another process", []],
    ["finished it (finishStoredRun): it is complete", (other: SqliteRunStore, id: string) => finishStoredRun(other, id), "RUN_CONFLICT", "is complete; cannot add", ["complete"]],
  ] as const)("does not say a run is recorded as incomplete when another process %s", async (what, end, code, said, statuses) => {
    const name = what.split(" ")[0] as string;
    const dataset = await files.file(`run-${name}.jsonl`, rows(100));
    const path = join(files.dir(), `run-${name}.db`);
    const store = openSqliteStore(path);
    const other = openSqliteStore(path);
    try {
      let ended = false;
      const write = async () => {
        if (ended) return;
        ended = true;
        const [run] = await other.listRuns();
        await end(other, run?.id as string);
      };
      const error = await evalErrorOf(runDataset({ dataset, evaluators: SPECS, workers: 0, batchSize: 16, store, write }));
      expect(error.code).toBe(code);
      expect(error.message).toContain(said);
      expect(error.message).not.toContain("is recorded as incomplete");
      expect((await other.listRuns()).map((r) => r.status)).toEqual(statuses);
    } finally {
      await other.close();
      await store.close();
    }
  });

  it("reports the error that stopped the run when recording it as stopped fails too (the store's disk full as well): not the store's", async () => {
    const dataset = await files.file("write-and-store-fail.jsonl", rows(100));
    const path = join(files.dir(), "write-and-store-fail.db");
    const store = openSqliteStore(path);
    // The real store, but for abortRun, which fails as a store on a full disk does.
    const failing = new Proxy(store, {
      get(target, key) {
        if (key === "abortRun") return () => Promise.reject(new Error("SQLITE_FULL: database or disk is full"));
        const value: unknown = Reflect.get(target, key);
        return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
    try {
      const write = () => Promise.reject(new Error("ENOSPC: no space left on device"));
      await expect(runDataset({ dataset, evaluators: SPECS, workers: 0, store: failing, write })).rejects.toThrow("ENOSPC");
    } finally {
      await store.close();
    }
    // Left "running", it is marked incomplete when its store closes.
    const reopened = openSqliteStore(path);
    try {
      const [run] = await reopened.listRuns();
      expect(run?.status).toBe("incomplete");
    } finally {
      await reopened.close();
    }
  });
});

describe("runDataset on a file that changes while it is read", () => {
  it("says so and records the run as incomplete: the rows scored are not those of the recorded sha256", async () => {
    const dataset = await files.file("changing.jsonl", rows(200));
    const store = openSqliteStore(join(files.dir(), "changing.db"));
    try {
      let appended = false;
      const write = () => {
        if (!appended) appendFileSync(dataset, `\n${rows(50)}`);
        appended = true;
      };
      const result = await runDataset({ dataset, evaluators: SPECS, workers: 0, batchSize: 16, store, write });
      expect(result.datasetChanged).toMatch(/^the dataset file changed while it was read \(\d+ bytes when fingerprinted, \d+ now\)/);
      // The store keeps the cause, without the advice.
      const [recorded] = await store.listRuns();
      expect(recorded?.status).toBe("incomplete");
      expect(recorded?.stop_reason).toMatch(/^the dataset file changed while it was read \(\d+ bytes when fingerprinted, \d+ now\)$/);
      expect(result.stopReason).toBe(recorded?.stop_reason);
      // Unchanged, nothing is said.
      const again = await runDataset({ dataset, evaluators: SPECS, workers: 0, batchSize: 16 });
      expect(again.datasetChanged).toBeUndefined();
      expect(again.stopReason).toBeNull();
    } finally {
      await store.close();
    }
  });
});

describe("runDataset's unreadable rows", () => {
  it("keeps the first 100, which the run report lists before saying how many more there are", async () => {
    const lines = Array.from({ length: 130 }, (_, i) => (i % 13 === 0 ? JSON.stringify({ id: i, output: "a", expected: "a" }) : `{not json ${i}`));
    const dataset = await files.file("unreadable.jsonl", `${lines.join("\n")}\n`);
    const result = await runDataset({ dataset, evaluators: SPECS, workers: 0 });
    expect(result.summary.row_errors).toBe(120);
    expect(result.rowErrors).toHaveLength(100);
    expect(result.rowErrors[0]?.row).toBe(2);
    const run = { id: "r", name: null, started_at: "2026-01-01T00:00:00Z", finished_at: null, status: "complete" as const, dataset_path: dataset, dataset_hash: result.datasetHash };
    const html = renderRunReport(runReportInput(result, run));
    expect(html.match(/<li>row \d+ \(line \d+\): /g)).toHaveLength(100);
    expect(html).toContain(`<p class="sub">and 20 more</p>`);
  });
});

describe("runDataset's stop reason", () => {
  it.each([
    ["the signal's name", "SIGTERM", "interrupted (SIGTERM)"],
    ["an Error of its own", new Error("the service's deadline passed"), "interrupted (the service's deadline passed)"],
    ["the default reason", undefined, "interrupted"],
  ])("an interruption after the first batch records 'interrupted', naming the abort's reason when it is %s", async (_, reason, expected) => {
    const dataset = await files.file("interrupted.jsonl", rows(3000));
    const store = openSqliteStore(join(files.dir(), "interrupted.db"));
    try {
      const controller = new AbortController();
      const onProgress = () => controller.abort(reason);
      const result = await runDataset({ dataset, evaluators: SPECS, workers: 0, batchSize: 16, store, signal: controller.signal, onProgress });
      expect(result.interrupted).toBe(true);
      expect(result.summary.rows).toBeLessThan(3000);
      expect(result.stopReason).toBe(expected);
      expect(await store.findRun(result.runId as string)).toMatchObject({ status: "incomplete", stop_reason: expected, summary: { rows: result.summary.rows } });
    } finally {
      await store.close();
    }
  });

  it("sends no more rows to be scored once aborted, though one read of the file gave thousands", async () => {
    const dataset = await files.file("aborted-mid-read.jsonl", rows(3000));
    const controller = new AbortController();
    const result = await runDataset({ dataset, evaluators: SPECS, workers: 0, batchSize: 16, signal: controller.signal, onProgress: () => controller.abort("SIGINT") });
    expect(result.interrupted).toBe(true);
    // The batches already sent (two in flight, and the one being sent) are scored and kept; the read's other rows are not.
    expect(result.summary.rows).toBeGreaterThanOrEqual(16);
    expect(result.summary.rows).toBeLessThanOrEqual(48);
  });

  it("an abort once every row is read (onRead) stops nothing: the rows in flight are scored and the run is recorded complete", async () => {
    const dataset = await files.file("read.jsonl", rows(100));
    const store = openSqliteStore(join(files.dir(), "read.db"));
    try {
      const controller = new AbortController();
      const heard: string[] = [];
      const onProgress = (done: number) => void heard.push(`progress ${done}`);
      const onRead = () => {
        heard.push("read");
        controller.abort("SIGINT");
      };
      const result = await runDataset({ dataset, evaluators: SPECS, workers: 0, batchSize: 16, store, signal: controller.signal, onRead, onProgress });
      expect(result.interrupted).toBe(false);
      expect(result.stopReason).toBeNull();
      expect(result.summary.rows).toBe(100);
      expect(await store.findRun(result.runId as string)).toMatchObject({ status: "complete", stop_reason: null, summary: { rows: 100 } });
      // Told once, while rows were still in flight: the last batches were scored after it.
      expect(heard.filter((h) => h === "read")).toHaveLength(1);
      expect(heard.at(-1)).toBe("progress 100");
    } finally {
      await store.close();
    }
  });

  it("is not told that every row is read after an abort before: the run is incomplete, as the CLI said when the signal came", async () => {
    const dataset = await files.file("read-aborted.jsonl", rows(3000));
    let read = 0;
    const result = await runDataset({ dataset, evaluators: SPECS, workers: 0, batchSize: 16, signal: AbortSignal.abort("SIGINT"), onRead: () => void read++ });
    expect(result.interrupted).toBe(true);
    expect(read).toBe(0);
  });

  it.each([0, 1])("a JSON array that cannot be read to its end records the row and line where reading stopped, and why (workers %i)", async (workers) => {
    const elements = Array.from({ length: 10 }, (_, i) => JSON.stringify({ id: i, output: "a", expected: "a" }));
    // A string left unclosed: where the next row starts is unknown.
    elements[6] = '{"id": 6, "output": "a, "expected": "a"}\n';
    const dataset = await files.file("cut.json", `[\n${elements.join(",\n")}\n]\n`);
    const store = openSqliteStore(join(files.dir(), `cut-${workers}.db`));
    try {
      const result = await runDataset({ dataset, evaluators: SPECS, workers, store });
      expect(result.readStopped).toMatchObject({ row: 7, line: 8 });
      const reason = `the dataset could not be read from row 7 on: ${result.readStopped?.message}`;
      expect(reason).toContain("row 7 on: line 8: not valid JSON");
      expect(result.stopReason).toBe(reason);
      expect(await store.findRun(result.runId as string)).toMatchObject({ status: "incomplete", stop_reason: reason });
      // A whole file: complete, no reason.
      const whole = await runDataset({ dataset: await files.file("whole.json", `[${elements.slice(0, 6).join(",")}]`), evaluators: SPECS, workers, store });
      expect(whole.stopReason).toBeNull();
      expect(await store.findRun(whole.runId as string)).toMatchObject({ status: "complete", stop_reason: null });
    } finally {
      await store.close();
    }
  });
});

describe("runDataset past the first 100 unreadable rows", () => {
  it("still records where reading stopped when it stops after more than 100 unreadable rows (only the first 100 are kept)", async () => {
    // 150 elements that are no row objects, then a syntax error on line 152: the stop is row 151.
    const dataset = await files.file("many-bad.json", `[\n${Array.from({ length: 150 }, () => "1").join(",\n")},\n x\n]\n`);
    const store = openSqliteStore(join(files.dir(), "many-bad.db"));
    try {
      const result = await runDataset({ dataset, evaluators: [{ type: "exact_match" }], workers: 0, batchSize: 16, store });
      expect(result.summary.row_errors).toBe(151);
      expect(result.rowErrors).toHaveLength(100);
      expect(result.readStopped).toMatchObject({ row: 151, line: 152 });
      expect(result.stopReason).toMatch(/^the dataset could not be read from row 151 on: line 152: not valid JSON/);
      expect(await store.findRun(result.runId as string)).toMatchObject({ status: "incomplete" });
    } finally {
      await store.close();
    }
  });
});

describe("runDataset's worst rows", () => {
  it("keeps the 10 worst rows per evaluator by default, worst first", async () => {
    // Row i (1-based) has an output i - 1 characters off "aaaaaaaaaaaaaa", so its distance is i - 1: rows 14 down to 5 are the worst 10.
    const lines = Array.from({ length: 14 }, (_, i) => JSON.stringify({ output: "b".repeat(i) + "a".repeat(14 - i), expected: "a".repeat(14) }));
    const dataset = await files.file("worst-default.jsonl", `${lines.join("\n")}\n`);
    const result = await runDataset({ dataset, evaluators: [{ type: "levenshtein_distance" }], workers: 0 });
    expect(result.worst["levenshtein_distance"]?.map((w) => [w.row, w.score])).toEqual(Array.from({ length: 10 }, (_, k) => [14 - k, 13 - k]));
  });
});

describe("runDataset's results.jsonl lines", () => {
  it.each([0, 1])("are {row, id, results} in input order, the id the record's (null without one), an unreadable row with its line and error (workers %i)", async (workers) => {
    const dataset = await files.file(`shape-${workers}.jsonl`, '{"id":"q1","output":"a","expected":"a"}\n{"output":"b","expected":"a"}\n{"id":7,"output":"a","expected":"a"}\nnot json\n');
    const chunks: Uint8Array[] = [];
    await runDataset({ dataset, evaluators: [{ type: "exact_match" }], workers, batchSize: 1, write: (bytes) => void chunks.push(bytes.slice()) });
    const lines = Buffer.concat(chunks).toString("utf8").split("\n");
    expect(lines.pop()).toBe("");
    const parsed = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(parsed.map((o) => Object.keys(o))).toEqual([["row", "id", "results"], ["row", "id", "results"], ["row", "id", "results"], ["row", "id", "line", "results", "error"]]);
    expect(parsed.map((o) => [o["row"], o["id"]])).toEqual([[1, "q1"], [2, null], [3, 7], [4, null]]);
    expect(parsed.map((o) => (o["results"] as Record<string, { score?: number }>)["exact_match"]?.score)).toEqual([1, 0, 1, undefined]);
    expect(parsed[3]).toMatchObject({ line: 4, results: {}, error: { code: "DATASET_ROW_INVALID" } });
  });
});

describe("runDataset's count options", () => {
  it.each([
    ["batchSize", 0, "number 0"],
    ["batchSize", -1, "number -1"],
    ["batchSize", 0.5, "number 0.5"],
    ["workers", -1, "number -1"],
    ["workers", "2", 'string "2"'],
    ["worst", 1.5, "number 1.5"],
  ])("refuse %s %j with CONFIG_INVALID naming runDataset and the option, as its other options, instead of running (batchSize 0 looped forever)", async (name, value, received) => {
    const dataset = await files.file("counts.jsonl", rows(5));
    const min = name === "batchSize" ? 1 : 0;
    await expect(runDataset({ dataset, evaluators: SPECS, workers: 0, [name]: value })).rejects.toMatchObject({
      code: "CONFIG_INVALID",
      message: `runDataset: opts.${name} must be an integer >= ${min} or nothing, received ${received}`,
      issues: [{ path: [name], expected: `an integer >= ${min} or nothing`, received }],
    });
  });
});
