import { readFile } from "node:fs/promises";
import { Tokenizer, TokenType } from "@streamparser/json";
import { firstInvalidUtf8, MAGIC_BYTES, notText } from "../dataset/read-bytes.js";
import { cutText } from "../cut-text.js";
import { describeValue, EvalError, formatIssues, formatPath, isPlainObject, problemCount, type Issue } from "../errors.js";
import { didYouMean } from "../evaluators/suggest.js";
import { createRunEvaluators } from "../run/run-dataset.js";
import { jsonErrorPlace, jsonParseMessage, linePlace, utf16Offset } from "../json-error-place.js";

const TOP_LEVEL_KEYS = ["evaluators"];

/** What to say of a dataset given as the config: the arguments swapped. */
const SWAPPED = `--config takes the EVALS.json file, {"evaluators": [spec, ...]}, and the dataset comes before it: simeval run DATASET --config EVALS.json`;

/**
 * Reads EVALS.json: `{ "evaluators": [spec, ...] }`. Problems with the file itself (missing, not JSON,
 * not an object) are USAGE/CONFIG errors naming the file. A well-formed file's specs are validated by
 * the caller; but when the file has problems of its own (an unknown top-level key, `evaluators` missing
 * or not a non-empty array), the specs are validated here too, so that one CONFIG_INVALID error lists
 * every problem of the file at once in its `issues`, the file's first. A key given twice in one object
 * is one of those problems: JSON.parse keeps the last, so the first (a whole "evaluators" list, a
 * threshold) would be dropped without a word.
 */
export async function readEvalsFile(path: string): Promise<unknown[]> {
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === "ENOENT"
        ? "no such file"
        : code === "ENOTDIR"
          ? "no such file (a part of the path is not a directory)"
          : code === "EISDIR"
            ? "is a directory, expected a JSON file"
            : code === "EACCES" || code === "EPERM"
              ? "cannot be read (permission denied)"
              : `cannot be read (${(error as Error).message})`;
    throw new EvalError("USAGE", `${path}: ${why} (the --config file holds {"evaluators": [...]})`);
  }
  // UTF-16 (what PowerShell 5's `>` writes) or a compressed file would read as garbage: say what it is.
  const notUtf8 = notText(bytes.subarray(0, MAGIC_BYTES), "JSON");
  if (notUtf8) throw new EvalError("CONFIG_INVALID", `${path}: ${notUtf8}`);
  // Bytes that are not UTF-8 (a file saved as Windows-1252 or Latin-1) would be read as U+FFFD, silently: a name
  // "café" recorded as "caf\uFFFD", a model path that names no folder. Refused, as a dataset's rows are.
  const bad = firstInvalidUtf8(bytes);
  if (bad >= 0) {
    const before = bytes.subarray(0, bad).toString("utf8").replace(/^\uFEFF/, "");
    const byte = bytes[bad]!.toString(16).toUpperCase().padStart(2, "0");
    throw new EvalError(
      "CONFIG_INVALID",
      `${path}: not valid UTF-8 at ${linePlace(before, before.length)} (byte 0x${byte}); the file was likely saved in another encoding (Windows-1252 or Latin-1): convert it to UTF-8, e.g. iconv -f WINDOWS-1252 -t UTF-8 FILE > FILE-utf8`,
    );
  }
  // A UTF-8 byte order mark (Windows editors, PowerShell 5) is not JSON: left out, as the datasets' readers do.
  const text = bytes.toString("utf8").replace(/^\uFEFF/, "");
  if (text.trim() === "") throw new EvalError("CONFIG_INVALID", `${path}: the file is empty; expected {"evaluators": [spec, ...]}`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new EvalError("CONFIG_INVALID", `${path}: not valid JSON${jsonErrorPlace(text, error)} (${jsonParseMessage(error)})${looksLikeYaml(text) ? `; it looks like YAML: the --config file is JSON, {"evaluators": [{"type": "levenshtein"}]}` : looksLikeJsonLines(text) ? `; it looks like a JSONL dataset (a JSON value a line): ${SWAPPED}` : /\.(csv|tsv)$/i.test(path) ? `; it is named as a CSV dataset: ${SWAPPED}` : ""}`);
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    const dataset = Array.isArray(parsed) && parsed.length > 0 && parsed.every((row) => isPlainObject(row) && !("type" in row)) ? `; it looks like a dataset (an array of rows): ${SWAPPED}` : "";
    throw new EvalError("CONFIG_INVALID", `${path}: expected an object {"evaluators": [spec, ...]}, found ${Array.isArray(parsed) ? "an array" : parsed === null ? "null" : typeof parsed}${dataset}`);
  }
  const issues: Issue[] = duplicateKeys(text);
  for (const key of Object.keys(parsed).filter((k) => !TOP_LEVEL_KEYS.includes(k))) {
    issues.push({ path: [key], message: `unknown top-level key "${key}"; the file holds only "evaluators".${didYouMean(key, TOP_LEVEL_KEYS)}`, received: key });
  }
  const evaluators = (parsed as { evaluators?: unknown }).evaluators;
  if (!("evaluators" in parsed)) {
    issues.push({ path: ["evaluators"], message: `"evaluators" is missing: the file holds {"evaluators": [spec, ...]}`, expected: "non-empty array" });
  } else if (!Array.isArray(evaluators) || evaluators.length === 0) {
    issues.push({ path: ["evaluators"], message: `"evaluators" must be a non-empty array of evaluator specs, received ${Array.isArray(evaluators) ? "an empty array" : isPlainObject(evaluators) ? "an object" : describeValue(evaluators)}${wrapHint(evaluators)}`, expected: "non-empty array", received: describeValue(evaluators) });
  } else if (issues.length) {
    issues.push(...specIssues(evaluators));
  }
  if (issues.length) {
    const count = problemCount(issues.length);
    throw new EvalError("CONFIG_INVALID", `${path}: Invalid evaluator configuration (${count}):\n${formatIssues(issues)}`, { issues });
  }
  return evaluators as unknown[];
}

/**
 * How to make a list of an "evaluators" given as an object: one spec (it has a "type") goes in [ ]; specs
 * keyed by their name become a list of specs, each with its "name".
 */
function wrapHint(evaluators: unknown): string {
  if (!isPlainObject(evaluators)) return "";
  if ("type" in evaluators) return `: it is one spec; wrap it in [ ], {"evaluators": [${compact(evaluators)}]}`;
  const entries = Object.entries(evaluators);
  const [key, first] = entries[0] ?? [];
  if (key !== undefined && entries.every(([, v]) => isPlainObject(v))) {
    return `: list the specs in [ ], each with its "name", {"evaluators": [${compact({ name: key, ...(first as object) })}${entries.length > 1 ? ", …" : ""}]}`;
  }
  return `: the specs go in [ ], {"evaluators": [{"type": "levenshtein"}, …]}`;
}

/** A value as compact JSON, cut at 80 characters. */
function compact(value: unknown): string {
  const json = JSON.stringify(value).replace(/,"/g, ', "').replace(/":/g, '": ');
  return json.length > 80 ? cutText(json, 79) : json;
}

/** Every problem `createRunEvaluators` (what `simeval run` then does with the specs) finds in them, or none. */
function specIssues(specs: unknown[]): Issue[] {
  try {
    createRunEvaluators(specs);
    return [];
  } catch (error) {
    if (!(error instanceof EvalError)) throw error;
    return error.issues.length ? error.issues : [{ path: ["evaluators"], message: error.message }];
  }
}

/**
 * Makes the tokenizer keep a U+FEFF that starts a string or a key. @streamparser/json decodes a string's bytes
 * with `new TextDecoder("utf-8", { fatal: true })`, whose every `decode()` call drops a leading byte order mark:
 * `"\uFEFFa"` was read as `"a"` (also after an escape, or at each 64 KiB of a long string), where JSON.parse keeps
 * it. Its string builder is not public: throws when it is not found, so that an upgrade that changes it is
 * noticed (by every test that reads a config's keys) rather than dropping the mark again.
 */
function keepByteOrderMarks(tokenizer: Tokenizer): void {
  const builder = (tokenizer as unknown as { bufferedString?: { decoder?: unknown } }).bufferedString;
  if (!(builder?.decoder instanceof TextDecoder)) throw new Error("@streamparser/json: the tokenizer's string decoder was not found (keepByteOrderMarks)");
  builder.decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
}

/**
 * Keys given twice that are listed, each with where it is; past them, how many more. Each is placed in the text
 * by encoding it up to there, and keeps its path: unbounded, 100,000 repeated keys took 112 s to be refused, and
 * one repeated at each of 30,000 nesting levels exhausted the heap.
 */
const MAX_DUPLICATE_KEYS = 20;

/**
 * The first {@link MAX_DUPLICATE_KEYS} keys of `text` (valid JSON) given a second time in the same object, as issues at the key's path (then one saying how many more):
 * `{"type": "exact_match", "type": "levenshtein"}` reads as levenshtein alone. Keys are compared as
 * JSON.parse compares them, after their escapes are resolved.
 */
function duplicateKeys(text: string): Issue[] {
  type Container = { keys: Map<string, number> | null; key: string | number; expectKey: boolean };
  const stack: Container[] = [];
  const found: { path: (string | number)[]; key: string; first: number; again: number }[] = [];
  let more = 0;
  const tokenizer = new Tokenizer();
  keepByteOrderMarks(tokenizer);
  tokenizer.onToken = ({ token, value, offset }) => {
    const top = stack[stack.length - 1];
    if (token === TokenType.LEFT_BRACE) stack.push({ keys: new Map(), key: "", expectKey: true });
    else if (token === TokenType.LEFT_BRACKET) stack.push({ keys: null, key: 0, expectKey: false });
    else if (token === TokenType.RIGHT_BRACE || token === TokenType.RIGHT_BRACKET) stack.pop();
    else if (!top) return;
    else if (token === TokenType.COLON) top.expectKey = false;
    else if (token === TokenType.COMMA) {
      if (top.keys) top.expectKey = true;
      else top.key = (top.key as number) + 1;
    } else if (token === TokenType.STRING && top.keys && top.expectKey) {
      const key = value as string;
      const first = top.keys.get(key);
      if (first === undefined) top.keys.set(key, offset);
      else if (found.length < MAX_DUPLICATE_KEYS) found.push({ path: stack.slice(0, -1).map((c) => c.key), key, first, again: offset });
      else more++;
      top.key = key;
    }
  };
  tokenizer.write(text);
  tokenizer.end();
  if (found.length === 0) return [];
  const place = (byte: number) => linePlace(text, utf16Offset(text, byte));
  const issues: Issue[] = found.map(({ path, key, first, again }) => ({
    path: [...path, key],
    message: `${path.length ? `${formatPath(path)}: ` : ""}the key ${JSON.stringify(key)} is given twice (at ${place(first)} and at ${place(again)}); JSON keeps only the last, so the first would be ignored: keep one`,
    expected: "each key once in an object",
    received: `${JSON.stringify(key)} twice`,
  }));
  if (more) issues.push({ path: [], message: `…and ${more} more keys given again in the same object`, expected: "each key once in an object" });
  return issues;
}

/** Whether text that is not JSON is JSON lines: its first two non-blank lines are each a JSON value. */
function looksLikeJsonLines(text: string): boolean {
  const lines = text.split("\n").filter((line) => line.trim() !== "").slice(0, 2);
  return (
    lines.length === 2 &&
    lines.every((line) => {
      try {
        JSON.parse(line);
        return true;
      } catch {
        return false;
      }
    })
  );
}

/** Whether text that is not JSON starts as YAML does: `---`, or a `key:` line (after blank and `#` lines). */
function looksLikeYaml(text: string): boolean {
  const first = text.split("\n").find((line) => line.trim() !== "" && !line.trimStart().startsWith("#"));
  return first !== undefined && /^(---\s*$|[A-Za-z_][\w-]*\s*:(\s|$))/.test(first);
}
