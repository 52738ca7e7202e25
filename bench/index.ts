/**
 * All benchmarks, run one after the other: `npm run bench`
 * (= node --expose-gc --import tsx bench/index.ts). Add new ones to the list.
 */
import { benchLevenshtein } from "./levenshtein.js";

const benches: (() => Promise<void>)[] = [benchLevenshtein];

for (const bench of benches) await bench();
