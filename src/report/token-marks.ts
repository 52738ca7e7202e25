/**
 * Marks for evaluators that compare token sets or multisets (`jaccard_similarity`, `tfidf_similarity`),
 * where word order does not count: a token of one text is marked when the other text lacks it, and the
 * texts are split by the evaluator's own tokenizer (src/metrics/tokens.ts) under its case rule.
 */
import { mayBeCutToken } from "../evaluators/explain-tokens.js";
import { DEFAULT_NGRAM_SIZE } from "../evaluators/tfidf-similarity.js";
import { ngramCounts, charNgramSpans, wordCounts, wordTokenSpans, type TokenSpan } from "../metrics/tokens.js";
import { graphemeSegments } from "../metrics/text-units.js";
import { comparedTexts } from "./compared-texts.js";
import type { AlignedTexts, Segment } from "./text-diff.js";
import type { HighlightOptions } from "./types.js";

/**
 * What an evaluator reported of a row (jaccard_similarity's and tfidf_similarity's `details`): the
 * tokens of the expected text the output lacks (`missing`) and of the output the expected text lacks
 * (`extra`). The lists are cut (see `LISTED_TOKENS`); the counts are exact, so a list is complete when
 * it is as long as its count.
 */
export interface ReportedTokens {
  missing: readonly string[];
  extra: readonly string[];
  missing_count: number;
  extra_count: number;
}

/** How an evaluator splits a text: all its tokens (the keys), and the tokens of a shown part with where they are. */
interface Tokenizer {
  tokens(text: string): ReadonlyMap<string, unknown>;
  spans(text: string, limit: number): TokenSpan[];
}

function tokenizerFor(opts: HighlightOptions): Tokenizer {
  const caseSensitive = !opts.ignore_case;
  if (opts.unit === "char_ngrams") {
    const n = opts.ngram_size ?? DEFAULT_NGRAM_SIZE;
    return { tokens: (t) => ngramCounts(t, n, caseSensitive), spans: (t, limit) => charNgramSpans(t, n, caseSensitive, limit) };
  }
  return { tokens: (t) => wordCounts(t, caseSensitive), spans: (t, limit) => wordTokenSpans(t, caseSensitive, limit) };
}

/**
 * Both texts (each cut to `maxChars` code points, with a note) with the tokens the other text lacks
 * marked, for `opts.unit` "word_tokens" or "char_ngrams":
 * - "word_tokens": each word of the expected text that is in the evaluator's missing set, each word of
 *   the output in its extra set — every occurrence, wherever it stands. Nothing else (white space,
 *   punctuation) is ever marked.
 * - "char_ngrams": each character all of whose n-grams are in the missing (extra) set: a character in
 *   some n-gram both texts have is unmarked. White space trimmed from the ends is in no n-gram, unmarked.
 *
 * Both texts are first prepared as the evaluator compared them ({@link comparedTexts}), with a note when that changes them.
 * The sets are `reported`'s lists when they are complete, no token in them cut; otherwise they are made again from the whole
 * texts with the same tokenizer (a token of the expected text is missing iff the output has no such token).
 * A token cut by `maxChars` is judged whole.
 */
export function markTokenSets(rawExpected: string, rawOutput: string, opts: HighlightOptions, maxChars: number, reported?: ReportedTokens): Omit<AlignedTexts, "skipped"> {
  const { expected, output, shownExpected: e, shownOutput: o, notes } = comparedTexts(rawExpected, rawOutput, opts, maxChars);
  const tokenizer = tokenizerFor(opts);
  const missing = setOf(reported?.missing, reported?.missing_count) ?? lacking(tokenizer.tokens(output));
  const extra = setOf(reported?.extra, reported?.extra_count) ?? lacking(tokenizer.tokens(expected));
  const expSpans = tokenizer.spans(expected, e.text.length);
  const outSpans = tokenizer.spans(output, o.text.length);
  const what = opts.unit === "char_ngrams" ? "character" : "word";
  if (expected !== "" && expSpans.length === 0) notes.push(`The expected text has no ${what}s to mark.`);
  if (output !== "" && outSpans.length === 0) notes.push(`The output has no ${what}s to mark.`);
  const sides = { expected: markSpans(e.text, expSpans, missing), output: markSpans(o.text, outSpans, extra) };
  if (opts.unit === "char_ngrams") {
    // N-grams the other text lacks whose every character is in one it has: say so, or the row reads as identical.
    const n = opts.ngram_size ?? DEFAULT_NGRAM_SIZE;
    const unshown = (segments: Segment[], spans: TokenSpan[], marked: (token: string) => boolean): boolean =>
      !segments.some((s) => s.changed) && spans.some((s) => marked(s.token));
    if (unshown(sides.expected, expSpans, missing)) notes.push(`Every character of the expected text is in some ${n}-gram the output has, though not every ${n}-gram of it is.`);
    if (unshown(sides.output, outSpans, extra)) notes.push(`Every character of the output is in some ${n}-gram the expected text has, though not every ${n}-gram of it is.`);
  }
  return { ...sides, highlighted: true, notes };
}

/**
 * A reported list as a membership test, when it lists every token whole (else null: the list was cut, or
 * a token in it was, which no token of the text would match, see `listedToken`).
 */
function setOf(list: readonly string[] | undefined, count: number | undefined): ((token: string) => boolean) | null {
  if (list === undefined || count !== list.length || list.some(mayBeCutToken)) return null;
  const set = new Set(list);
  return (token) => set.has(token);
}

/** The tokens the other text lacks: those not among `other`'s. */
function lacking(other: ReadonlyMap<string, unknown>): (token: string) => boolean {
  return (token) => !other.has(token);
}

/**
 * `shown` cut into runs: a code unit is marked when some span covers it and every span covering it is
 * `marked` (spans are clipped to `shown`; those of words never overlap, those of n-grams do). A grapheme
 * cluster with a marked code unit is marked whole: n-grams are of code points, and a mark around part of
 * an emoji sequence or a letter's combining mark breaks it apart on screen.
 */
function markSpans(shown: string, spans: readonly TokenSpan[], marked: (token: string) => boolean): Segment[] {
  // Per code unit boundary: how many spans start minus end there, all of them and the unmarked ones.
  const covering = new Int32Array(shown.length + 1);
  const keeping = new Int32Array(shown.length + 1);
  const add = (counts: Int32Array, span: TokenSpan): void => {
    counts[span.start] = (counts[span.start] as number) + 1;
    const end = Math.min(span.end, shown.length);
    counts[end] = (counts[end] as number) - 1;
  };
  for (const s of spans) {
    add(covering, s);
    if (!marked(s.token)) add(keeping, s);
  }
  const marks = new Uint8Array(shown.length);
  let cover = 0;
  let keep = 0;
  for (let i = 0; i < shown.length; i++) {
    cover += covering[i] as number;
    keep += keeping[i] as number;
    marks[i] = cover > 0 && keep === 0 ? 1 : 0;
  }
  const segments: Segment[] = [];
  for (const { segment, index } of graphemeSegments(shown)) {
    const changed = marks.subarray(index, index + segment.length).includes(1);
    const last = segments[segments.length - 1];
    if (last && last.changed === changed) last.text += segment;
    else segments.push({ text: segment, changed });
  }
  return segments;
}
