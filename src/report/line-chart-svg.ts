/**
 * One series over runs as an inline SVG line chart: hand-written for the reasons given in
 * histogram-svg.ts (a static, script-free, testable file; a line chart is one `<path>` and a few
 * circles). Round y ticks come from d3-array's `nice` and `ticks`.
 */
import { nice, ticks } from "d3-array";
import type { Direction } from "../types.js";
import { escapeHtml } from "./escape.js";
import { svgCoordinate as r, formatThreshold, htmlFigure, passes, passSign } from "./format.js";

/**
 * Every point's radius, passing or failing: a passing point is filled and a failing one hollow (the CSS), so their
 * shape, not their size, tells them apart; a passing point drawn smaller, its white edge eating into its fill, read as
 * a speck beside a failing one.
 */
const POINT_RADIUS = 5;

/** One run on a trend line. */
export interface LinePoint {
  /** Label under the axis, e.g. the run's name or date. */
  label: string;
  /** Shown on hover with the value. */
  detail: string;
  value: number | null;
  /** What the chart's `<desc>` says of a point without a value ("no row scored"); "no mean" when not given. */
  none?: string;
}

/** How to draw a trend line; default size 1080×210. */
interface LineChartOptions {
  direction: Direction;
  threshold: number | null;
  title: string;
  yLabel: string;
  width?: number;
  height?: number;
}

const M = { top: 20, right: 110, bottom: 40, left: 56 };
/**
 * Narrower than this, the chart keeps no room at its right for the threshold's label, which is drawn
 * above the line at the right edge either way: 110 units of a phone's 360 left a plot of 190.
 */
const NARROW = 600;
/** Each x label gets at least this much of the plot's width (16 characters of 11-unit text). */
const X_LABEL_ROOM = 110;
/** Points sit this far inside the plot so the first and last labels are not cut. */
const INSET = 40;
/**
 * The y scale's ends sit this far inside the plot, so a point at the bottom of the range (a mean of 0,
 * which the range never goes below for a similarity) stands clear of the axis instead of on it, and
 * one at the top (1) clear of the top edge.
 */
const INSET_Y = 10;
/** At most this many x labels (fewer on a narrow chart, see {@link X_LABEL_ROOM}); the others are left to hover so labels never overlap. */
const MAX_X_LABELS = 8;

/**
 * Points are evenly spaced in run order (runs are events, not a time series with meaningful gaps).
 * A null value breaks the line. Each point is a `<circle class="point" data-value>` with a `<title>`
 * (the mean as the trend's table and the terminal print it);
 * the threshold, when given, is a dashed `<line class="threshold" data-value>` with a label.
 * The y range is the data's (and threshold's), rounded out to nice ticks, so small moves show.
 * A `<desc>` gives every point in words ({@link describe}): with `role="img"` the points' titles are hidden.
 */
export function renderLineChartSvg(points: readonly LinePoint[], opts: LineChartOptions): string {
  const width = opts.width ?? 1080;
  const height = opts.height ?? 210;
  const right = width < NARROW ? 16 : M.right;
  const plotW = width - M.left - right;
  const plotH = height - M.top - M.bottom;
  const values = points.flatMap((p) => (p.value !== null && Number.isFinite(p.value) ? [p.value] : []));
  if (opts.threshold !== null) values.push(opts.threshold);
  let lo = values.length ? Math.min(...values) : 0;
  let hi = values.length ? Math.max(...values) : 1;
  // The headroom stops at 0 (and at 1 for similarities), unless a value lies beyond: a cosine mean may be negative.
  const floor = lo < 0 ? -Infinity : 0;
  const ceiling = hi > 1 ? Infinity : 1;
  if (hi - lo < 1e-9) {
    // One value: give it room, in the scale's own units.
    const pad = opts.direction === "minimize" ? 1 : 0.05;
    lo -= pad;
    hi += pad;
  }
  // 8% headroom so no point sits on the axis or the top edge.
  const room = (hi - lo) * 0.08;
  lo -= room;
  hi += room;
  if (opts.direction === "maximize") {
    lo = Math.max(floor, lo);
    hi = Math.min(ceiling, hi);
  } else lo = Math.max(floor, lo);
  [lo, hi] = nice(lo, hi, 5);
  const yTicks = ticks(lo, hi, 5);
  const x = (i: number): number => M.left + INSET + (points.length <= 1 ? plotW / 2 - INSET : (i / (points.length - 1)) * (plotW - 2 * INSET));
  const y = (v: number): number => M.top + plotH - INSET_Y - ((v - lo) / (hi - lo || 1)) * (plotH - 2 * INSET_Y);
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" class="chart line-chart" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="${escapeHtml(opts.title)}">`,
    `<desc>${escapeHtml(describe(points, opts))}</desc>`,
  ];
  for (const t of yTicks) {
    out.push(
      `<line class="grid" x1="${M.left}" x2="${width - right}" y1="${r(y(t))}" y2="${r(y(t))}"/>`,
      `<text class="tick" x="${M.left - 6}" y="${r(y(t) + 4)}" text-anchor="end">${escapeHtml(String(t))}</text>`,
    );
  }
  out.push(`<text class="axis-label" x="14" y="${M.top + plotH / 2}" text-anchor="middle" transform="rotate(-90 14 ${M.top + plotH / 2})">${escapeHtml(opts.yLabel)}</text>`);
  const maxLabels = Math.max(2, Math.min(MAX_X_LABELS, Math.floor(plotW / X_LABEL_ROOM)));
  const every = Math.max(1, Math.ceil(points.length / maxLabels));
  const labelled = points.flatMap((_, i) => {
    // Always label the last run: it is the one people look for.
    if (i % every !== 0 && i !== points.length - 1) return [];
    if (i !== points.length - 1 && points.length - 1 - i < every) return [];
    return [i];
  });
  const xLabels = xAxisLabels(points, labelled);
  labelled.forEach((i, k) => {
    out.push(`<text class="tick x-label" x="${r(x(i))}" y="${height - M.bottom + 18}" text-anchor="middle">${escapeHtml(xLabels[k] ?? "")}</text>`);
  });
  const ty = opts.threshold === null ? 0 : y(opts.threshold);
  if (opts.threshold !== null) out.push(`<line class="threshold" data-value="${opts.threshold}" x1="${M.left}" x2="${width - right}" y1="${r(ty)}" y2="${r(ty)}"/>`);
  let d = "";
  let pen = false;
  points.forEach((p, i) => {
    if (p.value === null || !Number.isFinite(p.value)) {
      pen = false;
      return;
    }
    d += `${pen ? "L" : "M"}${r(x(i))} ${r(y(p.value))}`;
    pen = true;
  });
  if (d) out.push(`<path class="series" d="${d}"/>`);
  points.forEach((p, i) => {
    if (p.value === null || !Number.isFinite(p.value)) return;
    const state = pointState(p.value, opts);
    out.push(
      `<g class="pt"><title>${escapeHtml(`${p.detail}: mean ${htmlFigure(p.value)}`)}</title>` +
        `<circle class="point ${state}" data-value="${p.value}" cx="${r(x(i))}" cy="${r(y(p.value))}" r="${POINT_RADIUS}"/></g>`,
    );
  });
  out.push(`<line class="axis" x1="${M.left}" x2="${width - right}" y1="${r(M.top + plotH)}" y2="${r(M.top + plotH)}"/>`);
  if (opts.threshold !== null) {
    // Right-aligned to the viewBox edge, just above the line: however wide the font draws it, the label
    // cannot run past the chart (starting it at the plot's end clipped "threshold 1.000"). Drawn last, over
    // the points, with a halo in the card's colour (.threshold-label's stroke): on a narrow chart the
    // plot runs under it, and the last points crossed out its letters.
    out.push(`<text class="threshold-label" x="${width - 4}" y="${r(Math.max(ty - 6, 14))}" text-anchor="end">${escapeHtml(`threshold ${formatThreshold(opts.threshold, opts.direction)}`)}</text>`);
  }
  out.push("</svg>");
  return out.join("");
}

/** A mean's side of the threshold, as its point is drawn and described; "neutral" without a threshold. */
function pointState(value: number, opts: LineChartOptions): "pass" | "fail" | "neutral" {
  if (opts.threshold === null) return "neutral";
  return passes(value, opts.threshold, opts.direction) ? "pass" : "fail";
}

/**
 * What the chart shows, in words: each point's detail and value (or its `none`) with its verdict,
 * then the threshold, e.g. "#1 prompt-a · 2025-01-02 10:00: mean 0.6413 (fail); … Threshold 0.800: pass ≥ 0.800."
 */
function describe(points: readonly LinePoint[], opts: LineChartOptions): string {
  const each = points.map((p) => {
    if (p.value === null || !Number.isFinite(p.value)) return `${p.detail}: ${p.none ?? "no mean"}`;
    const state = pointState(p.value, opts);
    return `${p.detail}: mean ${htmlFigure(p.value)}${state === "neutral" ? "" : ` (${state})`}`;
  });
  const shown = opts.threshold === null ? "" : formatThreshold(opts.threshold, opts.direction);
  const t = opts.threshold === null ? "" : ` Threshold ${shown}: pass ${passSign(opts.direction)} ${shown}.`;
  return `${each.join("; ")}.${t}`;
}

/** An x label holds at most this many code points. */
const MAX_LABEL_CHARS = 16;

/**
 * The labels of the points at `indices`, each cut to {@link MAX_LABEL_CHARS}. When two would read the
 * same (runs with one name, or long names that differ only past the cut), each is led by the point's
 * 1-based position, "#3 nightly-regre…", which the trend report's table of runs also shows.
 */
function xAxisLabels(points: readonly LinePoint[], indices: readonly number[]): string[] {
  const plain = indices.map((i) => shorten(points[i]?.label ?? ""));
  if (new Set(plain).size === plain.length) return plain;
  return indices.map((i) => shorten(`#${i + 1} ${points[i]?.label ?? ""}`));
}

/** `text` cut to {@link MAX_LABEL_CHARS} code points, the last of them "…". */
function shorten(text: string): string {
  const points = [...text];
  return points.length <= MAX_LABEL_CHARS ? text : `${points.slice(0, MAX_LABEL_CHARS - 1).join("")}…`;
}
