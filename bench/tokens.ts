/**
 * Latency of the token evaluators on long texts: jaccard_similarity and tfidf_similarity (word and
 * char 3-gram) on pairs of ~2,000-character answers, through the full evaluator (validation done
 * once, then tokenising, scoring and the explanation in `details`). The document promises < 5 ms.
 */
import { pathToFileURL } from "node:url";
import { createEvaluator } from "../src/index.js";
import { seededRandom } from "./rng.js";

const WORDS = "the refund was processed your order has been shipped customer support ticket billing account password reset delivery address invoice payment card declined approved pending warehouse tracking number weekend holiday schedule manager escalation priority".split(" ");

function paragraph(rand: () => number, chars: number): string {
  const out: string[] = [];
  let length = 0;
  while (length < chars) {
    const w = WORDS[Math.floor(rand() * WORDS.length)] as string;
    out.push(w);
    length += w.length + 1;
  }
  return out.join(" ").slice(0, chars);
}

export async function benchTokens(): Promise<void> {
  const rand = seededRandom(7);
  const pairs = Array.from({ length: 200 }, () => {
    const expected = paragraph(rand, 2000);
    const output = rand() < 0.5 ? expected.replace(/e/g, (m) => (rand() < 0.05 ? "a" : m)) : paragraph(rand, 2000);
    return { output, expected };
  });
  const specs = [
    { type: "jaccard_similarity" },
    { type: "tfidf_similarity" },
    { type: "tfidf_similarity", name: "tfidf char 3-gram", config: { tokenizer: "char_ngram", ngram_size: 3 } },
    { type: "exact_match" },
  ];
  console.log("\n## Token evaluators on 2,000-character texts (200 pairs, best of 5 rounds)\n");
  console.log("| evaluator | ms per pair | pairs/s |");
  console.log("|---|---:|---:|");
  for (const spec of specs) {
    const e = createEvaluator(spec);
    let best = Infinity;
    for (let round = 0; round < 5; round++) {
      const t0 = performance.now();
      for (const p of pairs) e.evaluateNow(p);
      best = Math.min(best, (performance.now() - t0) / pairs.length);
    }
    console.log(`| ${e.name} | ${best.toFixed(3)} | ${Math.round(1000 / best).toLocaleString("en-US")} |`);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) await benchTokens();
