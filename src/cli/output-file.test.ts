import { symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir, writeIn } from "../test-support.js";
import { checkOutputPaths } from "./output-file.js";

const dir = tempDir("simeval-output-file-");

describe("checkOutputPaths", () => {
  const data = writeIn(dir, "data.jsonl", "{}\n");
  const link = join(dir, "link.jsonl");
  symlinkSync(data, link);

  it("accepts distinct files, existing or not", () => {
    expect(() => checkOutputPaths([{ flag: "the dataset", path: data }], [{ flag: "--out", path: join(dir, "out.jsonl") }, { flag: "--report", path: join(dir, "r.html") }])).not.toThrow();
  });

  it("refuses an output that is an input, also through a symlink or another spelling", () => {
    for (const path of [data, link, join(dir, "sub", "..", "data.jsonl")]) {
      expect(() => checkOutputPaths([{ flag: "the dataset", path: data }], [{ flag: "--out", path }])).toThrow(`--out ${path} is the same file as the dataset (an input, which writing would destroy)`);
    }
  });

  it("refuses two outputs on one file that does not exist yet", () => {
    const out = join(dir, "new.jsonl");
    expect(() => checkOutputPaths([], [{ flag: "--out", path: out }, { flag: "--summary", path: `${dir}/./new.jsonl` }])).toThrow("is the same file as --out (one output would overwrite the other)");
  });

  it("refuses an output that is a folder, before the run rather than after it", () => {
    expect(() => checkOutputPaths([], [{ flag: "--junit", path: dir }])).toThrow(`--junit ${dir} is a folder; give the path of a file to write, such as ${join(dir, "junit.xml")}`);
    expect(() => checkOutputPaths([], [{ flag: "--report", path: dir }])).toThrow(`such as ${join(dir, "report.html")}`);
  });
});
