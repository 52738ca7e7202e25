/**
 * Small, realistic, deterministic report inputs for the report tests (docs/report.png is a screenshot of
 * the bundled example's report, `npm run example`, in headless Chromium). Not part of the public API.
 */
import type { EvaluatorSummary } from "../run/types.js";
import { histogram } from "../stats/histogram.js";
import { seededRandom } from "../stats/prng.js";
import { quantileSorted } from "../stats/quantiles.js";
import { chooseBins } from "./choose.js";
import { passes } from "./format.js";
import type { HistogramData, RunReportInput, TrendReportInput, ComparisonReportInput } from "./types.js";


/** Bins sample scores the way the CLI does (the stats module's histogram). */
function binSample(values: readonly number[], bins: number, min: number, max: number, integer = false): HistogramData {
  const { edges, counts } = histogram(values, { bins, min, max });
  return integer ? { edges, counts, integer } : { edges, counts };
}


function summarize(name: string, type: string, direction: "maximize" | "minimize", threshold: number | null, scores: number[], skipped: number, errors: number): EvaluatorSummary {
  const sorted = [...scores].sort((a, b) => a - b);
  const passed = threshold === null ? 0 : scores.filter((s) => passes(s, threshold, direction)).length;
  return {
    name,
    type,
    direction,
    threshold,
    n: scores.length,
    skipped,
    errors,
    mean: scores.length ? scores.reduce((a, b) => a + b, 0) / scores.length : null,
    median: quantileSorted(sorted, 0.5),
    p10: quantileSorted(sorted, 0.1),
    p90: quantileSorted(sorted, 0.9),
    min: sorted[0] ?? null,
    max: sorted[sorted.length - 1] ?? null,
    pass_rate: threshold === null || scores.length === 0 ? null : passed / scores.length,
    verdicts: threshold === null ? 0 : scores.length,
  };
}

function histogramFor(summary: EvaluatorSummary, scores: number[]): HistogramData {
  const c = chooseBins(summary);
  return binSample(scores, c.bins, c.min, c.max, c.integer);
}

/** The sample run: 240 rows, four evaluators, a few worst rows each (one output holds a `<script>`). */
export function sampleRunReportInput(): RunReportInput {
  const rnd = seededRandom(7);
  const lev = Array.from({ length: 236 }, () => Math.round(Math.min(1, Math.max(0, 0.86 - Math.pow(rnd(), 2.2) * 0.75 + (rnd() - 0.5) * 0.08)) * 100) / 100);
  const dist = Array.from({ length: 236 }, () => Math.round(Math.pow(rnd(), 2.4) * 28));
  const jac = Array.from({ length: 231 }, () => Math.min(1, Math.max(0, 0.72 + (rnd() + rnd() + rnd() - 1.5) * 0.45)));
  const levS = summarize("levenshtein", "levenshtein", "maximize", 0.7, lev, 2, 0);
  const distS = summarize("edit_distance", "levenshtein_distance", "minimize", 8, dist, 2, 0);
  const jacS = summarize("jaccard", "jaccard_similarity", "maximize", 0.5, jac, 7, 0);
  return {
    run: {
      id: "2024-06-03T14-22-05-7f3a",
      name: "support-bot v2.3 · nightly",
      started_at: "2024-06-03T14:22:05.120Z",
      finished_at: "2024-06-03T14:22:41.870Z",
      status: "complete",
      dataset_path: "datasets/support-answers.jsonl",
      dataset_hash: "9c1185a5c5e9fc54612808977ee8f548b2258d31a0b1f7e2c2bcd3d1e4f6a0b7",
    },
    summary: { rows: 240, row_errors: 2, skipped_as_zero: false },
    row_errors: [
      { row: 57, line: 57, message: "Unexpected token } in JSON at position 112" },
      { row: 181, line: 181, message: "Row is not a JSON object (received array of 2)" },
    ],
    evaluators: [
      {
        summary: levS,
        histogram: histogramFor(levS, lev),
        highlight: { unit: "chars", ignore_case: true },
        worst: [
          {
            row: 142,
            id: "refund-window-uk",
            score: 0.31,
            passed: false,
            reasoning: "Edit distance 61 over at most 89 code points: 1 - 61/89 ≈ 0.31, is below the threshold 0.7 (case-insensitive).",
            expected: "You can request a refund within 30 days of delivery from the Orders page.",
            output: "Refunds are possible for 14 days after delivery; open Orders and choose “Return”.",
          },
          {
            row: 9,
            id: "html-escape",
            score: 0.42,
            passed: false,
            reasoning: "Edit distance 29 over at most 50 code points: 1 - 29/50 = 0.42, is below the threshold 0.7 (case-insensitive).",
            expected: "Use the <b> tag for bold text.",
            output: "Use <script>alert('bold')</script> for bold text.",
          },
          {
            row: 77,
            id: "reset-password",
            score: 0.64,
            passed: false,
            reasoning: "Edit distance 26 over at most 72 code points: 1 - 26/72 ≈ 0.64, is below the threshold 0.7 (case-insensitive).",
            expected: "Go to Settings → Security and click “Reset password”.",
            output: "Open settings → security, then click “Reset my password”.",
          },
        ],
      },
      {
        summary: distS,
        histogram: histogramFor(distS, dist),
        highlight: { unit: "chars", ignore_case: false },
        worst: [
          {
            row: 201,
            id: "shipping-eu",
            score: 28,
            passed: false,
            reasoning: "28 edits (code points) needed to turn the output into the expected output; above the maximum of 8.",
            expected: "Standard shipping to the EU takes 3–5 business days.",
            output: "Shipping within Europe usually takes 2-7 days.",
          },
        ],
      },
      {
        summary: jacS,
        histogram: histogramFor(jacS, jac),
        highlight: { unit: "word_tokens", ignore_case: true },
        worst: [
          {
            row: 33,
            id: "cancel-plan",
            score: 0.1818,
            passed: false,
            reasoning: "2 shared words out of 11 distinct: Jaccard 0.1818. Below the threshold 0.5.",
            expected: "Cancel your plan under Billing, then confirm by email.",
            output: "To stop the subscription, billing support must confirm it.",
            tokens: {
              missing: ["cancel", "your", "plan", "under", "then", "by", "email"],
              extra: ["to", "stop", "the", "subscription", "support", "must", "it"],
              shared_count: 2,
              missing_count: 7,
              extra_count: 7,
            },
          },
        ],
      },
    ],
  };
}

/** A sample comparison of two runs, built from the same story. */
export function sampleComparisonInput(): ComparisonReportInput {
  const a = { id: "2024-06-02T14-20-11-19be", name: "support-bot v2.2", started_at: "2024-06-02T14:20:11Z", dataset_path: "datasets/support-answers.jsonl", dataset_hash: "9c1185a5c5e9fc54" };
  const b = { id: "2024-06-03T14-22-05-7f3a", name: "support-bot v2.3", started_at: "2024-06-03T14:22:05Z", dataset_path: "datasets/support-answers.jsonl", dataset_hash: "9c1185a5c5e9fc54" };
  return {
    a,
    b,
    confidence: 0.95,
    evaluators: [
      {
        name: "levenshtein",
        type: "levenshtein",
        direction: "maximize",
        n_pairs: 236,
        mean_a: 0.712,
        mean_b: 0.688,
        diff: -0.024,
        ci: [-0.041, -0.007],
        p_value: 0.006,
        better: "a",
        significant: true,
        improved: 41,
        regressed: 77,
        unchanged: 118,
        highlight: { unit: "chars", ignore_case: true },
        worst: [
          {
            row: 142,
            id: "refund-window-uk",
            score_a: 0.93,
            score_b: 0.31,
            delta: -0.62,
            expected: "You can request a refund within 30 days of delivery from the Orders page.",
            output_a: "You can request a refund within 30 days of delivery on the Orders page.",
            output_b: "Refunds are possible for 14 days after delivery; open Orders and choose “Return”.",
          },
        ],
      },
      {
        name: "edit_distance",
        type: "levenshtein_distance",
        direction: "minimize",
        n_pairs: 236,
        mean_a: 7.9,
        mean_b: 6.4,
        diff: -1.5,
        ci: [-2.6, -0.4],
        p_value: 0.011,
        better: "b",
        significant: true,
        improved: 88,
        regressed: 52,
        unchanged: 96,
        worst: [],
      },
      {
        name: "jaccard",
        type: "jaccard_similarity",
        direction: "maximize",
        n_pairs: 231,
        mean_a: 0.701,
        mean_b: 0.709,
        diff: 0.008,
        ci: [-0.012, 0.028],
        p_value: 0.43,
        better: null,
        significant: false,
        improved: 60,
        regressed: 55,
        unchanged: 116,
        worst: [],
      },
    ],
  };
}

/** A sample trend over eight nightly runs. */
export function sampleTrendInput(): TrendReportInput {
  const runs = Array.from({ length: 8 }, (_, i) => ({
    id: `run-${i + 1}`,
    name: `v2.${i} nightly`,
    started_at: new Date(Date.UTC(2024, 4, 27 + i, 14, 20)).toISOString(),
  }));
  return {
    runs,
    series: [
      { name: "levenshtein", type: "levenshtein", direction: "maximize", threshold: 0.7, means: [0.64, 0.66, 0.69, 0.7, 0.73, 0.72, 0.712, 0.688] },
      { name: "edit_distance", type: "levenshtein_distance", direction: "minimize", threshold: 8, means: [11.2, 10.4, 9.1, null, 8.2, 7.5, 7.9, 6.4] },
      { name: "jaccard", type: "jaccard_similarity", direction: "maximize", threshold: 0.5, means: [0.61, 0.63, 0.66, 0.68, 0.7, 0.69, 0.701, 0.709] },
    ],
  };
}
