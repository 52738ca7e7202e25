import { EvalError } from "../errors.js";
import { jsonErrorPlace, jsonParseMessage } from "../json-error-place.js";
import { cutText } from "../cut-text.js";

/** Parses a command-line option holding JSON; a USAGE error names the option and the parser's complaint. */
export function parseJsonOption(option: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new EvalError("USAGE", `${option} is not valid JSON${jsonErrorPlace(text, error)} (${jsonParseMessage(error)}); received ${JSON.stringify(cutText(text, 80))}`);
  }
}
