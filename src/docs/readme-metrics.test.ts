import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import * as metrics from "../metrics/index.js";

describe("README pure metrics", () => {
  const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
  // The bullet that lists them, up to the next bullet.
  const bullet = /^- Pure metrics[\s\S]*?(?=^- )/m.exec(readme)?.[0] ?? "";

  it("names every function exported under simeval/metrics", () => {
    expect(bullet).not.toBe("");
    const missing = Object.keys(metrics).filter((name) => !new RegExp(`\`${name}[\`(]`).test(bullet));
    expect(missing).toEqual([]);
  });
});
