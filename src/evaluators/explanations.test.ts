/**
 * Property tests: a result's parts agree with each other. For every local evaluator, on random texts
 * (case, white space, combining marks, emoji, CJK, RTL, lone surrogates) and random valid configs, the
 * figures quoted in `reasoning` are the score, threshold and details they describe; its "meets"/"below"
 * wording is `passed` and `label`, also for thresholds just either side of the score and equal to it;
 * and `details` give back the score by the evaluator's documented formula, recomputed here from the
 * texts on their own.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { EmbeddingProvider } from "../embeddings/provider.js";
import { hashingProvider } from "../test-support.js";
import type { EvalRecord, EvalResult } from "../types.js";
import { createEvaluator } from "./create.js";
import { referenceDistance } from "../metrics/reference/levenshtein.js";

const SEED = 64_2024;
const runs = (numRuns: number) => ({ seed: SEED, numRuns });

// ---------------------------------------------------------------------------------------------------
// Texts and records

const piece = fc.constantFrom(
  ...["Paris", "paris", "PARIS", "the", "The", "capital", "is", "of", "France", "a", "b", "ab"],
  ...["é", "e\u0301", "É", "ñ", "İ", "ß", "Σ", "ς", "ǅ", "ﬁ", "①", "42", "3.14", "x²"],
  ...["😀", "👍🏽", "👨‍👩‍👧", "🇫🇷", "東京", "中文字", "한국어", "שלום", "مرحبا", "\u202e"],
  ...[" ", "  ", "\t", "\n", "\u00a0", "\u3000", "!", ",", "-", "'", "_", ".", "\u200b", "\uD83D", "\uDE00", ""],
  // Words either side of the 100 code units past which `details` lists a token cut short, one with a
  // surrogate pair (U+1D400, a letter) across the cut.
  ...["x".repeat(100), "y".repeat(101), `${"z".repeat(99)}\u{1D400}\u{1D400}`, "Q".repeat(250)],
);
const pieces = fc.array(piece, { maxLength: 8 });
const text = fc.oneof(
  { weight: 5, arbitrary: pieces.map((p) => p.join("")) },
  { weight: 3, arbitrary: pieces.map((p) => p.join(" ")) },
  { weight: 1, arbitrary: fc.string({ maxLength: 12, unit: "grapheme" }) },
  { weight: 1, arbitrary: fc.string({ maxLength: 6, unit: "binary" }) },
  { weight: 1, arbitrary: fc.constantFrom("", " ", "\n\t ", "!!", "a") },
);
/** An output made from the expected text by an edit, so that pairs are often close. */
const closePair = fc.tuple(pieces, fc.nat(), fc.nat(), pieces, fc.constantFrom("same", "upper", "lower", "pad")).map(([base, at, drop, add, cased]) => {
  const i = at % (base.length + 1);
  const kept = [...base.slice(0, i), ...add, ...base.slice(Math.min(base.length, i + (drop % 3)))];
  let out = kept.join(" ");
  if (cased === "upper") out = out.toUpperCase();
  if (cased === "lower") out = out.toLowerCase();
  if (cased === "pad") out = ` ${out}\n`;
  return [out, base.join(" ")] as const;
});
/** Long texts of many distinct words, past the 50 tokens `details` lists. */
const manyWords = fc.array(fc.integer({ min: 0, max: 90 }), { minLength: 40, maxLength: 120 }).map((ids) => ids.map((i) => `w${i}`).join(" "));
const pair = fc.oneof(
  { weight: 4, arbitrary: fc.tuple(text, text) },
  { weight: 6, arbitrary: closePair },
  { weight: 2, arbitrary: text.map((t) => [t, t] as const) },
  { weight: 1, arbitrary: fc.tuple(manyWords, manyWords) },
);

/** A record: usually both texts; sometimes no expected output (skipped) or no output (scored as ""). */
const record: fc.Arbitrary<EvalRecord> = fc.tuple(pair, fc.constantFrom("both", "both", "both", "both", "no-expected", "null-expected", "no-output", "null-output")).map(([[output, expected], kind]) => {
  if (kind === "no-expected") return { output };
  if (kind === "null-expected") return { output, expected: null };
  if (kind === "no-output") return { expected };
  if (kind === "null-output") return { output: null, expected };
  return { output, expected };
});

const normalization = fc.constantFrom(undefined, "NFC", "NFKC");
const unit01 = fc.oneof(fc.constantFrom(0, 1, 0.5, 0.7, 0.005, 0.995, 2 / 3, 1 / 3, 0.6667), fc.double({ min: 0, max: 1, noNaN: true }));

/** The config with its unset (undefined) keys left out, as JSON would give it. */
function given(config: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(config).filter(([, v]) => v !== undefined));
}

// ---------------------------------------------------------------------------------------------------
// Independent references

/** The texts an evaluator compares: the record's, after unicode_normalization; null when skipped. */
function textsOf(r: EvalRecord, norm: string | undefined): { output: string; expected: string; outputMissing: boolean } | null {
  const expected = r["expected"] as string | null | undefined;
  if (expected === undefined || expected === null) return null;
  const raw = r["output"] as string | null | undefined;
  const outputMissing = raw === undefined || raw === null;
  const output = outputMissing ? "" : raw;
  const n = (t: string) => (norm ? t.normalize(norm as "NFC" | "NFKC") : t);
  return { output: n(output), expected: n(expected), outputMissing };
}

const graphemes = new Intl.Segmenter("en", { granularity: "grapheme" });
function units(t: string, unit: "code_point" | "grapheme"): string[] {
  return unit === "grapheme" ? Array.from(graphemes.segment(t), (s) => s.segment) : Array.from(t);
}

/** The textbook Levenshtein distance (metrics/reference) over arrays of units, each distinct unit given a number. */
function editDistance(a: readonly string[], b: readonly string[]): number {
  const ids = new Map<string, number>();
  const id = (unit: string): number => ids.get(unit) ?? (ids.set(unit, ids.size), ids.size - 1);
  return referenceDistance(a.map(id), b.map(id));
}

/** `num/den` rounded half-up to 2 decimals, in integers. */
function halfUp2(num: number, den: number): number {
  return Math.floor((200 * num + den) / (2 * den)) / 100;
}

const WORD = /[\p{L}\p{N}][\p{L}\p{M}\p{N}]*/gu;
const words = (t: string, cs: boolean) => (cs ? t : t.toLowerCase().replace(/ς/g, "σ")).match(WORD) ?? [];
const collapse = (t: string) => t.replace(/\s+/gu, " ").trim();
function ngrams(t: string, n: number, cs: boolean): string[] {
  const points = Array.from(collapse(cs ? t : t.toLowerCase().replace(/ς/g, "σ")));
  if (points.length === 0) return [];
  if (points.length <= n) return [points.join("")];
  return Array.from({ length: points.length - n + 1 }, (_, i) => points.slice(i, i + n).join(""));
}
function counts(tokens: readonly string[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const t of tokens) m.set(t, (m.get(t) ?? 0) + 1);
  return m;
}

/** Nearest doubles above and below `x`. */
function nextUp(x: number): number {
  if (x === 0) return Number.MIN_VALUE;
  const f = new Float64Array([x]);
  const i = new BigInt64Array(f.buffer);
  i[0] = (i[0] as bigint) + (x > 0 ? 1n : -1n);
  return f[0] as number;
}
const nextDown = (x: number) => -nextUp(-x);

/** Thresholds just either side of `score` and equal to it, and at its usual rounding, within [lo, hi]. */
function thresholdsAround(score: number, lo: number, hi: number): number[] {
  const near = [score, nextUp(score), nextDown(score), Number(score.toFixed(2)), Number(score.toFixed(4)), Math.ceil(score * 1e4) / 1e4, Math.floor(score * 1e4) / 1e4, score + 0.005, score - 0.005];
  return [...new Set(near.filter((t) => Number.isFinite(t) && t >= lo && t <= hi))];
}

// ---------------------------------------------------------------------------------------------------
// Shared checks

/** What every result holds, and the skipped and missing-output rules. Returns the reasoning past the missing-output note. */
function checkShared(r: EvalResult, texts: ReturnType<typeof textsOf>, direction: "maximize" | "minimize"): string | null {
  expect(r.label).toBe(r.passed === null ? null : r.passed ? "pass" : "fail");
  expect(typeof r.reasoning).toBe("string");
  expect(r.reasoning).toMatch(/^[A-Z0-9].*[.]$/su);
  expect(r.details !== null && typeof r.details === "object" && !Array.isArray(r.details)).toBe(true);
  if (texts === null) {
    const score = direction === "minimize" ? null : 0;
    expect(r).toMatchObject({ score, passed: false, label: "fail", skipped: true, details: {} });
    expect(r.reasoning).toMatch(new RegExp(`^No expected output was provided \\(.*\\), so the comparison could not be performed; score ${score === null ? "null" : "0\\.0"}, skipped\\.$`));
    return null;
  }
  expect(r.skipped).toBe(false);
  const note = "The output was missing and is scored as the empty string. ";
  expect(r.reasoning.startsWith(note)).toBe(texts.outputMissing);
  return texts.outputMissing ? r.reasoning.slice(note.length) : r.reasoning;
}

/**
 * A score as shown beside a threshold: within half a unit of its last decimal of the score, and on
 * the same side of the threshold as the score (`passed`).
 */
function checkShown(shown: string, score: number, threshold: number, passed: boolean | null) {
  expect(shown).toMatch(/^-?\d+(\.\d+)?(e-?\d+)?$/);
  const decimals = shown.includes("e") ? 20 : (shown.split(".")[1] ?? "").length;
  expect(Math.abs(Number(shown) - score)).toBeLessThanOrEqual(0.5 * 10 ** -decimals + 1e-15);
  if (passed !== null) expect(Number(shown) >= threshold).toBe(passed);
}

/** The threshold as quoted: reads back as the config's (-0 is printed "0"). */
function checkThreshold(quoted: string, threshold: number) {
  expect(Number(quoted) === threshold, `${quoted} against ${threshold}`).toBe(true);
}

// ---------------------------------------------------------------------------------------------------
// Per evaluator

type Check = (r: EvalResult, config: Record<string, unknown>, record: EvalRecord) => void;

const checkExactMatch: Check = (r, config, rec) => {
  const texts = textsOf(rec, config["unicode_normalization"] as string | undefined);
  const rest = checkShared(r, texts, "maximize");
  if (rest === null || texts === null) return;
  const cs = config["case_sensitive"] === true;
  const trim = config["trim"] !== false;
  const ws = config["normalize_whitespace"] === true;
  const prepare = (t: string) => {
    let x = ws ? t.replace(/\s+/gu, " ") : t;
    if (trim) x = x.trim();
    return cs ? x : x.toLowerCase().replace(/ς/g, "σ");
  };
  const a = Array.from(prepare(texts.output));
  const b = Array.from(prepare(texts.expected));
  const equal = a.join("") === b.join("");
  expect(r.score).toBe(equal ? 1 : 0);
  expect(r.passed).toBe(equal);
  const applied = [cs ? "case-sensitive" : "case-insensitive", trim ? "trimmed" : "untrimmed", ...(ws ? ["white space collapsed"] : [])].join(", ");
  const m = /^The output (?:equals the expected output|differs from the expected output at code point (\d+)) \((.*)\)\.$/su.exec(rest);
  expect(m, rest).not.toBeNull();
  const [, at, quotedApplied] = m as RegExpExecArray;
  expect(quotedApplied).toBe(applied);
  expect(r.details["compared_output_length"]).toBe(a.length);
  expect(r.details["compared_expected_length"]).toBe(b.length);
  if (equal) {
    expect(at).toBeUndefined();
    expect(r.details["first_difference"]).toBeNull();
    return;
  }
  const i = Number(at);
  expect(r.details["first_difference"]).toBe(i);
  // The first differing code point: the same before it, and differing there (or one text ends there).
  expect(a.slice(0, i)).toEqual(b.slice(0, i));
  expect(i <= a.length && i <= b.length).toBe(true);
  expect(a[i] !== b[i]).toBe(true);
};

const truncationRe = / Compared only the first (\d+) (code points?|graphemes?) of (output \(\d+\)(?: and expected \(\d+\))?|expected \(\d+\)) \(max_chars\)\.$/u;

/** The texts the Levenshtein evaluators compare, and what max_chars cut, by the README's rules. */
function editTexts(texts: { output: string; expected: string }, cs: boolean, maxChars: number | undefined, unit: "code_point" | "grapheme") {
  const truncated: Record<string, number> = {};
  const cut = (t: string, side: string) => {
    const u = units(t, unit);
    if (!maxChars || u.length <= maxChars) return t;
    truncated[side] = u.length;
    return u.slice(0, maxChars).join("");
  };
  const lower = (t: string) => (cs ? t : t.toLowerCase().replace(/ς/g, "σ"));
  const a = units(lower(cut(texts.output, "output")), unit);
  const b = units(lower(cut(texts.expected, "expected")), unit);
  return { a, b, truncated: Object.keys(truncated).length ? truncated : (false as const) };
}

/** The truncation note at the end of `rest`, checked against `details.truncated`; returns `rest` without it. */
function checkTruncation(rest: string, details: Record<string, unknown>, expected: false | Record<string, number>, maxChars: number | undefined, unit: string): string {
  expect(details["truncated"]).toEqual(expected);
  const m = truncationRe.exec(rest);
  if (!expected) {
    expect(m, rest).toBeNull();
    return rest;
  }
  expect(m, rest).not.toBeNull();
  const [note, first, unitWord, sides] = m as RegExpExecArray;
  expect(Number(first)).toBe(maxChars);
  expect(unitWord).toBe(`${unit === "grapheme" ? "grapheme" : "code point"}${maxChars === 1 ? "" : "s"}`);
  expect(sides).toBe(Object.entries(expected).map(([side, n]) => `${side} (${n})`).join(" and "));
  return rest.slice(0, rest.length - note.length);
}

const checkLevenshtein: Check = (r, config, rec) => {
  const texts = textsOf(rec, config["unicode_normalization"] as string | undefined);
  const rest0 = checkShared(r, texts, "maximize");
  if (rest0 === null || texts === null) return;
  const unit = (config["unit"] ?? "code_point") as "code_point" | "grapheme";
  const maxChars = (config["max_chars"] ?? 10_000) as number;
  const threshold = (config["threshold"] ?? 0.7) as number;
  const cs = config["case_sensitive"] === true;
  const { a, b, truncated } = editTexts(texts, cs, maxChars, unit);
  const rest = checkTruncation(rest0, r.details, truncated, maxChars, unit);
  const d = editDistance(a, b);
  const max = Math.max(a.length, b.length);
  expect(r.details).toMatchObject({ distance: d, output_length: a.length, expected_length: b.length, max_length: max });
  // The documented formula, from the details.
  const score = max === 0 ? 1 : halfUp2(max - d, max);
  expect(r.score).toBe(score);
  expect(r.passed).toBe(score >= threshold);
  const m =
    /^Edit distance (\d+) over at most (\d+) (code points?|graphemes?): (?:both texts are empty, so the similarity is 1\.0|1 - (\d+)\/(\d+) ([=≈]) (\S+)), (meets|is below) the threshold (\S+?)( \(case-insensitive\))?\.$/u.exec(
      rest,
    );
  expect(m, rest).not.toBeNull();
  const [, distance, maxLength, unitWord, fd, fm, sign, shown, verb, quotedThreshold, ci] = m as RegExpExecArray;
  expect(Number(distance)).toBe(d);
  expect(Number(maxLength)).toBe(max);
  expect(unitWord).toBe(`${unit === "grapheme" ? "grapheme" : "code point"}${max === 1 ? "" : "s"}`);
  if (max === 0) expect(fd).toBeUndefined();
  else {
    expect([Number(fd), Number(fm)]).toEqual([d, max]);
    // "=" only where 1 - d/m has at most 2 decimals, so that the equation written is true.
    expect(sign).toBe(((max - d) * 100) % max === 0 ? "=" : "≈");
    // Two decimals, the score itself: 1 - d/m rounded half-up as documented.
    expect(shown).toMatch(/^\d\.\d\d$/);
    expect(Number(shown)).toBe(score);
    checkShown(shown as string, score, threshold, r.passed);
  }
  expect(verb === "meets").toBe(r.passed);
  checkThreshold(quotedThreshold as string, threshold);
  expect(ci !== undefined).toBe(!cs);
};

const checkLevenshteinDistance: Check = (r, config, rec) => {
  const texts = textsOf(rec, config["unicode_normalization"] as string | undefined);
  const rest0 = checkShared(r, texts, "minimize");
  if (rest0 === null || texts === null) return;
  const unit = (config["unit"] ?? "code_point") as "code_point" | "grapheme";
  const maxChars = config["max_chars"] as number | undefined;
  const threshold = config["threshold"] as number | undefined;
  const cs = config["case_sensitive"] !== false;
  const { a, b, truncated } = editTexts(texts, cs, maxChars, unit);
  const rest = checkTruncation(rest0, r.details, truncated, maxChars, unit);
  const d = editDistance(a, b);
  expect(r.score).toBe(d);
  expect(r.details).toMatchObject({ distance: d, direction: "minimize", output_length: a.length, expected_length: b.length, unit, threshold: threshold ?? null });
  expect(r.passed).toBe(threshold === undefined ? null : d <= threshold);
  const m = /^(?:Identical: 0 edits|(\d+) edits? \((code points|graphemes)\)) needed to turn the output into the expected output; (?:no threshold is set, so there is no verdict|(within|above) the maximum of (\d+))( \(case-insensitive\))?\.$/u.exec(rest);
  expect(m, rest).not.toBeNull();
  const [whole, n, unitWord, verb, max, ci] = m as RegExpExecArray;
  // "Identical" of texts that differ in case only under the case rule it names.
  expect(ci !== undefined).toBe(!cs);
  // "Identical" of whole texts only: a cut by max_chars may hide a difference.
  if (d === 0 && !truncated) expect(n).toBeUndefined();
  else {
    expect(Number(n)).toBe(d);
    expect(whole.startsWith(`${d} edit${d === 1 ? "" : "s"} (`)).toBe(true);
    expect(unitWord).toBe(unit === "grapheme" ? "graphemes" : "code points");
  }
  if (threshold === undefined) expect(verb).toBeUndefined();
  else {
    expect(verb === "within").toBe(r.passed);
    expect(Number(max)).toBe(threshold);
  }
};

/**
 * A token as `details` lists it: whole up to 100 UTF-16 code units, else the first 100 and "…" (99
 * where the 100th is the high half of a surrogate pair).
 */
function listed(token: string): string {
  if (token.length <= 100) return token;
  const end = /[\uD800-\uDBFF]/.test(token[99] as string) ? 99 : 100;
  return `${token.slice(0, end)}…`;
}

/** `details` shared/missing/extra against the two token sets: lists in first-seen order, capped at 50, and exact counts. */
function checkTokenLists(details: Record<string, unknown>, out: Map<string, number>, exp: Map<string, number>) {
  const shared = [...exp.keys()].filter((t) => out.has(t));
  const missing = [...exp.keys()].filter((t) => !out.has(t));
  const extra = [...out.keys()].filter((t) => !exp.has(t));
  expect(details["shared_count"]).toBe(shared.length);
  expect(details["missing_count"]).toBe(missing.length);
  expect(details["extra_count"]).toBe(extra.length);
  if ("shared" in details) expect(details["shared"]).toEqual(shared.slice(0, 50).map(listed));
  expect(details["missing"]).toEqual(missing.slice(0, 50).map(listed));
  expect(details["extra"]).toEqual(extra.slice(0, 50).map(listed));
}

const checkJaccard: Check = (r, config, rec) => {
  const texts = textsOf(rec, config["unicode_normalization"] as string | undefined);
  const rest0 = checkShared(r, texts, "maximize");
  if (rest0 === null || texts === null) return;
  const cs = config["case_sensitive"] === true;
  const threshold = (config["threshold"] ?? config["similarity_threshold"] ?? 0.5) as number;
  const out = counts(words(texts.output, cs));
  const exp = counts(words(texts.expected, cs));
  checkTokenLists(r.details, out, exp);
  expect(r.details["output_words"]).toBe(out.size);
  expect(r.details["expected_words"]).toBe(exp.size);
  const shared = r.details["shared_count"] as number;
  const union = shared + (r.details["missing_count"] as number) + (r.details["extra_count"] as number);
  let score: number;
  if (out.size === 0 && exp.size === 0) {
    const equal = cs ? collapse(texts.output) === collapse(texts.expected) : collapse(texts.output).toLowerCase().replace(/ς/g, "σ") === collapse(texts.expected).toLowerCase().replace(/ς/g, "σ");
    score = equal ? 1 : 0;
  } else if (out.size === 0 || exp.size === 0) score = 0;
  else score = shared / union; // the documented formula, from the details
  expect(r.score).toBe(score);
  expect(r.passed).toBe(score >= threshold);
  const m = /^(?:Neither text has a word; the texts are (equal|different), so the score is (1\.0|0\.0)\.|The (output|expected output) has no words, so the score is 0\.0\.|(\d+) shared words? out of (\d+) distinct: Jaccard (\S+)\.) (Meets|Below) the threshold (\S+)\.$/u.exec(rest0);
  expect(m, rest0).not.toBeNull();
  const [, equalWord, noWordsScore, side, n, distinct, shown, verb, quotedThreshold] = m as RegExpExecArray;
  if (out.size === 0 && exp.size === 0) {
    expect(equalWord).toBe(score === 1 ? "equal" : "different");
    expect(Number(noWordsScore)).toBe(score);
  } else if (out.size === 0 || exp.size === 0) expect(side).toBe(out.size === 0 ? "output" : "expected output");
  else {
    expect(Number(n)).toBe(shared);
    expect(rest0.startsWith(`${shared} shared word${shared === 1 ? "" : "s"} `)).toBe(true);
    expect(Number(distinct)).toBe(union);
    checkShown(shown as string, score, threshold, r.passed);
  }
  expect(verb === "Meets").toBe(r.passed);
  checkThreshold(quotedThreshold as string, threshold);
};

/** The dataset IDF table the tfidf configs with `idf: "dataset"` are given. */
const datasetIdf = { n: 5, df: (token: string) => Array.from(token).length % 6 };
const idfOf = (n: number, df: number) => Math.log((1 + n) / (1 + df)) + 1;

const checkTfidf: Check = (r, config, rec) => {
  const texts = textsOf(rec, config["unicode_normalization"] as string | undefined);
  const rest0 = checkShared(r, texts, "maximize");
  if (rest0 === null || texts === null) return;
  const cs = config["case_sensitive"] === true;
  const threshold = (config["threshold"] ?? 0.7) as number;
  const tokenizer = (config["tokenizer"] ?? "word") as string;
  const n = (config["ngram_size"] ?? 3) as number;
  const dataset = config["idf"] === "dataset";
  const split = (t: string) => (tokenizer === "word" ? words(t, cs) : ngrams(t, n, cs));
  const out = counts(split(texts.output));
  const exp = counts(split(texts.expected));
  checkTokenLists(r.details, out, exp);
  expect(r.details["tokenizer"]).toBe(tokenizer);
  expect(r.details["ngram_size"]).toBe(tokenizer === "char_ngram" ? n : null);
  // The cosine, from the texts: weight = count × smoothed IDF.
  const idf = (t: string) => (dataset ? idfOf(datasetIdf.n, datasetIdf.df(t)) : idfOf(2, (out.has(t) ? 1 : 0) + (exp.has(t) ? 1 : 0)));
  const vocabulary = [...new Set([...out.keys(), ...exp.keys()])];
  const w = (m: Map<string, number>, t: string) => (m.get(t) ?? 0) * idf(t);
  const dot = vocabulary.reduce((s, t) => s + w(out, t) * w(exp, t), 0);
  const norm = Math.sqrt(vocabulary.reduce((s, t) => s + w(out, t) ** 2, 0) * vocabulary.reduce((s, t) => s + w(exp, t) ** 2, 0));
  const noTokens = out.size === 0 && exp.size === 0;
  let score: number;
  if (noTokens) {
    const equal = cs ? collapse(texts.output) === collapse(texts.expected) : collapse(texts.output).toLowerCase().replace(/ς/g, "σ") === collapse(texts.expected).toLowerCase().replace(/ς/g, "σ");
    score = equal ? 1 : 0;
    expect(r.score).toBe(score);
  } else if (out.size === 0 || exp.size === 0) {
    score = 0;
    expect(r.score).toBe(0);
  } else {
    score = r.score as number;
    expect(score).toBeCloseTo(Math.min(1, dot / norm), 12);
  }
  expect(r.passed).toBe(score >= threshold);
  // top_terms: the heaviest terms, largest contribution first, each wA·wB / (‖A‖ ‖B‖).
  const top = r.details["top_terms"] as { token: string; output_count: number; expected_count: number; idf: number; contribution: number }[];
  expect(top.length).toBe(Math.min(5, vocabulary.length));
  for (const [i, t] of top.entries()) {
    // A term whose listed form this is: long words joined from the same pieces can share their first 100 units.
    const term = vocabulary.filter((v) => listed(v) === t.token).find((v) => (out.get(v) ?? 0) === t.output_count && (exp.get(v) ?? 0) === t.expected_count && Math.abs(idf(v) - t.idf) < 5e-13);
    expect(term, t.token).toBeDefined();
    expect(t.contribution).toBeCloseTo(norm > 0 ? (t.output_count * t.expected_count * t.idf ** 2) / norm : 0, 12);
    if (i > 0) expect(t.contribution).toBeLessThanOrEqual((top[i - 1] as { contribution: number }).contribution);
  }
  // Only shared terms contribute; when every one is listed, the contributions sum to the cosine.
  const sharedCount = r.details["shared_count"] as number;
  if (!noTokens && sharedCount <= 5) expect(top.reduce((s, t) => s + t.contribution, 0)).toBeCloseTo(score, 12);
  const tokenName = tokenizer === "word" ? "word" : `${n}-gram`;
  const esc = tokenName;
  const m = new RegExp(
    `^(?:Neither text has a ${esc}; the texts are (equal|different), so the score is (1\\.0|0\\.0)\\.|The (output|expected output) has no ${esc}s, so the score is 0\\.0\\.|TF-IDF cosine over ${esc}s: (\\S+?)(?:; the shared terms weighing most: (.*)|; no shared terms)\\.) (Meets|Below) the threshold (\\S+)\\.$`,
    "su",
  ).exec(rest0);
  expect(m, rest0).not.toBeNull();
  const [, equalWord, noTokensScore, side, shown, terms, verb, quotedThreshold] = m as RegExpExecArray;
  if (noTokens) {
    expect(equalWord).toBe(score === 1 ? "equal" : "different");
    expect(Number(noTokensScore)).toBe(score);
  } else if (out.size === 0 || exp.size === 0) expect(side).toBe(out.size === 0 ? "output" : "expected output");
  else {
    checkShown(shown as string, score, threshold, r.passed);
    const named = top.filter((t) => t.contribution > 0).slice(0, 3).map((t) => JSON.stringify(t.token));
    expect(terms === undefined ? [] : (JSON.parse(`[${terms}]`) as string[]).map((t) => JSON.stringify(t))).toEqual(named);
    expect(named.length > 0).toBe(sharedCount > 0);
  }
  expect(verb === "Meets").toBe(r.passed);
  checkThreshold(quotedThreshold as string, threshold);
};

/**
 * A second deterministic provider: a bag of a few known words, some pointing against others (negative
 * cosines), every other word unknown; a text without a known word embeds as the zero vector.
 */
const VOCABULARY: Record<string, number[]> = { paris: [1, 0, 0], france: [1, 1, 0], capital: [0, 1, 0], the: [0, 0, 1], 東京: [-1, 0, 0], שלום: [0, -1, -1] };
const vocabularyProvider: EmbeddingProvider = {
  name: "vocabulary",
  model: "vocab-3",
  zeroVectorMeans: "no known word",
  async embed(texts) {
    return { vectors: texts.map((t) => words(t, false).reduce((v, w) => v.map((x, i) => x + (VOCABULARY[w]?.[i] ?? 0)), [0, 0, 0])) };
  },
};
const providers: Record<string, EmbeddingProvider> = { hashing: hashingProvider, vocabulary: vocabularyProvider };

async function providerCosine(provider: EmbeddingProvider, a: string, b: string): Promise<number> {
  const { vectors } = await provider.embed([a, b]);
  const [x, y] = vectors as [ArrayLike<number>, ArrayLike<number>];
  let dot = 0;
  let nx = 0;
  let ny = 0;
  for (let i = 0; i < x.length; i++) {
    dot += (x[i] as number) * (y[i] as number);
    nx += (x[i] as number) ** 2;
    ny += (y[i] as number) ** 2;
  }
  return nx === 0 || ny === 0 ? 0 : dot / Math.sqrt(nx * ny);
}

async function checkSemantic(r: EvalResult, config: Record<string, unknown>, rec: EvalRecord): Promise<void> {
  const texts = textsOf(rec, config["unicode_normalization"] as string | undefined);
  const rest = checkShared(r, texts, "maximize");
  if (rest === null || texts === null) return;
  const threshold = config["threshold"] as number | undefined;
  const from = (config["rescale"] as { from: number } | undefined)?.from;
  const { output, expected } = texts;
  const trivial = output === expected || output === "" || expected === "";
  const provider = providers[config["provider"] as string] as EmbeddingProvider;
  const cosine = output === expected ? 1 : trivial ? 0 : await providerCosine(provider, output, expected);
  const zero = trivial ? [] : (await provider.embed([output, expected])).vectors.map((v, i) => (Array.from(v).every((x) => x === 0) ? ["output", "expected"][i] : null)).filter((w) => w !== null);
  expect(r.details["zero_vector"]).toEqual(zero.length ? zero : undefined);
  const d = r.details;
  expect(d["cosine"]).toBeCloseTo(cosine, 12);
  const score = from === undefined ? (d["cosine"] as number) : Math.min(1, Math.max(0, ((d["cosine"] as number) - from) / (1 - from)));
  expect(r.score).toBe(score);
  expect(d["score"]).toBe(score);
  expect(d["threshold"]).toBe(threshold ?? null);
  expect(d["rescale"]).toEqual(from === undefined ? undefined : { from });
  expect(d["embedded"]).toBe(!trivial);
  expect(r.passed).toBe(threshold === undefined ? null : score >= threshold);
  const verdict = "(?: \\(no threshold set\\)\\.|; (meets|below) the threshold (\\S+)\\.)";
  let shown: string | undefined;
  let verb: string | undefined;
  let quoted: string | undefined;
  if (trivial) {
    const m = new RegExp(`^(?:The texts are identical: cosine 1\\.0 \\(no embedding needed\\)|The (output|expected output) is empty: cosine 0\\.0 \\(nothing to embed\\))(?:, rescaled to (\\S+?))?(?:\\.|${verdict})$`, "u").exec(rest);
    expect(m, rest).not.toBeNull();
    const [, side, rescaled, v, q] = m as RegExpExecArray;
    if (output !== expected) expect(side).toBe(output === "" ? "output" : "expected output");
    expect(rescaled !== undefined).toBe(from !== undefined);
    shown = rescaled;
    [verb, quoted] = [v, q];
  } else {
    const m = new RegExp(
      `^(?:Cosine similarity of the ${provider.model} embeddings|The (output|expected output|output and the expected output) (?:has|have) an all-zero embedding \\(${provider.zeroVectorMeans}\\), so the cosine is 0 by convention): (\\S+?)(?:, rescaled from \\[(\\S+), 1\\] to (\\S+?))?${verdict}$`,
      "u",
    ).exec(rest);
    expect(m, rest).not.toBeNull();
    const [whole, zeroSides, cos, quotedFrom, rescaled, v, q] = m as RegExpExecArray;
    expect(zeroSides).toBe(zero.length ? zero.map((w) => (w === "output" ? "output" : "expected output")).join(" and the ") : undefined);
    if (zero.length) {
      expect(cosine).toBe(0);
      expect(whole).toContain(zero.length > 1 ? " have an " : " has an ");
    }
    [verb, quoted] = [v, q];
    if (from === undefined) shown = cos;
    else {
      expect(cos).toBe((d["cosine"] as number).toFixed(4));
      expect(Number(quotedFrom) === from, `${quotedFrom} against ${from}`).toBe(true);
      shown = rescaled;
    }
  }
  if (shown !== undefined) checkShown(shown, score, threshold ?? 0, r.passed);
  if (threshold === undefined) expect(verb).toBeUndefined();
  else {
    expect(verb === "meets").toBe(r.passed);
    checkThreshold(quoted as string, threshold);
  }
}

// ---------------------------------------------------------------------------------------------------
// Configs and the properties

const configs: Record<string, fc.Arbitrary<Record<string, unknown>>> = {
  exact_match: fc.record({ case_sensitive: fc.option(fc.boolean(), { nil: undefined }), trim: fc.option(fc.boolean(), { nil: undefined }), normalize_whitespace: fc.option(fc.boolean(), { nil: undefined }), unicode_normalization: normalization }),
  levenshtein: fc.record({
    threshold: fc.option(unit01, { nil: undefined }),
    case_sensitive: fc.option(fc.boolean(), { nil: undefined }),
    max_chars: fc.option(fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 12 })), { nil: undefined }),
    unit: fc.option(fc.constantFrom("code_point", "grapheme"), { nil: undefined }),
    unicode_normalization: normalization,
  }),
  levenshtein_distance: fc.record({
    threshold: fc.option(fc.integer({ min: 0, max: 12 }), { nil: undefined }),
    case_sensitive: fc.option(fc.boolean(), { nil: undefined }),
    max_chars: fc.option(fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 12 })), { nil: undefined }),
    unit: fc.option(fc.constantFrom("code_point", "grapheme"), { nil: undefined }),
    unicode_normalization: normalization,
  }),
  jaccard_similarity: fc
    .record({ threshold: fc.option(unit01, { nil: undefined }), alias: fc.boolean(), case_sensitive: fc.option(fc.boolean(), { nil: undefined }), unicode_normalization: normalization })
    .map(({ threshold, alias, ...rest }) => (alias ? { ...rest, similarity_threshold: threshold } : { ...rest, threshold })),
  tfidf_similarity: fc.oneof(
    fc.record({ threshold: fc.option(unit01, { nil: undefined }), case_sensitive: fc.option(fc.boolean(), { nil: undefined }), idf: fc.constantFrom(undefined, "pair", "dataset"), unicode_normalization: normalization }),
    fc.record({
      threshold: fc.option(unit01, { nil: undefined }),
      tokenizer: fc.constant("char_ngram"),
      ngram_size: fc.option(fc.integer({ min: 1, max: 5 }), { nil: undefined }),
      case_sensitive: fc.option(fc.boolean(), { nil: undefined }),
      idf: fc.constantFrom(undefined, "pair", "dataset"),
      unicode_normalization: normalization,
    }),
  ),
  semantic_similarity: fc.record({
    provider: fc.constantFrom("hashing", "vocabulary"),
    threshold: fc.option(fc.oneof(unit01, fc.double({ min: -1, max: 1, noNaN: true })), { nil: undefined }),
    rescale: fc.option(fc.record({ from: fc.oneof(fc.constantFrom(-1, -0.3, 0, 0.5, 0.7, 0.99), fc.double({ min: -1, max: 0.999, noNaN: true })) }), { nil: undefined }),
    unicode_normalization: normalization,
  }),
};

const checks: Record<string, Check> = {
  exact_match: checkExactMatch,
  levenshtein: checkLevenshtein,
  levenshtein_distance: checkLevenshteinDistance,
  jaccard_similarity: checkJaccard,
  tfidf_similarity: checkTfidf,
};

const env = { embeddingProviders: { hashing: () => hashingProvider, vocabulary: () => vocabularyProvider }, datasetIdf: () => datasetIdf };

/** The config with its threshold moved next to `score` (the range each evaluator accepts), and as drawn. */
function withThresholdsAround(type: string, config: Record<string, unknown>, score: number | null): Record<string, unknown>[] {
  if (type === "exact_match" || score === null) return [config];
  if (type === "levenshtein_distance") return [config, ...[score - 1, score, score + 1].filter((t) => t >= 0).map((threshold) => ({ ...config, threshold }))];
  const [lo, hi] = type === "semantic_similarity" ? [-1, 1] : [0, 1];
  const key = "similarity_threshold" in config ? "similarity_threshold" : "threshold";
  return [config, ...thresholdsAround(score, lo, hi).map((threshold) => ({ ...config, [key]: threshold }))];
}

describe("explanations agree with scores, verdicts and details", () => {
  it.each(Object.keys(checks))("%s", (type) => {
    fc.assert(
      fc.property(configs[type] as fc.Arbitrary<Record<string, unknown>>, record, (drawn, rec) => {
        const first = createEvaluator({ type, config: given(drawn) }, env).evaluateNow(rec) as EvalResult;
        for (const config of withThresholdsAround(type, given(drawn), first.skipped ? null : first.score)) {
          const r = createEvaluator({ type, config }, env).evaluateNow(rec);
          if (r instanceof Promise) throw new Error(`${type} is asynchronous`);
          (checks[type] as Check)(r, config, rec);
        }
      }),
      runs(250),
    );
  });

  it("semantic_similarity (hashing and vocabulary providers)", async () => {
    await fc.assert(
      fc.asyncProperty(configs["semantic_similarity"] as fc.Arbitrary<Record<string, unknown>>, record, async (drawn, rec) => {
        const first = await createEvaluator({ type: "semantic_similarity", config: given(drawn) }, env).evaluate(rec);
        for (const config of withThresholdsAround("semantic_similarity", given(drawn), first.skipped ? null : first.score)) {
          await checkSemantic(await createEvaluator({ type: "semantic_similarity", config }, env).evaluate(rec), config, rec);
        }
      }),
      runs(150),
    );
  });
});
