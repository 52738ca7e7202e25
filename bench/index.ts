/**
 * All benchmarks, run one after the other: `npm run bench`
 * (= node --expose-gc --import tsx bench/index.ts). Add new ones to the list.
 */
import { benchDataset } from "./dataset.js";
import { benchGraphemes } from "./graphemes.js";
import { benchLevenshtein } from "./levenshtein.js";
import { benchQuality } from "./quality.js";
import { benchTokens } from "./tokens.js";

const benches: (() => Promise<void>)[] = [benchLevenshtein, benchGraphemes, benchTokens, benchQuality, benchDataset];

for (const bench of benches) await bench();
