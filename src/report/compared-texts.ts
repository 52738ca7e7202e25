import { codePointCount, isLowSurrogate, unitPrefixEnd } from "../metrics/text-units.js";
import { capCodePoints, formatInt, type CappedText } from "./format.js";
import type { HighlightOptions } from "./types.js";

/** A row's two texts as its evaluator compared them, each capped for showing, and notes for the reader. */
interface ComparedTexts {
  /** The expected text, prepared (uncapped). */
  expected: string;
  /** The output, prepared (uncapped). */
  output: string;
  /** Each capped to `maxChars` code points: what is shown. */
  shownExpected: CappedText;
  shownOutput: CappedText;
  /** What was done to the texts (normalised, white space collapsed, trimmed, cut), one sentence each. */
  notes: string[];
  /**
   * Code points at the start of both texts, the same in each, left out of `expected`, `output` and what is shown
   * (see {@link sharedStartToSkip}); 0 unless asked for.
   */
  skipped: number;
}

/** Shared text kept before the first difference when a long shared start is left out, in code points. */
const CONTEXT_BEFORE_DIFFERENCE = 300;

/**
 * Where to start showing two texts that are the same for longer than `maxChars` less {@link CONTEXT_BEFORE_DIFFERENCE}
 * code points, as a UTF-16 offset (the same in both): about that much shared text before the first difference, from
 * the start of its line (or word) when there is one close by, never inside a grapheme cluster. 0 when the first
 * difference shows from the start: otherwise two long texts that differ past the cap (a typo at character 9,000 of
 * a 12,000-character summary, a long output that goes on past the whole expected text) showed the same first
 * characters twice, with nothing marked. At most `limit` (more than 0) code points are skipped, and exactly that
 * many when the shared start is long enough: the offset is then one another pair of the same expected text chose.
 */
function sharedStartToSkip(a: string, b: string, maxChars: number, limit: number): number {
  const n = Math.min(a.length, b.length);
  let same = 0;
  while (same < n && a.charCodeAt(same) === b.charCodeAt(same)) same++;
  const firstDifference = codePointCount(a, 0, same);
  if (firstDifference <= maxChars - CONTEXT_BEFORE_DIFFERENCE) return 0;
  const skip = Math.min(firstDifference - CONTEXT_BEFORE_DIFFERENCE, limit);
  let at = unitPrefixEnd(a, skip, "code_point");
  // A limit (what another pair of the same expected text skipped) is taken as it is; otherwise back to a line
  // start or a space within the context kept.
  if (skip === limit) return at;
  const floor = Math.max(0, at - CONTEXT_BEFORE_DIFFERENCE);
  const line = a.lastIndexOf("\n", at - 1);
  if (line >= floor) return line + 1;
  const space = a.lastIndexOf(" ", at - 1);
  if (space >= floor) return space + 1;
  // No break close by (CJK prose, a run of emoji): back over what continues a grapheme cluster.
  while (at > floor && continuesCluster(a, at)) at -= isLowSurrogate(a.charCodeAt(at - 1)) ? 2 : 1;
  return at;
}

/** A code point that carries on the cluster before it (a mark, a joiner, a modifier, a tag, LF after CR), or one after a joiner. */
const CONTINUES = /^[\p{M}\u200D\p{Emoji_Modifier}\u{E0020}-\u{E007F}]/u;

function continuesCluster(text: string, at: number): boolean {
  const before = text.charCodeAt(at - 1);
  return CONTINUES.test(text.slice(at, at + 2)) || before === 0x200d || (before === 0x0d && text.charCodeAt(at) === 0x0a) || isLowSurrogate(text.charCodeAt(at));
}

/**
 * Prepares both texts as the evaluator did before comparing them, so that nothing it ignored is marked:
 * `unicode_normalization`, then exact_match's `normalize_whitespace` (each run of white space to one
 * space) and `trim`. A note names what changed either text.
 */
export function comparedTexts(rawExpected: string, rawOutput: string, opts: HighlightOptions, maxChars: number, skipLimit = 0): ComparedTexts {
  const form = opts.unicode_normalization;
  const steps: [string, (t: string) => string][] = [];
  if (form) steps.push([`after ${form} normalisation`, (t) => t.normalize(form)]);
  if (opts.collapse_whitespace) steps.push(["with each run of white space as one space", (t) => t.replace(/\s+/gu, " ")]);
  if (opts.trim) steps.push(["trimmed", (t) => t.trim()]);
  let expected = rawExpected;
  let output = rawOutput;
  const applied: string[] = [];
  for (const [what, step] of steps) {
    const [e, o] = [step(expected), step(output)];
    if (e !== expected || o !== output) applied.push(what);
    [expected, output] = [e, o];
  }
  const from = skipLimit > 0 ? sharedStartToSkip(expected, output, maxChars, skipLimit) : 0;
  const skipped = codePointCount(expected, 0, from);
  [expected, output] = [expected.slice(from), output.slice(from)];
  const shownExpected = capCodePoints(expected, maxChars);
  const shownOutput = capCodePoints(output, maxChars);
  const notes: string[] = [];
  if (applied.length) notes.push(`Shown ${applied.join(", ")}, as the evaluator compared the texts.`);
  if (skipped > 0) notes.push(`The first ${formatInt(skipped)} characters, which the texts share, are left out: shown from character ${formatInt(skipped + 1)}.`);
  const cutNote = (what: string, c: CappedText): string =>
    skipped > 0
      ? `${what} cut to characters ${formatInt(skipped + 1)} to ${formatInt(skipped + maxChars)} of ${formatInt(skipped + c.length)}.`
      : `${what} cut to its first ${formatInt(maxChars)} of ${formatInt(c.length)} characters.`;
  if (shownExpected.cut) notes.push(cutNote("Expected text", shownExpected));
  if (shownOutput.cut) notes.push(cutNote("Output", shownOutput));
  return { expected, output, shownExpected, shownOutput, notes, skipped };
}
