import { XMLParser, XMLValidator } from "fast-xml-parser";
import { describe, expect, it } from "vitest";
import { renderLineChartSvg, type LinePoint } from "./line-chart-svg.js";

interface Attrs {
  [key: string]: string;
}
const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "",
  parseTagValue: false,
  htmlEntities: true,
  isArray: (name) => ["g", "line", "text", "path", "circle"].includes(name),
});
function parse(svg: string): { g?: { title: string; circle: Attrs[] }[]; line?: Attrs[]; text?: (Attrs & { "#text": string })[]; path?: Attrs[] } {
  expect(XMLValidator.validate(svg)).toBe(true);
  return (parser.parse(svg) as { svg: ReturnType<typeof parse> }).svg;
}

const pts = (values: (number | null)[]): LinePoint[] => values.map((value, i) => ({ label: `run ${i}`, detail: `run ${i}`, value }));

describe("renderLineChartSvg", () => {
  it("keeps a negative mean (a cosine) inside the plot, above the axis", () => {
    const svg = parse(renderLineChartSvg(pts([-0.2, 0.3]), { direction: "maximize", threshold: 0.5, title: "t", yLabel: "mean" }));
    const axis = (svg.line ?? []).find((l) => l["class"] === "axis") as Attrs;
    const cy = (svg.g ?? []).map((g) => Number((g.circle[0] as Attrs)["cy"]));
    for (const y of cy) {
      expect(y).toBeGreaterThanOrEqual(0);
      expect(y).toBeLessThan(Number(axis["y1"]));
    }
    expect(cy[0]).toBeGreaterThan(cy[1] ?? 0);
  });

  it("draws one point per value, higher values higher up, with the value on hover", () => {
    const svg = parse(renderLineChartSvg(pts([0.5, 0.7, 0.6]), { direction: "maximize", threshold: 0.65, title: "t", yLabel: "mean" }));
    const circles = (svg.g ?? []).map((g) => g.circle[0] as Attrs);
    expect(circles.map((c) => Number(c["data-value"]))).toEqual([0.5, 0.7, 0.6]);
    const cy = circles.map((c) => Number(c["cy"]));
    expect(cy[1]).toBeLessThan(cy[2] ?? 0);
    expect(cy[2]).toBeLessThan(cy[0] ?? 0);
    const cx = circles.map((c) => Number(c["cx"]));
    expect(cx[0]).toBeLessThan(cx[1] ?? 0);
    expect(svg.g?.[1]?.title).toBe("run 1: mean 0.7000");
    expect(circles.map((c) => c["class"])).toEqual(["point fail", "point pass", "point fail"]);
    // Told apart by fill (the CSS), not size: a passing point drawn smaller read as a speck.
    expect(new Set(circles.map((c) => c["r"]))).toEqual(new Set(["5"]));
    const threshold = svg.line?.find((l) => l["class"] === "threshold");
    expect(threshold?.["data-value"]).toBe("0.65");
    // The threshold sits between the 0.6 and 0.7 points.
    expect(Number(threshold?.["y1"])).toBeGreaterThan(cy[1] ?? 0);
    expect(Number(threshold?.["y1"])).toBeLessThan(cy[2] ?? 0);
  });

  it("prints each mean on hover as the trend's table and the terminal do (4 decimals, a whole number as it is)", () => {
    for (const [direction, values, titles] of [
      ["maximize", [0.62594, 1], ["mean 0.6259", "mean 1"]],
      ["minimize", [11.61362, 3], ["mean 11.6136", "mean 3"]],
    ] as const) {
      const svg = parse(renderLineChartSvg(pts([...values]), { direction, threshold: null, title: "t", yLabel: "mean" }));
      expect((svg.g ?? []).map((g) => String(g.title).split(": ")[1])).toEqual(titles);
    }
  });

  it("breaks the line where a run has no value", () => {
    const svg = parse(renderLineChartSvg(pts([3, 4, null, 5, 6]), { direction: "minimize", threshold: null, title: "t", yLabel: "mean" }));
    const d = svg.path?.[0]?.["d"] ?? "";
    expect(d.match(/M/g)).toHaveLength(2);
    expect(d.match(/L/g)).toHaveLength(2);
    expect(svg.g).toHaveLength(4);
    expect(svg.line?.some((l) => l["class"] === "threshold")).toBe(false);
  });

  it("handles a single run and escapes labels", () => {
    const out = renderLineChartSvg([{ label: "<b>run</b>", detail: "<i>", value: 0.8 }], { direction: "maximize", threshold: null, title: "<t>", yLabel: "mean" });
    expect(out).not.toMatch(/<b>|<i>|<t>/);
    const svg = parse(out);
    expect(svg.g).toHaveLength(1);
    expect(svg.text?.some((t) => t["#text"] === "<b>run</b>")).toBe(true);
  });
});

describe("renderLineChartSvg threshold label", () => {
  it("keeps the label inside the viewBox, even drawn in a wide bold fallback font", () => {
    for (const [threshold, direction] of [[1, "maximize"], [0.5, "maximize"], [0, "maximize"], [12345.5, "minimize"]] as const) {
      const width = 1080;
      const svg = parse(renderLineChartSvg(pts([0.9, 1, 0.95]), { direction, threshold, title: "t", yLabel: "mean" }));
      const label = svg.text?.find((t) => t["class"] === "threshold-label");
      expect(label?.["#text"]).toMatch(/^threshold /);
      const text = label?.["#text"] ?? "";
      // A generous estimate: 12px bold text at 0.7em a character.
      const w = [...text].length * 12 * 0.7;
      const x = Number(label?.["x"]);
      const anchor = label?.["text-anchor"] ?? "start";
      const left = anchor === "end" ? x - w : anchor === "middle" ? x - w / 2 : x;
      expect(left).toBeGreaterThanOrEqual(0);
      expect(left + w).toBeLessThanOrEqual(width);
      expect(Number(label?.["y"]) - 12).toBeGreaterThanOrEqual(0);
      expect(Number(label?.["y"])).toBeLessThanOrEqual(210);
    }
  });
});

describe("renderLineChartSvg, means at the ends of the range", () => {
  it("keeps a mean of 0 clear of the axis and a mean of 1 clear of the top", () => {
    for (const values of [[0, 1], [0, 0], [1, 1], [0]]) {
      const svg = parse(renderLineChartSvg(pts(values), { direction: "maximize", threshold: 0.5, title: "t", yLabel: "mean" }));
      const axisY = Number(((svg.line ?? []).find((l) => l["class"] === "axis") as Attrs)["y1"]);
      for (const c of (svg.g ?? []).map((g) => g.circle[0] as Attrs)) {
        const cy = Number(c["cy"]);
        const r = Number(c["r"]);
        // The whole circle, stroke (2) included, is above the axis line and below the top of the drawing.
        expect(cy + r + 2, `mean ${c["data-value"]} of ${JSON.stringify(values)}`).toBeLessThan(axisY);
        expect(cy - r - 2).toBeGreaterThan(0);
      }
    }
  });
});

describe("renderLineChartSvg at a phone's width", () => {
  it("spaces its x labels so they cannot overlap and gives the plot the width the threshold label does not need", () => {
    for (const n of [1, 2, 5, 30]) {
      const points = Array.from({ length: n }, (_, i) => ({ label: `nightly-run-${i}-of-the-suite`, detail: "", value: i / 40 }));
      const svg = parse(renderLineChartSvg(points, { direction: "maximize", threshold: 0.5, title: "t", yLabel: "mean", width: 360, height: 200 }));
      const xs = (svg.text ?? []).filter((t) => t["class"] === "tick x-label").map((t) => Number(t["x"]));
      expect(xs.length).toBeGreaterThan(0);
      // A 16-character label of 11-unit text is under 100 units wide: centres 100 apart, each whole inside the drawing.
      xs.slice(1).forEach((x, i) => expect(x - (xs[i] ?? 0)).toBeGreaterThanOrEqual(100));
      for (const x of xs) expect(x - 50 >= 0 && x + 50 <= 360, `label at ${x} of ${n}`).toBe(true);
      const threshold = (svg.line ?? []).find((l) => l["class"] === "threshold") as Attrs;
      expect(Number(threshold["x2"]) - Number(threshold["x1"])).toBeGreaterThan(250);
    }
  });
});

describe("renderLineChartSvg, the threshold's label", () => {
  it("is drawn after the points, so none can cover it, with a halo that keeps it legible over them", async () => {
    const svg = renderLineChartSvg(pts([0.79, 0.81, 0.8]), { direction: "maximize", threshold: 0.8, title: "t", yLabel: "mean", width: 360 });
    const label = svg.indexOf(`<text class="threshold-label"`);
    expect(label).toBeGreaterThan(svg.lastIndexOf("<circle"));
    expect(label).toBeGreaterThan(svg.lastIndexOf(`<path class="series"`));
    const { renderTrendReport } = await import("./trend-report.js");
    const html = renderTrendReport({ runs: [{ id: "1", name: null, started_at: "2024-01-01T00:00:00Z" }], series: [] });
    const rule = html.match(/\.chart \.threshold-label\{([^}]*)\}/)?.[1] ?? "";
    for (const decl of ["stroke:var(--card)", "paint-order:stroke"]) expect(rule).toContain(decl);
  });
});

describe("the line chart's text alternative", () => {
  it("says in a <desc> every run's mean (or that it has none) with its verdict, and the threshold", () => {
    const svg = parse(renderLineChartSvg(pts([0.9, null, 0.4]), { direction: "maximize", threshold: 0.5, title: "Mean lev per run", yLabel: "mean" }));
    expect((svg as { "aria-label"?: string })["aria-label"]).toBe("Mean lev per run");
    expect((svg as { desc?: string }).desc).toBe("run 0: mean 0.9000 (pass); run 1: no mean; run 2: mean 0.4000 (fail). Threshold 0.500: pass ≥ 0.500.");
  });
});
