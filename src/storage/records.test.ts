import { describe, expect, it } from "vitest";
import { parseColumn } from "./records.js";
import { thrownEvalError } from "../test-support.js";

describe("parseColumn", () => {
  it("parses a stored column without making the message it would fail with (it runs for every row a comparison reads)", () => {
    let made = 0;
    // A run id whose text is counted: the message's place is the only thing that reads it.
    const runId = { toString: () => (made++, "01run") } as unknown as string;
    expect(parseColumn("x.db", runId, 7, "id", '"q7"')).toBe("q7");
    expect(made).toBe(0);
    const error = thrownEvalError(() => parseColumn("x.db", runId, 7, "id", "{oops"));
    expect(made).toBe(1);
    expect(error.code).toBe("STORE_FAILED");
    expect(error.message).toMatch(/^x\.db: row 7 of run 01run holds id "\{oops", which is not JSON \(.+\); it was stored so as a SerializedRow's JSON/);
  });
});
