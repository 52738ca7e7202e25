import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir, thrownEvalError } from "../test-support.js";
import { SpillFile } from "./spill-file.js";

const dir = tempDir("simeval-spill-file-");

describe("SpillFile", () => {
  it("appends chunks end to end, reads each back from its offset, and leaves nothing behind", () => {
    const file = new SpillFile(dir);
    expect(readdirSync(dir)).toEqual([]); // made on the first append only
    const first = Uint8Array.from([1, 2, 3]);
    const second = Uint8Array.from([4, 5, 6, 7, 8]);
    expect([file.append(first), file.append(second)]).toEqual([0, 3]);
    const back = new Uint8Array(4);
    file.read(2, back);
    expect([...back]).toEqual([3, 4, 5, 6]);
    file.close();
    expect(readdirSync(dir)).toEqual([]);
    // Closed, it refuses reads; an append makes a new file.
    expect(thrownEvalError(() => file.read(0, new Uint8Array(1)))).toMatchObject({ code: "STORE_FAILED", message: "The run's temporary score file was read after it was closed" });
    expect(file.append(second)).toBe(0);
    expect(thrownEvalError(() => file.read(3, new Uint8Array(3))).message).toMatch(/^The run's temporary score file .*simeval-scores-.*\.f64 ended early$/);
    file.close();
  });

  it("names the path it could not make", () => {
    const file = new SpillFile(join(dir, "no-such-folder"));
    const error = thrownEvalError(() => file.append(Uint8Array.from([1])));
    expect(error.code).toBe("STORE_FAILED");
    expect(error.message).toMatch(/^Cannot keep the run's scores in a temporary file at .*no-such-folder.*simeval-scores-.*: ENOENT/);
  });
});
