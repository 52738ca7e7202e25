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
}

/**
 * Prepares both texts as the evaluator did before comparing them, so that nothing it ignored is marked:
 * `unicode_normalization`, then exact_match's `normalize_whitespace` (each run of white space to one
 * space) and `trim`. A note names what changed either text.
 */
export function comparedTexts(rawExpected: string, rawOutput: string, opts: HighlightOptions, maxChars: number): ComparedTexts {
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
  const shownExpected = capCodePoints(expected, maxChars);
  const shownOutput = capCodePoints(output, maxChars);
  const notes: string[] = [];
  if (applied.length) notes.push(`Shown ${applied.join(", ")}, as the evaluator compared the texts.`);
  if (shownExpected.cut) notes.push(`Expected text cut to its first ${formatInt(maxChars)} of ${formatInt(shownExpected.length)} characters.`);
  if (shownOutput.cut) notes.push(`Output cut to its first ${formatInt(maxChars)} of ${formatInt(shownOutput.length)} characters.`);
  return { expected, output, shownExpected, shownOutput, notes };
}
