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
  const edges: number[] = [];
  for (let i = 0; i < bins; i++) edges.push(min + i * width);
  edges.push(max);
  const counts = new Array<number>(bins).fill(0);
  let outside = 0;
  for (const values of chunks) {
    for (let k = 0; k < values.length; k++) {
      const v = values[k] as number;
      if (!(v >= min && v <= max)) {
        outside++;
        continue;
      }
      let i = Math.min(bins - 1, Math.floor((v - min) / width));
      // The division can land one bin off next to an edge; the edges themselves decide.
      if (v < (edges[i] as number)) i--;
      else if (i < bins - 1 && v >= (edges[i + 1] as number)) i++;
      counts[i] = (counts[i] as number) + 1;
    }
  }
  return { edges, counts, outside };
}
