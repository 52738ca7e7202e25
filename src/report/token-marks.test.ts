import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createEvaluators } from "../evaluators/create.js";
import { charNgramCounts, wordCounts, wordTokenSpans } from "../metrics/tokens.js";
import { highlightFor } from "./choose.js";
import { alignTexts, type Segment } from "./text-diff.js";
import { markTokenSets, type ReportedTokens } from "./token-marks.js";
import type { HighlightOptions } from "./types.js";

const WORDS: HighlightOptions = { unit: "word_tokens", ignore_case: true };
const join = (segs: Segment[]): string => segs.map((s) => s.text).join("");
const marked = (segs: Segment[]): string[] => segs.filter((s) => s.changed).map((s) => s.text);

/** The row as the run report gets it: the evaluator's result details, and its highlight from its config. */
function scored(type: string, config: Record<string, unknown>, expected: string, output: string) {
  const [e] = createEvaluators([{ type, config }]);
  if (!e) throw new Error("no evaluator");
  const r = e.evaluateNow({ output, expected });
  if (r instanceof Promise) throw new Error("asynchronous");
  const details = r.details as unknown as ReportedTokens;
  return { score: r.score, details, aligned: alignTexts(expected, output, highlightFor(type, e.config as Record<string, unknown>), 2000, details) };
}

describe("markTokenSets (jaccard_similarity, tfidf_similarity over words)", () => {
  it("marks nothing when the words are the same in another order or repeated, as the score says", () => {
    for (const type of ["jaccard_similarity", "tfidf_similarity"]) {
      const a = scored(type, {}, "the cat sat down", "down sat cat the");
      expect(a.score).toBeCloseTo(1, 12);
      expect([...marked(a.aligned.expected), ...marked(a.aligned.output)]).toEqual([]);
    }
    const b = scored("jaccard_similarity", {}, "yes no", "no no no yes");
    expect(b.score).toBe(1);
    expect([...marked(b.aligned.expected), ...marked(b.aligned.output)]).toEqual([]);
  });

  it("marks whole words of any script, as the evaluator splits them (Arabic, CJK)", () => {
    const arabic = scored("jaccard_similarity", {}, "مرحبا يا عالم", "مرحبا بالعالم");
    expect(arabic.details.missing).toEqual(["يا", "عالم"]);
    expect(marked(arabic.aligned.expected)).toEqual(["يا", "عالم"]);
    expect(marked(arabic.aligned.output)).toEqual(["بالعالم"]);
    // Each sentence is one word (a run of letters), which the other lacks: the score is 0.
    const cjk = scored("tfidf_similarity", {}, "我喜欢吃苹果", "我喜欢吃香蕉");
    expect(cjk.score).toBe(0);
    expect(marked(cjk.aligned.expected)).toEqual(["我喜欢吃苹果"]);
    expect(marked(cjk.aligned.output)).toEqual(["我喜欢吃香蕉"]);
  });

  it("marks every occurrence of a missing or extra word and nothing between words", () => {
    const a = markTokenSets("Cats, dogs and cats!", "dogs; birds and birds", WORDS, 2000);
    expect(a.expected).toEqual([
      { text: "Cats", changed: true },
      { text: ", dogs and ", changed: false },
      { text: "cats", changed: true },
      { text: "!", changed: false },
    ]);
    expect(marked(a.output)).toEqual(["birds", "birds"]);
    expect(a.highlighted).toBe(true);
  });

  it("follows the evaluator's case rule", () => {
    expect(marked(markTokenSets("The Cat", "the cat", WORDS, 2000).expected)).toEqual([]);
    expect(marked(markTokenSets("The Cat", "the cat", { unit: "word_tokens", ignore_case: false }, 2000).expected)).toEqual(["The", "Cat"]);
    // "İ" lower-cases to two code points: the mark still covers the original word.
    expect(marked(markTokenSets("İzmir x", "x", WORDS, 2000).expected)).toEqual(["İzmir"]);
  });

  it("uses the evaluator's lists when complete, and makes the sets again from the texts when they were cut", () => {
    const listed: ReportedTokens = { missing: ["sat"], extra: [], missing_count: 1, extra_count: 0 };
    expect(marked(markTokenSets("the cat sat", "the dog", WORDS, 2000, listed).expected)).toEqual(["sat"]);
    expect(marked(markTokenSets("the cat sat", "the dog", WORDS, 2000, listed).output)).toEqual([]);
    // 60 missing words, of which details list the first 50.
    const words = Array.from({ length: 60 }, (_, i) => `w${i}`);
    const r = scored("jaccard_similarity", {}, words.join(" "), "other");
    expect(r.details.missing).toHaveLength(50);
    expect(r.details.missing_count).toBe(60);
    expect(marked(r.aligned.expected)).toEqual(words);
  });

  it("makes the sets again from the texts when a listed word was cut to 100 units and \"…\" (a complete list)", () => {
    const long = "x".repeat(150);
    for (const type of ["jaccard_similarity", "tfidf_similarity"]) {
      const r = scored(type, {}, `the ${long} sat`, "the sat");
      expect(r.details.missing).toEqual([`${"x".repeat(100)}…`]);
      expect(r.details.missing_count).toBe(1);
      expect(marked(r.aligned.expected)).toEqual([long]);
    }
  });

  it("judges a word cut by the length cap whole, and says the text was cut", () => {
    const a = markTokenSets("cat elephant", "elephant", WORDS, 5);
    expect(a.expected).toEqual([
      { text: "cat", changed: true },
      { text: " e", changed: false },
    ]);
    expect(a.output).toEqual([{ text: "eleph", changed: false }]);
    expect(a.notes).toEqual(["Expected text cut to its first 5 of 12 characters.", "Output cut to its first 5 of 8 characters."]);
    expect(marked(markTokenSets("cat elephant", "elephants", WORDS, 5).expected)).toEqual(["cat", "e"]);
  });

  it("marks the texts normalised as the evaluator's unicode_normalization says, and says so", () => {
    const r = scored("jaccard_similarity", { unicode_normalization: "NFKC" }, "ﬁne ＡＢＣ day", "fine abc");
    expect(r.details.missing).toEqual(["day"]);
    expect(r.aligned.expected).toEqual([
      { text: "fine ABC ", changed: false },
      { text: "day", changed: true },
    ]);
    expect(r.aligned.notes).toEqual(["Shown after NFKC normalisation, as the evaluator compared the texts."]);
    expect(scored("jaccard_similarity", { unicode_normalization: "NFKC" }, "day", "night").aligned.notes).toEqual([]);
  });

  it("says when a text has no word to mark", () => {
    expect(markTokenSets("?!", "ok", WORDS, 2000).notes).toEqual(["The expected text has no words to mark."]);
    expect(markTokenSets("ok", "?!", WORDS, 2000).notes).toEqual(["The output has no words to mark."]);
    // An empty text has nothing to mark and needs no note: it shows as empty.
    expect(markTokenSets("", "ok", WORDS, 2000).notes).toEqual([]);
    expect(markTokenSets("ok", "", WORDS, 2000).notes).toEqual([]);
  });

  it("marks a word of one text iff the other text has no such word (any texts, case rules, caps)", () => {
    const text = fc.string({ unit: fc.constantFrom("a", "A", "b", "ab", " ", "\n", ".", "é", "İ", "😀", "猫", "Σ"), maxLength: 30 });
    fc.assert(
      fc.property(text, text, fc.boolean(), fc.integer({ min: 1, max: 40 }), (e, o, ignoreCase, maxChars) => {
        const r = markTokenSets(e, o, { unit: "word_tokens", ignore_case: ignoreCase }, maxChars);
        for (const [side, text, other] of [
          [r.expected, e, o],
          [r.output, o, e],
        ] as const) {
          const shown = join(side);
          expect(text.startsWith(shown)).toBe(true);
          const isMarked = side.flatMap((s) => Array.from({ length: s.text.length }, () => s.changed));
          const others = wordCounts(other, !ignoreCase);
          const inWord = new Array<boolean>(shown.length).fill(false);
          for (const s of wordTokenSpans(text, !ignoreCase, shown.length)) {
            for (let i = s.start; i < Math.min(s.end, shown.length); i++) {
              inWord[i] = true;
              expect(isMarked[i]).toBe(!others.has(s.token));
            }
          }
          inWord.forEach((w, i) => w || expect(isMarked[i]).toBe(false));
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe("markTokenSets (tfidf_similarity over character n-grams)", () => {
  const GRAMS: HighlightOptions = { unit: "char_ngrams", ignore_case: true, ngram_size: 3 };

  it("marks the characters in no n-gram the other text has", () => {
    const a = markTokenSets("kitten", "sitting", GRAMS, 2000);
    expect(marked(a.expected)).toEqual(["k", "en"]);
    expect(marked(a.output)).toEqual(["s", "ing"]);
    const cjk = markTokenSets("我喜欢吃苹果", "我喜欢吃香蕉", GRAMS, 2000);
    expect(marked(cjk.expected)).toEqual(["苹果"]);
    expect(marked(cjk.output)).toEqual(["香蕉"]);
  });

  it("takes n-grams as the evaluator does: case ignored, a white space run as one space, the ends trimmed", () => {
    const r = scored("tfidf_similarity", { tokenizer: "char_ngram" }, "  Hello  \n World ", "hello world");
    expect(r.score).toBeCloseTo(1, 12);
    expect([...marked(r.aligned.expected), ...marked(r.aligned.output)]).toEqual([]);
    // Reordered words: each character is in a shared 3-gram, the 3-grams across the spaces are not.
    const reordered = markTokenSets("the cat sat", "sat the cat", GRAMS, 2000);
    expect([...marked(reordered.expected), ...marked(reordered.output)]).toEqual([]);
    expect(reordered.notes).toEqual([
      "Every character of the expected text is in some 3-gram the output has, though not every 3-gram of it is.",
      "Every character of the output is in some 3-gram the expected text has, though not every 3-gram of it is.",
    ]);
    // The run between the words is in the n-grams that span it: marked whole.
    expect(markTokenSets("ab  \t cd", "abxcd", { ...GRAMS, ngram_size: 2 }, 2000).expected).toEqual([
      { text: "ab", changed: false },
      { text: "  \t ", changed: true },
      { text: "cd", changed: false },
    ]);
  });

  it("marks a character iff every n-gram holding it is one the other text lacks", () => {
    const text = fc.string({ unit: fc.constantFrom("a", "b", "A", " ", "\n", "😀"), maxLength: 20 });
    fc.assert(
      fc.property(text, text, fc.integer({ min: 1, max: 4 }), (e, o, n) => {
        const r = markTokenSets(e, o, { unit: "char_ngrams", ignore_case: true, ngram_size: n }, 2000);
        expect(join(r.expected)).toBe(e);
        const others = charNgramCounts(o, n);
        const shown = r.expected.flatMap((s) => Array.from({ length: s.text.length }, () => s.changed));
        // A shared n-gram leaves its characters unmarked; with none shared, every character of an n-gram is marked.
        if ([...charNgramCounts(e, n).keys()].every((g) => !others.has(g))) expect(shown.every((m, i) => m || /\s/u.test(e[i] as string))).toBe(true);
        if (e.toLowerCase().replace(/ς/g, "σ").trim() === o.toLowerCase().replace(/ς/g, "σ").trim() && /\S/u.test(e)) expect(shown.some((m) => m)).toBe(false);
      }),
      { numRuns: 300 },
    );
  });
});
