import { mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeFolder } from "./make-folder.js";

describe("makeFolder", () => {
  let root = "";
  beforeEach(() => void (root = mkdtempSync(join(tmpdir(), "simeval-mkdir-"))));
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it("makes every missing level, and is a no-op on a folder that exists", () => {
    const deep = join(root, "a", "b", "c");
    makeFolder(deep);
    expect(statSync(deep).isDirectory()).toBe(true);
    makeFolder(deep);
    makeFolder(root);
  });

  it("throws the error of the level it cannot make: under a file, under a dangling symlink", () => {
    writeFileSync(join(root, "file"), "");
    expect(() => makeFolder(join(root, "file", "x"))).toThrow(/ENOTDIR/);
    // The path itself a file: there is nothing to make, and it is no folder.
    expect(() => makeFolder(join(root, "file"))).toThrow(/ENOTDIR/);
    symlinkSync(join(root, "nowhere"), join(root, "dangling"));
    expect(() => makeFolder(join(root, "dangling", "x"))).toThrow(/ENOENT/);
  });

  it.runIf(process.platform === "linux")("throws, instead of looping forever, under /proc", () => {
    expect(() => makeFolder("/proc/simeval-no-such-folder/x")).toThrow(/ENOENT/);
  });
});
