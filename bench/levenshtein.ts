/**
 * Levenshtein benchmark: simeval against fastest-levenshtein, js-levenshtein
 * and leven, in one process, on the same deterministic corpora.
 *
 * Run alone with `npx tsx bench/levenshtein.ts`, or through `npm run bench`.
 * Each implementation first computes every distance once (results must agree
 * exactly, or the run fails), then timed passes are interleaved across
 * implementations for a few rounds and the best pass counts (the machine is
 * shared and noisy). The O(n·m) dynamic-programming peers (js-levenshtein,
 * leven) run on a deterministic subset of the long corpora and not at all on
 * the 100k-character one, where a pass would take minutes; ratios always
 * compare simeval and the peer on the same inputs.
 */
import { seededRandom } from "./rng.js";
import { distance as fastestLevenshtein } from "fastest-levenshtein";
import leven from "leven";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { levenshteinBackend, levenshteinDistance, setLevenshteinBackend } from "../src/metrics/levenshtein.js";

// js-levenshtein is CommonJS without type declarations.
const jsLevenshtein = createRequire(import.meta.url)("js-levenshtein") as (a: string, b: string) => number;

type Pair = readonly [string, string];
type Distance = (a: string, b: string) => number;

interface Implementation {
  readonly name: string;
  readonly run: Distance;
  /** simeval runs set their backend before each pass. */
  readonly backend?: "auto" | "js";
  /** O(n·m) dynamic-programming peers: only a subset of the long corpora. */
  readonly slow?: boolean;
}

interface Corpus {
  readonly name: string;
  readonly pairs: readonly Pair[];
  readonly long: boolean;
  readonly rounds: number;
  /** Keep every `slowStride`-th pair for the slow peers (0 = skip them). */
  readonly slowStride: number;
  /** Timed passes of fastest-levenshtein beyond the checking pass. */
  readonly peerRounds: number;
}

interface Row {
  corpus: string;
  implementation: string;
  pairs: number;
  pairsPerSecond: number;
  nsPerCell: number | undefined;
  /** How many times faster simeval (auto) is than this row, same inputs. */
  simevalOverThis: string;
  /** How many times faster this row is than fastest-levenshtein, same inputs. */
  thisOverFastest: string;
}


const SYLLABLES = ["ka", "lo", "mi", "ne", "ra", "to", "su", "be", "di", "fa", "go", "hu", "pe", "ve", "wo", "an", "er", "in", "on", "ul", "st", "ch", "th", "qu", "é", "è", "à", "ü", "ö", "ñ", "ç", "ê"];
const EDIT_CHARS = "abcdefghijklmnopqrstuvwxyz éèàüöñçê,.";

function makeText(random: () => number, length: number): string {
  let text = "";
  let sentenceStart = true;
  while (text.length < length) {
    let word = "";
    const syllables = 1 + Math.floor(random() * 4);
    for (let i = 0; i < syllables; i++) word += SYLLABLES[Math.floor(random() * SYLLABLES.length)];
    if (sentenceStart) word = word.charAt(0).toUpperCase() + word.slice(1);
    sentenceStart = random() < 0.08;
    text += word + (sentenceStart ? ". " : random() < 0.06 ? ", " : " ");
  }
  return text.slice(0, length);
}

function withEdits(random: () => number, text: string, edits: number): string {
  let out = text;
  for (let e = 0; e < edits; e++) {
    const at = Math.floor(random() * (out.length + 1));
    const c = EDIT_CHARS[Math.floor(random() * EDIT_CHARS.length)] ?? "x";
    const op = Math.floor(random() * 3);
    if (op === 0) out = out.slice(0, at) + c + out.slice(at);
    else if (op === 1) out = out.slice(0, at) + out.slice(at + 1);
    else out = out.slice(0, at) + c + out.slice(at + 1);
  }
  return out;
}

function caseVariant(random: () => number, text: string): string {
  const kind = Math.floor(random() * 3);
  if (kind === 0) return text.toUpperCase();
  if (kind === 1) return text.replace(/(^|\s)(\S)/g, (_m: string, space: string, c: string) => space + c.toUpperCase());
  return text
    .split(" ")
    .map((w) => (random() < 0.3 ? w.toUpperCase() : w))
    .join(" ");
}

/**
 * Pairs of texts with lengths in [minLength, maxLength]: 40% near-duplicates
 * (1..maxEdits random edits), 20% case variants, 40% unrelated texts.
 */
function makeCorpus(seed: number, count: number, minLength: number, maxLength: number, maxEdits: number): Pair[] {
  const random = seededRandom(seed);
  const length = (): number => minLength + Math.floor(random() * (maxLength - minLength + 1));
  const pairs: Pair[] = [];
  for (let i = 0; i < count; i++) {
    const a = makeText(random, length());
    const kind = i % 5;
    if (kind <= 1) pairs.push([a, withEdits(random, a, 1 + Math.floor(random() * maxEdits))]);
    else if (kind === 2) pairs.push([a, caseVariant(random, a)]);
    else pairs.push([a, makeText(random, length())]);
  }
  return pairs;
}

function collectGarbage(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc) gc();
}

/** One pass: returns elapsed ms and keeps the results for the agreement check. */
function pass(impl: Implementation, pairs: readonly Pair[], out: Int32Array | undefined): number {
  if (impl.backend) setLevenshteinBackend(impl.backend);
  collectGarbage();
  const run = impl.run;
  let checksum = 0;
  const start = performance.now();
  if (out) {
    for (let i = 0; i < pairs.length; i++) {
      const [a, b] = pairs[i]!;
      out[i] = run(a, b);
    }
  } else {
    for (let i = 0; i < pairs.length; i++) {
      const [a, b] = pairs[i]!;
      checksum += run(a, b);
    }
  }
  const elapsed = performance.now() - start;
  if (checksum < 0) throw new Error("unreachable");
  return elapsed;
}

function cells(pairs: readonly Pair[]): number {
  let total = 0;
  for (const [a, b] of pairs) total += a.length * b.length;
  return total;
}

function format(value: number): string {
  if (value >= 100) return Math.round(value).toLocaleString("en-US");
  return value.toPrecision(3);
}

function benchCorpus(corpus: Corpus, implementations: readonly Implementation[]): Row[] {
  const subset = corpus.slowStride > 0 ? corpus.pairs.filter((_, i) => i % corpus.slowStride === 0) : [];
  const inputsOf = (impl: Implementation): readonly Pair[] => (impl.slow && corpus.long ? subset : corpus.pairs);
  const active = implementations.filter((impl) => inputsOf(impl).length > 0);
  const best = new Map<string, number>();
  const bestSubset = new Map<string, number>();

  // Checking pass (also warms up the JIT): every implementation must agree.
  const expected = new Int32Array(corpus.pairs.length);
  pass(active[0]!, corpus.pairs, expected);
  for (const impl of active) {
    const pairs = inputsOf(impl);
    const got = new Int32Array(pairs.length);
    const ms = pass(impl, pairs, got);
    const stride = pairs === corpus.pairs ? 1 : corpus.slowStride;
    for (let i = 0; i < pairs.length; i++) {
      if (got[i] !== expected[i * stride]) {
        const [a, b] = pairs[i]!;
        throw new Error(`${corpus.name}: ${impl.name} returned ${got[i]} but ${active[0]!.name} returned ${expected[i * stride]} for pair ${i * stride} (lengths ${a.length}, ${b.length})`);
      }
    }
    // Single-pass implementations keep this pass as their timing.
    best.set(impl.name, ms);
  }

  for (let round = 0; round < corpus.rounds; round++) {
    for (const impl of active) {
      const isSimeval = impl.backend !== undefined;
      if (!isSimeval && impl.slow && corpus.long) continue;
      if (!isSimeval && round >= corpus.peerRounds) continue;
      const ms = pass(impl, inputsOf(impl), undefined);
      best.set(impl.name, Math.min(best.get(impl.name) ?? Infinity, ms));
      if (isSimeval && subset.length > 0 && corpus.long && round < 2) {
        const sms = pass(impl, subset, undefined);
        bestSubset.set(impl.name, Math.min(bestSubset.get(impl.name) ?? Infinity, sms));
      }
    }
  }

  const rows: Row[] = [];
  const simevalMs = best.get("simeval")!;
  const fastestMs = best.get("fastest-levenshtein")!;
  const times = (x: number): string => `${x.toFixed(2)}×`;
  for (const impl of active) {
    const pairs = inputsOf(impl);
    const ms = best.get(impl.name)!;
    const onSubset = pairs !== corpus.pairs;
    const simevalSame = onSubset ? bestSubset.get("simeval")! : simevalMs;
    rows.push({
      corpus: corpus.name,
      implementation: impl.name + (onSubset ? ` (1/${corpus.slowStride} of pairs)` : ""),
      pairs: pairs.length,
      pairsPerSecond: (pairs.length * 1000) / ms,
      nsPerCell: corpus.long ? (ms * 1e6) / cells(pairs) : undefined,
      simevalOverThis: impl.name === "simeval" ? "—" : times(ms / simevalSame),
      thisOverFastest: onSubset ? "—" : times(fastestMs / ms),
    });
  }
  return rows;
}

/**
 * Builds the corpora, checks that all implementations agree, times them and
 * prints a markdown table (pairs/s, ns per n×m cell on long corpora, and how
 * many times faster simeval is than each peer on the same inputs).
 */
export async function benchLevenshtein(): Promise<void> {
  const implementations: Implementation[] = [
    { name: "simeval", run: levenshteinDistance, backend: "auto" },
    { name: "simeval (pure JS)", run: levenshteinDistance, backend: "js" },
    { name: "fastest-levenshtein", run: fastestLevenshtein },
    { name: "js-levenshtein", run: jsLevenshtein, slow: true },
    { name: "leven", run: (a, b) => leven(a, b), slow: true },
  ];
  setLevenshteinBackend("auto");
  const corpora: Corpus[] = [
    { name: "short 10–64 chars", pairs: makeCorpus(1, 100_000, 10, 64, 3), long: false, rounds: 5, slowStride: 1, peerRounds: 5 },
    { name: "medium 500–2,000 chars", pairs: makeCorpus(2, 10_000, 500, 2_000, 8), long: true, rounds: 3, slowStride: 21, peerRounds: 1 },
    { name: "long 10,000 chars", pairs: makeCorpus(3, 20, 10_000, 10_000, 8), long: true, rounds: 3, slowStride: 3, peerRounds: 2 },
    { name: "huge 100,000 chars", pairs: makeCorpus(4, 3, 100_000, 100_000, 8), long: true, rounds: 2, slowStride: 0, peerRounds: 0 },
  ];

  console.log("## Levenshtein\n");
  console.log(`simeval engine for long inputs: ${levenshteinBackend()}. Texts are BMP without surrogates (ASCII words plus Latin-1 accented letters), because the peers count UTF-16 units: on such text units and code points coincide.`);
  console.log(
    "Corpora mix near-duplicates (a few random edits), case variants and unrelated texts. Best of several interleaved passes. " +
      "\"simeval is × faster\" compares simeval (auto engine) with the row on the same inputs; \"× fastest-levenshtein\" is the row's speed over fastest-levenshtein's.\n",
  );
  const rows: Row[] = [];
  for (const corpus of corpora) {
    const corpusRows = benchCorpus(corpus, implementations);
    rows.push(...corpusRows);
    for (const row of corpusRows) {
      process.stderr.write(`  ${row.corpus} | ${row.implementation}: ${format(row.pairsPerSecond)} pairs/s\n`);
    }
  }
  setLevenshteinBackend("auto");
  console.log("| corpus | implementation | pairs | pairs/s | ns per cell (n×m) | simeval is × faster | × fastest-levenshtein |");
  console.log("| --- | --- | ---: | ---: | ---: | ---: | ---: |");
  for (const row of rows) {
    const ns = row.nsPerCell === undefined ? "—" : row.nsPerCell.toFixed(4);
    console.log(
      `| ${row.corpus} | ${row.implementation} | ${row.pairs.toLocaleString("en-US")} | ${format(row.pairsPerSecond)} | ${ns} | ${row.simevalOverThis} | ${row.thisOverFastest} |`,
    );
  }
  console.log("");
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  await benchLevenshtein();
}
