import { BIDI_IN_NAME, hasVisible, INVISIBLE_IN_NAME, UNPRINTABLE_IN_NAME } from "../unprintable.js";

/** What a run's name must be ({@link isRunName}), for messages. */
export const RUN_NAME_EXPECTED = `a name that prints as one line (with a visible character, without surrounding whitespace, line breaks, control characters, bidirectional marks, overrides and isolates (${BIDI_IN_NAME}) or invisible characters (${INVISIBLE_IN_NAME}))`;

/**
 * True when `name` can name a run: a run is listed, found and printed by its name, so it is a string that prints
 * as one line, shows something and is found as written, the rule `simeval run --name` applies after trimming what it is given.
 */
export function isRunName(name: unknown): name is string {
  return typeof name === "string" && hasVisible(name) && name.trim() === name && !UNPRINTABLE_IN_NAME.test(name);
}
