/**
 * Grapheme segmentation (levenshtein's `unit: "grapheme"`): simeval's chunked `graphemeSegments`
 * against one `Intl.Segmenter` pass over the whole text, in one process, on the same texts (a mix of
 * ASCII, combining marks and ZWJ emoji). On Node 20 the single pass takes time quadratic in the text's
 * length. Both must give the same number of clusters, or the run fails.
 *
 * Run alone with `npx tsx bench/graphemes.ts`, or through `npm run bench`.
 */
import { pathToFileURL } from "node:url";
import { graphemeSegments, graphemes } from "../src/metrics/text-units.js";

function time(f: () => number): { ms: number; count: number } {
  const t0 = performance.now();
  const count = f();
  return { ms: performance.now() - t0, count };
}

export async function benchGraphemes(): Promise<void> {
  console.log("\n## Grapheme segmentation: chunked (simeval) against one Intl.Segmenter pass\n");
  console.log("| text (UTF-16 units) | one pass (ms) | chunked (ms) | one pass / chunked |");
  console.log("|---:|---:|---:|---:|");
  for (const units of [10_000, 20_000, 40_000, 80_000]) {
    const text = "Hello, wor\u0301ld 👨‍👩‍👧 ".repeat(Math.ceil(units / 22)).slice(0, units);
    const whole = time(() => {
      let n = 0;
      for (const _ of graphemes().segment(text)) n++;
      return n;
    });
    const chunked = time(() => {
      let n = 0;
      for (const _ of graphemeSegments(text)) n++;
      return n;
    });
    if (whole.count !== chunked.count) throw new Error(`cluster counts differ on ${units} units: ${whole.count} against ${chunked.count}`);
    console.log(`| ${units.toLocaleString("en-US")} | ${whole.ms.toFixed(0)} | ${chunked.ms.toFixed(1)} | ${(whole.ms / chunked.ms).toFixed(0)} |`);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) await benchGraphemes();
