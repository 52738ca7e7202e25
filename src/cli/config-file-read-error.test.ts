/** readEvalsFile's message for a file it may not read, which a test run as root cannot make with chmod. */
import { describe, expect, it, vi } from "vitest";

vi.mock("node:fs/promises", async (importOriginal) => {
  const actual = await importOriginal<typeof import("node:fs/promises")>();
  return {
    ...actual,
    readFile: vi.fn(async () => {
      throw Object.assign(new Error("EACCES: permission denied, open 'locked.json'"), { code: "EACCES" });
    }),
  };
});

const { readEvalsFile } = await import("./config-file.js");

describe("readEvalsFile, a file it may not read", () => {
  it("says permission denied (USAGE), not the system's message", async () => {
    await expect(readEvalsFile("locked.json")).rejects.toMatchObject({
      code: "USAGE",
      message: 'locked.json: cannot be read (permission denied) (the --config file holds {"evaluators": [...]})',
    });
  });
});
