import { describe, expect, it } from "vitest";
import type { ErrorCode } from "../errors.js";
import { EXIT, exitCodeFor } from "./exit-codes.js";

describe("exitCodeFor", () => {
  it("gives every error code the exit code it had: the store's refusals of an unknown or ended run exit 3, as the STORE_FAILED they were", () => {
    const expected: Record<ErrorCode, number> = {
      CONFIG_INVALID: EXIT.usage,
      UNKNOWN_EVALUATOR: EXIT.usage,
      USAGE: EXIT.usage,
      DATASET_INVALID: EXIT.usage,
      INPUT_INVALID: EXIT.usage,
      PROVIDER_FAILED: EXIT.runtime,
      STORE_FAILED: EXIT.runtime,
      // Reached by the CLI only when another process deleted or ended the run after the command looked it up.
      RUN_NOT_FOUND: EXIT.runtime,
      RUN_CONFLICT: EXIT.runtime,
      OUTPUT_FAILED: EXIT.runtime,
    };
    for (const [code, exit] of Object.entries(expected)) expect([code, exitCodeFor(code as ErrorCode)]).toEqual([code, exit]);
    expect([EXIT.usage, EXIT.runtime]).toEqual([2, 3]);
  });
});
