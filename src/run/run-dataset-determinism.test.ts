import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { tempFiles } from "../dataset/test-support.js";
import { createEvaluator } from "../evaluators/create.js";
import { tfidfTokenCounts, type TfidfTokenization } from "../evaluators/tfidf-similarity.js";
import { tfidfCosine } from "../metrics/tfidf.js";
import type { EvalResult } from "../types.js";
import { runDataset, type RunDatasetResult } from "./run-dataset.js";

const files = tempFiles("simeval-determinism-");

/** Every local evaluator type, with the options that change how texts are split and compared. */
const SPECS = [
  { type: "exact_match" },
  { type: "exact_match", name: "exact_ws", config: { normalize_whitespace: true, case_sensitive: true, unicode_normalization: "NFC" } },
  { type: "levenshtein" },
  { type: "levenshtein", name: "lev_graphemes", config: { unit: "grapheme", max_chars: 300, threshold: 0.5 } },
  { type: "levenshtein_distance" },
  { type: "levenshtein_distance", name: "distance_graphemes", config: { unit: "grapheme", threshold: 3, case_sensitive: false, max_chars: 2000 } },
  { type: "jaccard_similarity" },
  { type: "tfidf_similarity" },
  { type: "tfidf_similarity", name: "tfidf_chars", config: { tokenizer: "char_ngram", ngram_size: 2 } },
  { type: "tfidf_similarity", name: "idf_words", config: { idf: "dataset" } },
  { type: "tfidf_similarity", name: "idf_chars", config: { idf: "dataset", tokenizer: "char_ngram", ngram_size: 3, case_sensitive: true, unicode_normalization: "NFKC" } },
  // An error on rows with two alternatives (a JSONPath matching several values), skipped on rows without one.
  { type: "exact_match", name: "alternative", inputs: { expected: "$.alternatives[*]" } },
];

/** Words of many scripts: emoji sequences, combining marks, right-to-left text, a bidi override, CJK; and empties. */
const WORDS = ["the", "answer", "is", "Paris", "PARIS", "café", "cafe\u0301", "👍🏽", "👨‍👩‍👧‍👦", "🇫🇷", "שלום", "مرحبا", "\u202Eevil", "東京", "ﬁne", "x", "", " ", "\t", "42"];

/** A JSONL line: a row object, or (about one in twelve) an unreadable line. */
const line: fc.Arbitrary<string> = fc.oneof(
  { weight: 1, arbitrary: fc.constantFrom("{not json", "[1, 2]", '"text"') },
  {
    weight: 11,
    arbitrary: fc
      .record(
        {
          id: fc.oneof(fc.string({ maxLength: 4 }), fc.integer()),
          output: fc.oneof(fc.array(fc.constantFrom(...WORDS), { maxLength: 6 }).map((w) => w.join(" ")), fc.constant(null), fc.integer()),
          expected: fc.oneof(fc.array(fc.constantFrom(...WORDS), { maxLength: 6 }).map((w) => w.join(" ")), fc.constant(null), fc.constant("")),
          alternatives: fc.constantFrom(["a"], ["a", "b"]),
        },
        { requiredKeys: ["id"] },
      )
      .map((r) => JSON.stringify(r)),
  },
);

/** A dataset with every kind of row, some of them long (past levenshtein's 10,000-character cap), many tying on score. */
function mixedRows(n: number): string {
  return Array.from({ length: n }, (_, i) => {
    if (i % 41 === 5) return "{not json";
    if (i % 53 === 7) return "[1, 2]";
    const words = (k: number) => Array.from({ length: k }, (_, j) => WORDS[(i * 7 + j * 3) % WORDS.length]).join(" ");
    const row: Record<string, unknown> = { id: i % 9 === 0 ? i : `r${i}` };
    if (i % 11 !== 0) row["output"] = i % 13 === 0 ? "" : words(i % 6);
    if (i % 17 === 3) row["metadata"] = { expectedOutput: words(3) };
    else if (i % 19 !== 0) row["expected"] = i % 23 === 0 ? "" : i % 4 === 0 ? row["output"] : words((i + 2) % 6);
    if (i % 29 === 0) row["alternatives"] = i % 58 === 0 ? ["a", "b"] : ["a"];
    if (i % 97 === 1) {
      row["output"] = `${words(5)} `.repeat(700);
      row["expected"] = `${words(5)} `.repeat(690) + words(2);
    }
    return JSON.stringify(row);
  }).join("\n");
}

/** What a run gives that must not depend on threads or batches: results.jsonl's bytes, and everything the summary and report show. */
async function runOf(dataset: string, workers: number, batchSize: number, write = true, countSkippedAsZero = false): Promise<{ results: string; figures: Omit<RunDatasetResult, "evaluators" | "runId"> }> {
  const chunks: Uint8Array[] = [];
  const { evaluators: _, runId: __, ...figures } = await runDataset({ dataset, evaluators: SPECS, workers, batchSize, worst: 4, countSkippedAsZero, ...(write ? { write: (bytes) => void chunks.push(bytes.slice()) } : {}) });
  return { results: Buffer.concat(chunks).toString("utf8"), figures };
}

/** {@link runOf} on this thread, in one batch. */
const runDatasetOn = (dataset: string) => runOf(dataset, 0, 512);

describe("runDataset gives the same results whatever the threads and batches", () => {
  let reference: ReturnType<typeof runOf> | undefined;
  /** The dataset, and its run on this thread in one batch, made once for the tests below. */
  const mixed = async () => {
    const dataset = await files.file("mixed.jsonl", mixedRows(160));
    reference ??= runOf(dataset, 0, 512);
    return { dataset, inline: await reference };
  };

  it("the dataset has every kind of row: unreadable, skipped, failed, truncated, and ties among the worst", async () => {
    const { inline } = await mixed();
    expect(inline.figures.summary.row_errors).toBeGreaterThan(5);
    expect(inline.figures.summary.evaluators.every((e) => e.skipped > 0)).toBe(true);
    expect(inline.figures.evaluatorErrors["alternative"]).toMatchObject({ code: "INPUT_INVALID" });
    expect(inline.results.includes('"truncated":{"output":')).toBe(true);
    expect(inline.figures.worst["exact_match"]?.map((w) => w.score)).toEqual([0, 0, 0, 0]);
  });

  it.each([0, 1, 2, 3])("byte for byte on %i threads, in batches of 1, 7 and 512: results.jsonl, summary, worst rows (ties to the lowest rows), histograms and errors", async (workers) => {
    const { dataset, inline } = await mixed();
    for (const batchSize of [1, 7, 512]) {
      const run = await runOf(dataset, workers, batchSize);
      // Compared as a boolean: a failure would print both files whole.
      expect(run.results === inline.results, `results.jsonl, batchSize ${batchSize}`).toBe(true);
      expect(run.figures, `batchSize ${batchSize}`).toEqual(inline.figures);
    }
  });

  it("keeping only the summary (no results file): the same figures and worst rows on threads", async () => {
    const { dataset, inline } = await mixed();
    expect((await runOf(dataset, 2, 7, false)).figures).toEqual(inline.figures);
  });

  it("on random datasets: any threads, any batch size, skipped rows counted as zero or not", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(line, { minLength: 1, maxLength: 30 }), fc.integer({ min: 1, max: 3 }), fc.constantFrom(1, 7, 512), fc.boolean(), async (lines, workers, batchSize, asZero) => {
        const dataset = await files.file("random.jsonl", lines.join("\n"));
        const inline = await runOf(dataset, 0, 512, true, asZero);
        const threaded = await runOf(dataset, workers, batchSize, true, asZero);
        expect(threaded.results === inline.results, `results.jsonl, workers ${workers}, batchSize ${batchSize}`).toBe(true);
        expect(threaded.figures).toEqual(inline.figures);
      }),
      { numRuns: 5 },
    );
  });
});

describe('runDataset\'s idf "dataset"', () => {
  it("every thread scores with exactly the IDF of the dataset's expected texts, counted by hand", async () => {
    const text = mixedRows(300);
    const dataset = await files.file("idf.jsonl", text);
    const records = text.split("\n").flatMap((l) => {
      try {
        const r: unknown = JSON.parse(l);
        return r !== null && typeof r === "object" && !Array.isArray(r) ? [r as Record<string, unknown>] : [];
      } catch {
        return [];
      }
    });
    const specs = SPECS.filter((s) => s.config?.idf === "dataset");
    /** The oracle: df over every expected text, split as the evaluator splits it; each row's cosine with that table (null: skipped). */
    const oracle = (spec: (typeof specs)[number]) => {
      const pair = createEvaluator({ ...spec, config: { ...spec.config, idf: "pair" } });
      const counts = tfidfTokenCounts(pair.config as unknown as TfidfTokenization);
      const normalization = spec.config?.unicode_normalization;
      const normalize = (t: string) => (normalization ? t.normalize(normalization) : t);
      const texts = records.map((r) => pair.texts(r));
      const expectedTexts = texts.flatMap((t) => (t.expected === null ? [] : [normalize(t.expected)]));
      const df = new Map<string, number>();
      for (const t of expectedTexts) for (const token of counts(t).keys()) df.set(token, (df.get(token) ?? 0) + 1);
      const idf = { n: expectedTexts.length, df: (t: string) => df.get(t) ?? 0 };
      const tokens = (t: string) => [...counts(t)].flatMap(([token, k]) => Array<string>(k).fill(token));
      return records.map((r, i) => {
        const t = texts[i] as { output: string | null; expected: string | null };
        if (t.expected === null) return null;
        const [a, b] = [tokens(normalize(t.output ?? "")), tokens(normalize(t.expected))];
        // Texts without a token score by equality, whatever the IDF: the evaluator's own rule.
        return a.length === 0 && b.length === 0 ? (pair.evaluateNow(r) as EvalResult).score : tfidfCosine(a, b, idf);
      });
    };
    const expected = Object.fromEntries(specs.map((spec) => [spec.name as string, oracle(spec)]));
    expect(Object.values(expected).every((scores) => new Set(scores).size > 20)).toBe(true);

    for (const workers of [0, 3]) {
      const chunks: Uint8Array[] = [];
      await runDataset({ dataset, evaluators: specs, workers, batchSize: 5, write: (bytes) => void chunks.push(bytes.slice()) });
      const rows = Buffer.concat(chunks)
        .toString("utf8")
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l) as { error?: unknown; results: Record<string, { score: number | null; skipped: boolean }> })
        .filter((row) => !row.error);
      const scores = Object.fromEntries(specs.map(({ name }) => [name as string, rows.map((row) => (row.results[name as string]?.skipped ? null : row.results[name as string]?.score))]));
      expect(scores, `workers ${workers}`).toEqual(expected);
    }
  });
});

/** A CSV cell: quoted when it holds a delimiter, quote or line break, or white space at an end (which a reader may trim). */
const csvCell = (text: string) => (/[",\r\n]/.test(text) || text !== text.trim() || text === "" ? `"${text.replaceAll('"', '""')}"` : text);

describe("runDataset on the same rows as JSONL, a JSON array and CSV", () => {
  it("gives the same results.jsonl, summary and worst rows for rows of text", async () => {
    const text = fc.oneof(fc.string({ unit: "binary", maxLength: 12 }), fc.array(fc.constantFrom(...WORDS, "\uFEFF", "a\r\nb", "\r", '"q"', ",", ";", "{}"), { maxLength: 5 }).map((w) => w.join(" ")));
    // An empty cell has no value in CSV (see the next test): outputs and references here are not empty.
    const nonEmpty = text.filter((t) => t !== "");
    await fc.assert(
      fc.asyncProperty(fc.array(fc.record({ output: nonEmpty, expected: nonEmpty }), { minLength: 1, maxLength: 25 }), async (rows) => {
        const objects = rows.map((r, i) => ({ id: `r${i}`, ...r }));
        const paths = [
          await files.file("same.jsonl", objects.map((o) => JSON.stringify(o)).join("\n")),
          await files.file("same.json", JSON.stringify(objects, null, 1)),
          await files.file("same.csv", `id,output,expected\r\n${objects.map((o) => [o.id, o.output, o.expected].map(csvCell).join(",")).join("\r\n")}\r\n`),
        ];
        const [jsonl, ...others] = await Promise.all(paths.map((p) => runDatasetOn(p)));
        for (const other of others) {
          expect(other.results === jsonl?.results, "results.jsonl").toBe(true);
          expect(other.figures.summary).toEqual(jsonl?.figures.summary);
          expect(other.figures.worst).toEqual(jsonl?.figures.worst);
        }
      }),
      { numRuns: 40 },
    );
  });

  it("differs only where the README says CSV differs: a cell is text as written, and an empty cell has no value", async () => {
    const jsonl = await files.file(
      "types.jsonl",
      [
        '{"output": "1.0", "expected": 1.0}', // the number 1, compared as "1"; CSV keeps the text "1.0"
        '{"output": "null", "expected": null}', // no expected output: skipped; CSV's cell null is the text "null"
        '{"output": "", "expected": "x"}', // CSV's empty output cell has no value: scored as "" all the same, saying so
        '{"output": "x", "expected": ""}', // "" is a real reference; CSV's empty expected cell skips the row
      ].join("\n"),
    );
    const csv = await files.file("types.csv", 'output,expected\n1.0,1.0\nnull,null\n,x\nx,""\n');
    const specs = [{ type: "exact_match" }];
    const results = async (dataset: string) => {
      const chunks: Uint8Array[] = [];
      await runDataset({ dataset, evaluators: specs, workers: 0, write: (bytes) => void chunks.push(bytes.slice()) });
      return Buffer.concat(chunks).toString("utf8").trim().split("\n").map((l) => (JSON.parse(l) as { results: { exact_match: { score: number; skipped: boolean; reasoning: string } } }).results.exact_match);
    };
    const [fromJsonl, fromCsv] = [await results(jsonl), await results(csv)];
    expect(fromJsonl.map((r) => [r.score, r.skipped])).toEqual([[0, false], [0, true], [0, false], [0, false]]);
    expect(fromCsv.map((r) => [r.score, r.skipped])).toEqual([[1, false], [1, false], [0, false], [0, true]]);
    expect(fromCsv[2]?.reasoning).toMatch(/^The output was missing and is scored as the empty string\. /);
    expect(fromJsonl[2]?.reasoning).not.toMatch(/missing/);
  });
});
