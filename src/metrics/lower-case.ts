/**
 * The case rule of every case-insensitive comparison: `text.toLowerCase()` (the locale-independent Unicode
 * mapping, not case folding), with the final sigma "ς" written "σ". Lower-casing gives "Σ" one form or the
 * other by what follows it (Unicode's Final_Sigma: "ΟΔΟΣ ΚΑΙ" → "οδος και", but "ΟΔΟΣ.ΚΑΙ" → "οδοσ.και", a
 * period being skipped over): without this, one word lower-cased in two texts could differ, and a pair score
 * lower case-insensitively than case-sensitively. Case folding makes both "σ" too. The result has the length
 * of `toLowerCase`'s (each form is one UTF-16 unit), so offsets into it are offsets into that.
 */
export function lowerCase(text: string): string {
  const lower = text.toLowerCase();
  return lower.includes("ς") ? lower.replaceAll("ς", "σ") : lower;
}
