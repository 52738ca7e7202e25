/**
 * What one "character" is: a Unicode code point, or an extended grapheme
 * cluster (what a reader sees as one character, e.g. "e\u0301" or a family
 * emoji). The one place where the grapheme segmenter is created.
 */

/** Counting unit for edit distances and lengths. */
export type TextUnit = "code_point" | "grapheme";

let graphemeSegmenter: Intl.Segmenter | undefined;

/**
 * The shared `Intl.Segmenter(undefined, { granularity: "grapheme" })`,
 * created on first use (construction costs far more than a segmentation).
 * Grapheme boundaries (UAX #29) do not depend on the locale.
 */
export function graphemes(): Intl.Segmenter {
  graphemeSegmenter ??= new Intl.Segmenter(undefined, { granularity: "grapheme" });
  return graphemeSegmenter;
}

/**
 * Splits `text` into units: code points (`Array.from`, a lone surrogate is
 * one unit) or grapheme clusters. O(length).
 */
export function toUnits(text: string, unit: TextUnit): string[] {
  if (unit === "code_point") return Array.from(text);
  const out: string[] = [];
  for (const { segment } of graphemes().segment(text)) out.push(segment);
  return out;
}

/**
 * Number of units in `text` (see {@link toUnits}) without building the array.
 * O(length); for code points only the surrogate pairs are inspected.
 */
export function unitLength(text: string, unit: TextUnit): number {
  if (unit === "code_point") {
    let count = text.length;
    for (let i = 0; i + 1 < text.length; i++) {
      const c = text.charCodeAt(i);
      // A high surrogate followed by a low one is one code point.
      if ((c & 0xfc00) === 0xd800 && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
        count--;
        i++;
      }
    }
    return count;
  }
  let count = 0;
  for (const _ of graphemes().segment(text)) count++;
  return count;
}

/**
 * Both texts as grapheme ids: every distinct grapheme string gets one integer
 * id shared by the two sides, so the result can go to an integer-sequence
 * edit distance. O(length) expected.
 */
export function graphemeIds(a: string, b: string): [Int32Array, Int32Array] {
  const ids = new Map<string, number>();
  const encode = (text: string): Int32Array => {
    const out: number[] = [];
    for (const { segment } of graphemes().segment(text)) {
      let id = ids.get(segment);
      if (id === undefined) ids.set(segment, (id = ids.size));
      out.push(id);
    }
    return Int32Array.from(out);
  };
  return [encode(a), encode(b)];
}
