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

/** What `npm run bench -- --help` prints: the whole run takes minutes and gigabytes, so an argument is never taken as "go". */
const USAGE = `npm run bench: every benchmark, one after the other (about 8 minutes on 2 cores; the dataset part writes
a file of 1,000,000 rows and gigabytes of results to the temporary folder). It takes no arguments. One part alone:
  npx tsx bench/levenshtein.ts
  npx tsx bench/graphemes.ts
  npx tsx bench/tokens.ts
  npx tsx bench/quality.ts                            (SIMEVAL_STSB_DIR: the folder holding sts-test.tsv)
  npm run build && npx tsx bench/dataset.ts [rows]    (rows: default 1000000)`;

// Any argument stops before the first benchmark: "--help" (or -h) with the usage, exit 0; anything else with it on stderr, exit 2.
const args = process.argv.slice(2);
if (args.length > 0) {
  const help = args.length === 1 && (args[0] === "--help" || args[0] === "-h");
  if (help) console.log(USAGE);
  else console.error(`bench: takes no arguments, received ${args.map((a) => JSON.stringify(a)).join(" ")}\n${USAGE}`);
  process.exit(help ? 0 : 2);
}

for (const bench of benches) await bench();
