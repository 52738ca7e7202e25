import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { inTempDir } from "../test-support.js";
import { statIfAny } from "./stat-if-any.js";

describe("statIfAny", () => {
  it("gives a file's and a folder's stats, and undefined for a path missing or under a file", async () => {
    await inTempDir("simeval-stat-", async (dir) => {
      const file = join(dir, "a.txt");
      writeFileSync(file, "x");
      expect(statIfAny(file)?.isFile()).toBe(true);
      expect(statIfAny(dir)?.isDirectory()).toBe(true);
      expect(statIfAny(join(dir, "missing"))).toBeUndefined();
      expect(statIfAny(join(file, "under"))).toBeUndefined(); // ENOTDIR
    });
  });
});
