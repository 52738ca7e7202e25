import type { ErrorCode } from "../errors.js";

/** The CLI's exit codes: 0 ok, 1 a verdict or gate failed, 2 bad usage or config, 3 a runtime failure. */
export const EXIT = { ok: 0, failed: 1, usage: 2, runtime: 3 } as const;

/** The one mapping from error codes to exit codes; exhaustive by construction. */
export function exitCodeFor(code: ErrorCode): number {
  switch (code) {
    case "CONFIG_INVALID":
    case "UNKNOWN_EVALUATOR":
    case "USAGE":
    case "DATASET_INVALID":
    case "INPUT_INVALID": // a record the user gave (`score --record`) that cannot be read as mapped
      return EXIT.usage;
    case "PROVIDER_FAILED":
    case "STORE_FAILED":
    // The store's refusals of a run that is gone or ended: reached by the CLI only when another process deleted
    // or ended the run after the command looked it up (it refuses the rest itself, as USAGE), a runtime failure.
    case "RUN_NOT_FOUND":
    case "RUN_CONFLICT":
    case "OUTPUT_FAILED":
      return EXIT.runtime;
    default: {
      const never: never = code;
      return never;
    }
  }
}
