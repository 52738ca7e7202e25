/** Equal-width histograms of scores, for reports. */
import { EvalError, type Issue } from "../errors.js";

/** Bin edges and counts; `outside` counts values below `min`, above `max`, or NaN (not in any bin). */
export interface Histogram {
  /** `bins + 1` edges: edges[i] = min + i·(max − min)/bins, with edges[bins] exactly `max`. */
  edges: number[];
  counts: number[];
  outside: number;
}

/**
 * Counts values into `bins` equal-width bins over [min, max]. Bin i holds edges[i] ≤ v < edges[i + 1];
 * the last bin is closed on the right, so a score equal to `max` (e.g. a perfect 1.0) is counted.
 * Values outside [min, max] and NaN are counted in `outside` only.
 * Throws CONFIG_INVALID unless `bins` is a positive integer and min < max are finite.
 */
export function histogram(values: ArrayLike<number>, opts: { bins: number; min: number; max: number }): Histogram {
  return histogramOf([values], opts);
}

/** {@link histogram} over values that come in chunks (e.g. read back from a file). */
export function histogramOf(chunks: Iterable<ArrayLike<number>>, opts: { bins: number; min: number; max: number }): Histogram {
  const bins = binner(opts);
  for (const values of chunks) for (let k = 0; k < values.length; k++) bins.add(values[k] as number, 1);
  return bins.histogram;
}

/** {@link histogram} of distinct values, `values[k]` counted `counts[k]` times. */
export function histogramOfCounts(values: ArrayLike<number>, counts: ArrayLike<number>, opts: { bins: number; min: number; max: number }): Histogram {
  const bins = binner(opts);
  for (let k = 0; k < values.length; k++) bins.add(values[k] as number, counts[k] as number);
  return bins.histogram;
}

/** An empty histogram and how to count a value into it, `weight` times; validates the options. */
function binner(opts: { bins: number; min: number; max: number }): { histogram: Histogram; add(v: number, weight: number): void } {
  const { bins, min, max } = opts;
  const issues: Issue[] = [];
  if (!Number.isSafeInteger(bins) || bins < 1) {
    issues.push({ path: ["bins"], message: `Invalid bins: expected a positive integer but received ${String(bins)}`, expected: "positive integer", received: String(bins) });
  }
  if (!Number.isFinite(min) || !Number.isFinite(max) || !(min < max)) {
    issues.push({ path: ["min"], message: `Invalid range: expected finite min < max but received min ${String(min)}, max ${String(max)}`, expected: "finite min < max", received: `${String(min)}, ${String(max)}` });
  }
  if (issues.length) throw new EvalError("CONFIG_INVALID", issues.map((i) => i.message).join("; "), { issues });

  const width = (max - min) / bins;
  const edges: number[] = [min];
  for (let i = 1; i < bins; i++) edges.push(onDecimalGrid(min + i * width, min, max, width));
  edges.push(max);
  const histogram: Histogram = { edges, counts: new Array<number>(bins).fill(0), outside: 0 };
  const counts = histogram.counts;
  return {
    histogram,
    add(v, weight) {
      if (!(v >= min && v <= max)) {
        histogram.outside += weight;
        return;
      }
      let i = Math.min(bins - 1, Math.floor((v - min) / width));
      // The division can land one bin off next to an edge; the edges themselves decide.
      if (v < (edges[i] as number)) i--;
      else if (i < bins - 1 && v >= (edges[i + 1] as number)) i++;
      counts[i] = (counts[i] as number) + weight;
    },
  };
}

/**
 * An inner edge as the decimal it stands for: `min + i * width` carries the rounding of binary
 * floating point (0 + 14 × 0.05 is 0.7000000000000001, so a score of exactly 0.7 would fall in the
 * bin below, the failing side of a 0.7 threshold). Rounded to 15 significant digits of the range's
 * magnitude it is 0.7 again; kept as it is when that would move it by a noticeable part of a bin.
 */
function onDecimalGrid(edge: number, min: number, max: number, width: number): number {
  const magnitude = Math.max(Math.abs(min), Math.abs(max));
  const decimals = Math.min(100, Math.max(0, 15 - Math.ceil(Math.log10(magnitude || 1))));
  const snapped = Number(edge.toFixed(decimals));
  return Math.abs(snapped - edge) <= width * 1e-9 ? snapped : edge;
}
