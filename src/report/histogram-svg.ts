/**
 * A histogram as inline SVG, drawn when the report is generated.
 *
 * Why hand-written SVG and not a chart library: a report must be one static file that opens without
 * network or script, prints, and can be checked by parsing it. Inlining uPlot (~50 KB) or Chart.js
 * (~200 KB) would add that much to every report, draw only once script runs (on a canvas a test cannot
 * read), and still need code to turn our bins and threshold into its options. A histogram is a handful
 * of `<rect>`s; the one part that needs care, round axis ticks, comes from d3-array's `ticks`.
 */
import { ticks } from "d3-array";
import type { Direction } from "../types.js";
import { escapeHtml } from "./escape.js";
import { svgCoordinate as r, formatInt, formatThreshold, htmlFigure, passes, passSign, rowsText } from "./format.js";
import type { HistogramData } from "./types.js";

/** How to draw a histogram: its direction and threshold decide which bars pass. Default size 1080×230. */
interface HistogramSvgOptions {
  /** Unique within the page: SVG ids (the hatch pattern) are document-global. */
  id: string;
  direction: Direction;
  threshold: number | null;
  mean?: number | null;
  /** What the x axis counts, e.g. "score" or "edit distance". */
  xLabel: string;
  /** For the accessible name, e.g. the evaluator's name. */
  title: string;
  /**
   * The values scores fall in (choose.ts's `scoreRange`): a bin may reach past it, shifted to put the threshold on an
   * edge (see chooseBins), and its hover label shows only the part within it. Default: the bins' own edges.
   */
  range?: readonly [number, number];
  width?: number;
  height?: number;
}

const M = { top: 30, right: 16, bottom: 46, left: 48 };
/**
 * The x tick labels' baseline, this far below the axis: under the mean's marker (1 to 10 below it),
 * not beside it. At 16 a mean on a tick (0 when every score is 0, 1 when every one is) sat on the
 * tick's label and hid it.
 */
const X_TICK_BASELINE = 23;

/**
 * The most a tick label's character takes, in chart units: 11-unit text, whose digits are 0.64 em wide in
 * DejaVu Sans (the fallback font), about as wide as in the system fonts before it.
 */
const TICK_CHAR_WIDTH = 7;
/** The least room between two x tick labels, in chart units. */
const TICK_LABEL_GAP = 6;

/** An x tick's label: integer scales (edit counts) with thousands separators, as the summary prints them. */
function xTickLabel(t: number, integer: boolean): string {
  return integer ? formatInt(t) : String(t);
}

/**
 * The x axis's round ticks (d3-array's `ticks`; integer scales only label integers), as many as the plot's
 * width `plotW` holds with their labels side by side: fewer are asked for until the widest label and a gap
 * fit between two ticks. At a fixed 8, the narrow drawing's 296-unit axis put "1,000" to "1,800" 30 units
 * apart, each 35 wide, run together as "1,0001,2001,400" (edit distances of 2,000-character answers).
 */
function xTicksThatFit(lo: number, hi: number, integer: boolean, plotW: number): number[] {
  const at = (count: number): number[] => (integer ? ticks(Math.max(0, Math.ceil(lo)), Math.floor(hi), count).filter(Number.isInteger) : ticks(lo, hi, count));
  let out: number[] = [];
  for (let count = integer ? 8 : 5; count >= 1; count--) {
    out = at(count);
    const widest = Math.max(0, ...out.map((t) => xTickLabel(t, integer).length)) * TICK_CHAR_WIDTH;
    const [a = 0, b] = out;
    const step = b === undefined ? Infinity : ((b - a) / (hi - lo || 1)) * plotW;
    if (step >= widest + TICK_LABEL_GAP) return out;
  }
  return out;
}

/**
 * Where the threshold line goes: at the threshold for continuous scores; for integer-centred bins,
 * half a unit towards the failing side, i.e. between the last passing and first failing integer.
 */
export function thresholdPosition(threshold: number, direction: Direction, integer: boolean): number {
  if (!integer) return threshold;
  return direction === "minimize" ? Math.floor(threshold) + 0.5 : Math.ceil(threshold) - 0.5;
}

/**
 * Renders the bins as bars (one `<g class="bin">` per bin with a `<title>` for hover and
 * `data-count`, `data-lo`, `data-hi` on its bar), the threshold as a labelled dashed
 * `<line class="threshold" data-value>`, and the mean as a small marker under the axis (its title printing
 * the mean as the summary does).
 * Bars on the passing side of the threshold (judged at the bin's middle) are solid blue, bars on
 * the failing side hatched vermillion, so the split reads without colour vision too. A `<desc>` says
 * in words what the picture shows (each bin that is not empty with its count and verdict, the threshold, the mean): a chart with
 * `role="img"` hides its parts, so the bins' hover titles alone left a screen reader only its name.
 */
export function renderHistogramSvg(hist: HistogramData, opts: HistogramSvgOptions): string {
  const width = opts.width ?? 1080;
  const height = opts.height ?? 230;
  const n = hist.counts.length;
  const lo = hist.edges[0] ?? 0;
  const hi = hist.edges[n] ?? lo + 1;
  const integer = hist.integer === true;
  const plotW = width - M.left - M.right;
  const plotH = height - M.top - M.bottom;
  const x = (v: number): number => M.left + ((v - lo) / (hi - lo || 1)) * plotW;
  const maxCount = Math.max(1, ...hist.counts);
  const yTicks = ticks(0, maxCount, 4).filter(Number.isInteger);
  const yTop = Math.max(maxCount, yTicks[yTicks.length - 1] ?? maxCount);
  const y = (c: number): number => M.top + plotH - (c / yTop) * plotH;
  const hatch = `hatch-${opts.id}`;
  const out: string[] = [];

  const binTitles: string[] = [];
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" class="chart histogram" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="${escapeHtml(`Histogram of ${opts.title}`)}">`,
    "", // the <desc>, filled in once the bins are drawn
    `<defs><pattern id="${escapeHtml(hatch)}" patternUnits="userSpaceOnUse" width="6" height="6" patternTransform="rotate(45)">` +
      `<rect width="6" height="6" class="hatch-bg"/><line x1="0" y1="0" x2="0" y2="6" class="hatch-fg"/></pattern></defs>`,
  );
  // Horizontal grid and y labels.
  for (const t of yTicks) {
    out.push(
      `<line class="grid" x1="${M.left}" x2="${width - M.right}" y1="${r(y(t))}" y2="${r(y(t))}"/>`,
      `<text class="tick" x="${M.left - 6}" y="${r(y(t) + 4)}" text-anchor="end">${formatInt(t)}</text>`,
    );
  }
  // Bars.
  for (let i = 0; i < n; i++) {
    const a = hist.edges[i] ?? lo;
    const b = hist.edges[i + 1] ?? hi;
    const count = hist.counts[i] ?? 0;
    const mid = (a + b) / 2;
    const state = opts.threshold === null ? "neutral" : passes(mid, opts.threshold, opts.direction) ? "pass" : "fail";
    const x0 = x(a) + 1;
    const w = Math.max(1, x(b) - x(a) - 2);
    // Integer bins count edits, never below 0 (the first bin may start below it, see chooseBins).
    const first = Math.max(0, Math.ceil(a));
    const range = integer ? (first >= Math.floor(b) ? formatInt(Math.floor(b)) : `${formatInt(first)}–${formatInt(Math.floor(b))}`) : binRange(a, b, opts.range);
    const verdict = state === "neutral" ? "" : state === "pass" ? " (pass)" : " (fail)";
    const binTitle = `${range}: ${rowsText(count)}${verdict}`;
    if (count > 0) binTitles.push(binTitle);
    out.push(
      `<g class="bin"><title>${escapeHtml(binTitle)}</title>` +
        `<rect class="hit" x="${r(x(a))}" y="${M.top}" width="${r(x(b) - x(a))}" height="${plotH}"/>` +
        `<rect class="bar ${state}" data-count="${count}" data-lo="${a}" data-hi="${b}" x="${r(x0)}" y="${r(y(count))}" width="${r(w)}" height="${r(y(0) - y(count))}"${state === "fail" ? ` fill="url(#${escapeHtml(hatch)})"` : ""}/></g>`,
    );
  }
  // X axis with round ticks; integer scales only label integers.
  out.push(`<line class="axis" x1="${M.left}" x2="${width - M.right}" y1="${r(y(0))}" y2="${r(y(0))}"/>`);
  for (const t of xTicksThatFit(lo, hi, integer, plotW)) {
    const label = xTickLabel(t, integer);
    // Centred under its tick, but never past the drawing's edge: the last of "0 … 150,000", centred on the
    // axis's end 16 units from the edge, was cut to "150,00".
    const half = (label.length * TICK_CHAR_WIDTH) / 2;
    out.push(
      `<line class="axis" x1="${r(x(t))}" x2="${r(x(t))}" y1="${r(y(0))}" y2="${r(y(0) + 4)}"/>`,
      `<text class="tick" x="${r(clamp(x(t), half, width - half))}" y="${r(y(0) + X_TICK_BASELINE)}" text-anchor="middle">${escapeHtml(label)}</text>`,
    );
  }
  out.push(`<text class="axis-label" x="${M.left + plotW / 2}" y="${height - 4}" text-anchor="middle">${escapeHtml(opts.xLabel)}</text>`);
  out.push(`<text class="axis-label" x="12" y="${M.top + plotH / 2}" text-anchor="middle" transform="rotate(-90 12 ${M.top + plotH / 2})">rows</text>`);

  const mean = opts.mean !== null && opts.mean !== undefined && Number.isFinite(opts.mean) ? opts.mean : null;
  const total = hist.counts.reduce((a, b) => a + b, 0);
  const op = passSign(opts.direction);
  const shownThreshold = opts.threshold === null ? "" : integer ? formatInt(opts.threshold) : formatThreshold(opts.threshold, opts.direction);
  const thresholdText = opts.threshold === null ? "" : ` Threshold ${shownThreshold}: pass ${op} ${shownThreshold}.`;
  out[1] = `<desc>${escapeHtml(
    `${rowsText(total)} by ${opts.xLabel}${total ? `, in the bins not empty: ${binTitles.join("; ")}` : ""}.${thresholdText}${mean === null ? "" : ` Mean ${htmlFigure(mean)}.`}`,
  )}</desc>`;
  if (mean !== null) {
    const mx = x(clamp(mean, lo, hi));
    const my = y(0) + 6;
    out.push(
      `<g class="mean"><title>${escapeHtml(`mean ${htmlFigure(mean)}`)}</title>` +
        `<path d="M${r(mx)} ${r(my - 5)} l5 9 h-10 z" data-value="${mean}"/></g>`,
    );
  }
  if (opts.threshold !== null) {
    const tx = x(clamp(thresholdPosition(opts.threshold, opts.direction, integer), lo, hi));
    const label = opts.direction === "maximize" ? `threshold ${shownThreshold} · pass ${op} →` : `← pass ${op} ${shownThreshold} · threshold`;
    // Keep the label inside the chart: it reads away from the line, towards the side with room.
    const anchor = tx > M.left + plotW * 0.7 ? "end" : tx < M.left + plotW * 0.3 ? "start" : "middle";
    out.push(
      `<line class="threshold" data-value="${opts.threshold}" x1="${r(tx)}" x2="${r(tx)}" y1="${M.top - 8}" y2="${r(y(0))}"/>`,
      `<text class="threshold-label" x="${r(tx)}" y="${M.top - 13}" text-anchor="${anchor}">${escapeHtml(label)}</text>`,
    );
  }
  out.push("</svg>");
  return out.join("");
}

/**
 * A continuous bin's edges as its hover label gives them: clamped to `range`, the values scores fall in (a bin
 * shifted to the threshold may start below 0 or end above 1), and printed as the summary table prints scores
 * ({@link htmlFigure}: "0.6700–0.7200", "0–0.0200"); a bin of one value within the range ([1, 1.05] past a top
 * of 1) reads as that value. The edges are rounded to 12 decimals first: 0.05 · 3 is 0.15000000000000002.
 */
function binRange(a: number, b: number, range?: readonly [number, number]): string {
  const [lo, hi] = range ?? [a, b];
  const from = Number(clamp(a, lo, hi).toFixed(12));
  const to = Number(clamp(b, lo, hi).toFixed(12));
  return from === to ? htmlFigure(from) : `${htmlFigure(from)}–${htmlFigure(to)}`;
}

function clamp(v: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, v));
}

