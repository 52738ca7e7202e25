/**
 * `words` as a sentence lists them: `"a"`, `"a and b"`, `"a, b and c"` (or with `"or"`); `""` for none. What messages
 * naming several evaluators, options or expected tokens say.
 */
export function wordList(words: readonly string[], conjunction: "and" | "or"): string {
  if (words.length <= 1) return words[0] ?? "";
  return `${words.slice(0, -1).join(", ")} ${conjunction} ${words[words.length - 1]}`;
}
