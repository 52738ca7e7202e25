import { XMLParser, XMLValidator } from "fast-xml-parser";
import { describe, expect, it } from "vitest";
import { chooseBins, scoreRange } from "./choose.js";
import { renderHistogramSvg, thresholdPosition } from "./histogram-svg.js";
import type { HistogramData } from "./types.js";

interface Attrs {
  [key: string]: string;
}
interface Bin {
  title: string;
  rect: Attrs[];
}
interface Svg {
  svg: Attrs & { g?: Bin[]; line?: Attrs[]; text?: (Attrs & { "#text": string })[] };
}

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "",
  parseAttributeValue: false,
  parseTagValue: false,
  htmlEntities: true,
  isArray: (name) => ["g", "rect", "line", "text"].includes(name),
});

function parse(svg: string): Svg["svg"] {
  expect(XMLValidator.validate(svg)).toBe(true);
  return (parser.parse(svg) as Svg).svg;
}

/** The bars in order, from each `<g class="bin">`. */
function bars(svg: Svg["svg"]): { count: number; cls: string; x: number; w: number; title: string }[] {
  return (svg.g ?? [])
    .filter((g) => g.rect !== undefined && g.rect.some((r) => r["class"]?.startsWith("bar")))
    .map((g) => {
      const bar = g.rect.find((r) => r["class"]?.startsWith("bar")) as Attrs;
      return { count: Number(bar["data-count"]), cls: bar["class"] as string, x: Number(bar["x"]), w: Number(bar["width"]), title: g.title };
    });
}

function thresholdLine(svg: Svg["svg"]): Attrs | undefined {
  return svg.line?.find((l) => l["class"] === "threshold");
}

describe("renderHistogramSvg", () => {
  const hist = { edges: [0, 0.25, 0.5, 0.75, 1], counts: [1, 0, 3, 5] };

  it("draws one bar per bin with its count, on the right side of the threshold", () => {
    const svg = parse(renderHistogramSvg(hist, { id: "a", direction: "maximize", threshold: 0.5, xLabel: "score", title: "lev" }));
    const b = bars(svg);
    expect(b.map((x) => x.count)).toEqual([1, 0, 3, 5]);
    expect(b.map((x) => x.cls)).toEqual(["bar fail", "bar fail", "bar pass", "bar pass"]);
    expect(b[0]?.title).toBe("0–0.2500: 1 row (fail)");
    expect(b[3]?.title).toBe("0.7500–1: 5 rows (pass)");
    const line = thresholdLine(svg);
    expect(line?.["data-value"]).toBe("0.5");
    const tx = Number(line?.["x1"]);
    // The line sits between the last failing bar and the first passing one.
    expect(tx).toBeGreaterThanOrEqual((b[1]?.x ?? 0) + (b[1]?.w ?? 0));
    expect(tx).toBeLessThanOrEqual(b[2]?.x ?? 0);
    expect(svg.text?.some((t) => t["class"] === "threshold-label" && t["#text"].includes("threshold 0.500"))).toBe(true);
  });

  it("makes taller bars for larger counts", () => {
    const svg = parse(renderHistogramSvg(hist, { id: "a", direction: "maximize", threshold: null, xLabel: "score", title: "lev" }));
    const heights = (svg.g ?? []).flatMap((g) => g.rect.filter((r) => r["class"]?.startsWith("bar")).map((r) => Number(r["height"])));
    expect(heights[1]).toBe(0);
    expect(heights[0]).toBeLessThan(heights[2] ?? 0);
    expect(heights[2]).toBeLessThan(heights[3] ?? 0);
  });

  it("labels a first integer bin that starts below 0 from 0, and draws no tick below 0", () => {
    const ints = { edges: [-1.5, 0.5, 2.5, 4.5], counts: [5, 1, 2], integer: true };
    const svg = parse(renderHistogramSvg(ints, { id: "d", direction: "minimize", threshold: 2, xLabel: "edit distance", title: "dist" }));
    expect(bars(svg).map((b) => b.title)).toEqual(["0: 5 rows (pass)", "1–2: 1 row (pass)", "3–4: 2 rows (fail)"]);
    expect(svg.text?.filter((t) => t["class"] === "tick" && t["#text"].startsWith("-"))).toEqual([]);
  });

  it("puts an integer threshold between the last passing and the first failing distance", () => {
    const ints = { edges: [-0.5, 0.5, 1.5, 2.5, 3.5, 4.5, 5.5], counts: [4, 3, 2, 1, 0, 7], integer: true };
    const svg = parse(renderHistogramSvg(ints, { id: "d", direction: "minimize", threshold: 2, mean: 1.9, xLabel: "edit distance", title: "dist" }));
    const b = bars(svg);
    expect(b.map((x) => x.count)).toEqual([4, 3, 2, 1, 0, 7]);
    expect(b.map((x) => x.cls.replace("bar ", ""))).toEqual(["pass", "pass", "pass", "fail", "fail", "fail"]);
    expect(b[2]?.title).toBe("2: 2 rows (pass)");
    const tx = Number(thresholdLine(svg)?.["x1"]);
    expect(tx).toBeGreaterThanOrEqual((b[2]?.x ?? 0) + (b[2]?.w ?? 0));
    expect(tx).toBeLessThanOrEqual(b[3]?.x ?? 0);
    expect(svg.text?.find((t) => t["class"] === "threshold-label")?.["#text"]).toContain("pass ≤ 2");
    // Integer axes label integers only.
    const ticks = (svg.text ?? []).filter((t) => t["class"] === "tick" && t["text-anchor"] === "middle").map((t) => t["#text"]);
    expect(ticks.length).toBeGreaterThan(0);
    for (const t of ticks) expect(t).toMatch(/^\d+$/);
    expect(svg.g?.some((g) => g.title === "mean 1.9000")).toBe(true);
  });

  it("labels wide integer bins with their range", () => {
    const ints = { edges: [-0.5, 2.5, 5.5], counts: [3, 1], integer: true };
    const b = bars(parse(renderHistogramSvg(ints, { id: "w", direction: "minimize", threshold: null, xLabel: "d", title: "d" })));
    expect(b.map((x) => x.title)).toEqual(["0–2: 3 rows", "3–5: 1 row"]);
    expect(b.map((x) => x.cls)).toEqual(["bar neutral", "bar neutral"]);
  });

  it("draws no threshold line without a threshold", () => {
    const svg = parse(renderHistogramSvg(hist, { id: "n", direction: "maximize", threshold: null, xLabel: "score", title: "x" }));
    expect(thresholdLine(svg)).toBeUndefined();
  });

  it("labels a bin shifted past the range scores fall in (a threshold of 0.733) by the part within it, its edges as the summary table prints scores", () => {
    const summary = { direction: "maximize" as const, threshold: 0.733, min: 0.1, max: 0.9 };
    const bins = chooseBins(summary);
    expect(bins.min).toBeCloseTo(-0.017, 12);
    const width = (bins.max - bins.min) / bins.bins;
    const edges = Array.from({ length: bins.bins + 1 }, (_, i) => bins.min + i * width);
    const counts = edges.slice(1).map(() => 1);
    const titles = bars(parse(renderHistogramSvg({ edges, counts }, { id: "s", direction: "maximize", threshold: 0.733, xLabel: "score", title: "lev", range: scoreRange(summary) }))).map((b) => b.title);
    expect(titles[0]).toBe("0–0.0330: 1 row (fail)");
    expect(titles[1]).toBe("0.0330–0.0830: 1 row (fail)");
    expect(titles[14]).toBe("0.6830–0.7330: 1 row (fail)");
    expect(titles[15]).toBe("0.7330–0.7830: 1 row (pass)");
    expect(titles.at(-1)).toBe("0.9830–1: 1 row (pass)");
    // The bins' own edges are kept on the bars.
    expect(parse(renderHistogramSvg({ edges, counts }, { id: "s", direction: "maximize", threshold: 0.733, xLabel: "score", title: "lev", range: scoreRange(summary) })).g?.[0]?.rect?.[1]?.["data-lo"]).toBe(String(edges[0]));
  });

  it("labels the bar of the top value (a threshold of 1, its bin [1, 1.05]) as that value, and a cosine's bins within its lowest score", () => {
    const top = bars(parse(renderHistogramSvg({ edges: [0.9, 0.95, 1, 1.05], counts: [1, 2, 3] }, { id: "t", direction: "maximize", threshold: 1, xLabel: "score", title: "em", range: [0, 1] })));
    expect(top.map((b) => b.title)).toEqual(["0.9000–0.9500: 1 row (fail)", "0.9500–1: 2 rows (fail)", "1: 3 rows (pass)"]);
    const cosine = bars(parse(renderHistogramSvg({ edges: [-0.25, 0.25, 0.75, 1.25], counts: [1, 1, 1] }, { id: "c", direction: "maximize", threshold: 0.75, xLabel: "score", title: "cos", range: scoreRange({ direction: "maximize", min: -0.2, max: 0.95 }) })));
    expect(cosine.map((b) => b.title)).toEqual(["-0.2000–0.2500: 1 row (fail)", "0.2500–0.7500: 1 row (fail)", "0.7500–1: 1 row (pass)"]);
  });

  it("escapes the title", () => {
    const out = renderHistogramSvg(hist, { id: "e", direction: "maximize", threshold: null, xLabel: "<i>", title: `<script>"` });
    expect(out).not.toContain("<script>");
    expect(out).not.toContain("<i>");
    expect(parse(out)["aria-label"]).toBe(`Histogram of <script>"`);
  });
});

describe("renderHistogramSvg, the threshold's label", () => {
  // The plot spans x 48 to 1064 (1080 wide, margins 48 and 16): a threshold t on [0, 1] is drawn at 48 + 1016·t.
  const hist = { edges: [0, 0.25, 0.5, 0.75, 1], counts: [1, 2, 3, 4] };
  const label = (threshold: number): Attrs => {
    const svg = parse(renderHistogramSvg(hist, { id: "t", direction: "maximize", threshold, xLabel: "score", title: "lev" }));
    return svg.text?.find((t) => t["class"] === "threshold-label") as Attrs;
  };

  it.each([
    // Past 70% of the width (x 759.2) the label ends at the line, reading leftwards into the chart; before 30% (x 352.8) it starts there.
    [0.95, "end"],
    [0.75, "end"],
    [0.5, "middle"],
    [0.25, "start"],
    [0.05, "start"],
  ] as const)("a threshold of %s anchors its label at the %s, inside the chart", (threshold, anchor) => {
    const l = label(threshold);
    expect(l["x"]).toBe(String(Math.round((48 + 1016 * threshold) * 10) / 10));
    expect(l["text-anchor"]).toBe(anchor);
  });
});

describe("renderHistogramSvg, the x axis's labels", () => {
  /** Integer bins of `step` from -0.5 (as chooseBins draws edit distances) up past `max`. */
  const intBins = (max: number, step: number) => {
    const edges = [-0.5];
    while ((edges[edges.length - 1] ?? 0) < max) edges.push((edges[edges.length - 1] ?? 0) + step);
    return { edges, counts: edges.slice(1).map((_, i) => i % 3), integer: true };
  };
  const cases: [string, HistogramData][] = [
    ["edit distances to 1,990 (2,000-character answers)", intBins(1990, 100)],
    ["edit distances to 150,000", intBins(150_000, 7500)],
    ["edit distances to 12", intBins(12, 1)],
    ["scores in [0, 1]", { edges: [0, 0.25, 0.5, 0.75, 1], counts: [1, 2, 3, 4] }],
  ];
  const widths = [360, 1080];

  it.each(cases.flatMap(([name, hist]) => widths.map((width) => [name, width, hist] as const)))("%s, %s units wide: never run together, nor past the edge", (_, width, hist) => {
    const svg = parse(renderHistogramSvg(hist, { id: "x", direction: "minimize", threshold: null, xLabel: "edit distance", title: "dist", width }));
    // The x ticks' labels sit under the axis, all on one baseline: the y ticks' are at x 42.
    const labels = (svg.text ?? []).filter((t) => t["class"] === "tick" && t["text-anchor"] === "middle").map((t) => ({ x: Number(t["x"]), text: t["#text"] }));
    expect(labels.length).toBeGreaterThanOrEqual(3);
    // Each within the drawing: the last, at the axis's end 16 units from the edge, is not cut.
    for (const l of labels) {
      expect(l.x - (l.text.length * 7) / 2, l.text).toBeGreaterThanOrEqual(0);
      expect(l.x + (l.text.length * 7) / 2, l.text).toBeLessThanOrEqual(width);
    }
    // 11-unit text: a digit is about 7 units wide (0.64 em); two neighbours, each centred on its tick, keep 4 units apart.
    for (let i = 1; i < labels.length; i++) {
      const [a, b] = [labels[i - 1], labels[i]] as [{ x: number; text: string }, { x: number; text: string }];
      expect(b.x - a.x, `${a.text} and ${b.text}`).toBeGreaterThanOrEqual(((a.text.length + b.text.length) / 2) * 7 + 4);
    }
  });
});

describe("thresholdPosition", () => {
  it.each([
    [0.7, "maximize", false, 0.7],
    [3, "minimize", true, 3.5],
    [3, "maximize", true, 2.5],
    [2.4, "minimize", true, 2.5],
  ] as const)("%s %s integer=%s → %s", (t, d, i, out) => {
    expect(thresholdPosition(t, d, i)).toBe(out);
  });
});

describe("renderHistogramSvg, the mean's marker", () => {
  it("prints the mean on hover as the summary table does (4 decimals, a whole number as it is)", () => {
    for (const [direction, mean, title] of [["maximize", 0.62594, "mean 0.6259"], ["minimize", 11.61362, "mean 11.6136"], ["minimize", 3, "mean 3"]] as const) {
      const svg = renderHistogramSvg({ edges: [0, 10, 20], counts: [1, 1] }, { id: "h", direction, threshold: null, mean, xLabel: "x", title: "t" });
      expect(svg).toContain(`<g class="mean"><title>${title}</title>`);
    }
  });
});

describe("renderHistogramSvg, a mean on a tick", () => {
  it("draws the mean's marker clear of the tick's label (all scores 0, all scores 1)", () => {
    for (const mean of [0, 1, 0.4]) {
      const svg = parse(
        renderHistogramSvg({ edges: [0, 0.25, 0.5, 0.75, 1], counts: [mean === 0 ? 5 : 0, 0, 0, mean === 1 ? 5 : 0] }, { id: "h", direction: "maximize", threshold: 0.5, mean, xLabel: "score", title: "t" }),
      );
      const marker = (svg.g ?? []).find((g) => (g as unknown as { path?: Attrs }).path) as unknown as { path: Attrs };
      const [mx, my] = (marker.path["d"] ?? "").slice(1).split(/[ l]/).map(Number) as [number, number];
      // The marker: a triangle from (mx, my) down 9 and 5 either side.
      const label = (svg.text ?? []).find((t) => t["class"] === "tick" && t["text-anchor"] === "middle" && Math.abs(Number(t["x"]) - mx) < 1);
      expect(label?.["#text"], `the tick under mean ${mean}`).toBe(String(mean));
      // 11-unit text: its glyphs rise about 8 above the baseline.
      expect(Number(label?.["y"]) - 8, `mean ${mean}`).toBeGreaterThan(my + 9);
      const axisLabel = (svg.text ?? []).find((t) => t["class"] === "axis-label" && t["#text"] === "score");
      expect(Number(axisLabel?.["y"]) - 8).toBeGreaterThan(Number(label?.["y"]) + 2);
    }
  });
});

describe("the histogram's text alternative", () => {
  it("names the chart and says in a <desc> each non-empty bin's count and verdict, the threshold and the mean", () => {
    const hist = { edges: [0, 0.25, 0.5, 0.75, 1], counts: [3, 0, 1, 6] };
    const svg = parse(renderHistogramSvg(hist, { id: "h", direction: "maximize", threshold: 0.5, mean: 0.71, xLabel: "score", title: "lev scores" }));
    expect(svg["aria-label"]).toBe("Histogram of lev scores");
    const desc = (svg as unknown as { desc: string }).desc;
    expect(desc).toContain("10 rows by score");
    expect(desc).toContain("0–0.2500: 3 rows (fail); 0.5000–0.7500: 1 row (pass); 0.7500–1: 6 rows (pass).");
    expect(desc).not.toContain("0.2500–0.5000");
    expect(desc).toContain("pass ≥ 0.500");
    expect(desc).toContain("Mean 0.7100");
  });
});
