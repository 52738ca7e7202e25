import { query, type JsonValue } from "jsonpath-rfc9535";
import parse from "jsonpath-rfc9535/parser";
import { EvalError } from "../errors.js";
import { jsEscape } from "../unprintable.js";
import { wordList } from "../word-list.js";

/**
 * A compiled RFC 9535 JSONPath query (through `jsonpath-rfc9535`, which never evaluates code).
 * Queries made only of member names and indexes (`$.a.b`, `$["x y"][0]`, `$.items[-1]`) are turned
 * into plain property reads, several times faster than walking the AST on every record.
 */
export interface CompiledPath {
  readonly expression: string;
  /** Every node the query selects, in document order. */
  select(value: unknown): unknown[];
  /**
   * For a query of member names and indexes alone, which selects at most one node: that node, or
   * undefined when it selects none. Cheaper than `select` (no array).
   */
  readonly selectOne?: (value: unknown) => unknown;
}

/** Compiled paths by expression, so that reading the specs of thousands of recorded runs (`trend`) parses each once. */
const compiled = new Map<string, CompiledPath>();
/** Entries {@link compiled} holds at most: it is emptied when full, so that a long-lived process cannot grow it without end. */
const MAX_COMPILED = 1024;

/**
 * Parses `expression` (once: a compiled path holds no state, so the same expression gives the same one).
 * @throws EvalError CONFIG_INVALID when it is not valid JSONPath, with a one-line message for people
 *   (see {@link describeSyntaxError}), never the parser's character classes.
 */
export function compilePath(expression: string): CompiledPath {
  let path = compiled.get(expression);
  if (!path) {
    path = compile(expression);
    if (compiled.size >= MAX_COMPILED) compiled.clear();
    compiled.set(expression, path);
  }
  return path;
}

function compile(expression: string): CompiledPath {
  let ast: ReturnType<typeof parse>;
  try {
    ast = parse(expression);
  } catch (error) {
    throw new EvalError("CONFIG_INVALID", `${quote(expression)} is not a valid JSONPath (RFC 9535): ${describeSyntaxError(expression, error)}`, { cause: error });
  }
  const steps: (string | number)[] = [];
  for (const segment of ast.segments) {
    const step = simpleStep(segment);
    if (step === undefined) {
      if (!ast.segments.some((s) => s.type === "DescendantSegment")) return { expression, select: (value) => query(value as JsonValue, expression) };
      return {
        expression,
        select: (value) => {
          // A descendant segment walks the whole value; on a value that contains itself it would never end.
          if (containsItself(value)) throw new EvalError("INPUT_INVALID", `JSONPath ${expression} cannot search the record: it contains itself (a circular reference)`);
          return query(value as JsonValue, expression);
        },
      };
    }
    steps.push(step);
  }
  const selectOne = (value: unknown) => stepValue(value, steps);
  return {
    expression,
    select: (value) => {
      const node = selectOne(value);
      return node === undefined ? [] : [node];
    },
    selectOne,
  };
}

function simpleStep(segment: unknown): string | number | undefined {
  const seg = segment as { type?: string; node?: { type?: string; value?: unknown; selectors?: { type?: string; value?: unknown }[] } };
  if (seg.type !== "ChildSegment" || !seg.node) return undefined;
  const node = seg.node;
  if (node.type === "MemberNameShorthand" && typeof node.value === "string") return node.value;
  if (node.type === "BracketedSelection" && node.selectors?.length === 1) {
    const sel = node.selectors[0];
    if (sel?.type === "NameSelector" && typeof sel.value === "string") return sel.value;
    if (sel?.type === "IndexSelector" && typeof sel.value === "number") return sel.value;
  }
  return undefined;
}

/** The node a query of member names and indexes selects, or undefined when none. */
function stepValue(value: unknown, steps: readonly (string | number)[]): unknown {
  let current: unknown = value;
  for (const step of steps) {
    if (typeof step === "string") {
      if (current === null || typeof current !== "object" || Array.isArray(current)) return undefined;
      if (!Object.prototype.hasOwnProperty.call(current, step)) return undefined;
      current = (current as Record<string, unknown>)[step];
    } else {
      if (!Array.isArray(current)) return undefined;
      const index = step < 0 ? current.length + step : step;
      if (index < 0 || index >= current.length) return undefined;
      current = current[index];
    }
    if (current === undefined) return undefined;
  }
  return current;
}

/**
 * Whether an object or array in `value` contains itself. Only a record built in code can: a parsed
 * dataset row never does. An object reached twice through different branches is shared, not circular.
 */
function containsItself(value: unknown): boolean {
  const onPath = new Set<object>();
  const visit = (node: unknown): boolean => {
    if (node === null || typeof node !== "object") return false;
    if (onPath.has(node)) return true;
    onPath.add(node);
    for (const child of Object.values(node)) if (visit(child)) return true;
    onPath.delete(node);
    return false;
  };
  return visit(value);
}

/** Forms every message about a malformed path ends with. */
const PATH_FORMS = "a path looks like $.name, $['name with spaces'], $[0], $[-1], $[*], $..name or $[?@.score > 0.5]";

/** What a peggy parser (the one `jsonpath-rfc9535/parser` is built with) puts on its syntax errors. */
interface PeggySyntaxError {
  location: { start: { offset: number } };
  found: string | null;
  expected: ({ type: "literal"; text: string } | { type: "class"; parts: (string | [string, string])[]; inverted: boolean } | { type: string })[] | null;
}

/** A parser expectation in words: a literal quoted, the two classes a reader knows by name, nothing for the rest. */
function expectationWords(e: NonNullable<PeggySyntaxError["expected"]>[number]): string[] {
  if ("text" in e) return [quote(e.text)];
  if (!("parts" in e) || e.inverted) return [];
  const has = (c: string) => e.parts.some((p) => (typeof p === "string" ? p === c : p[0] <= c && c <= p[1]));
  if (has("a") && has("Z") && has("_")) return ["a member name"];
  if (has("1") && has("9") && !has("a")) return ["a digit"];
  return [];
}

function isPeggySyntaxError(error: unknown): error is PeggySyntaxError {
  const e = error as Partial<PeggySyntaxError> | null;
  return typeof e === "object" && e !== null && typeof e.location?.start?.offset === "number";
}

/**
 * One line saying where and why `expression` fails to parse: what was found (or that the path ended)
 * at which character (1-based, in code points) after which text, what could come there (punctuation,
 * a member name, a digit; the parser's other character classes would read as raw code point ranges),
 * and the usual forms of a path. Characters that cannot be seen or printed are written as \uXXXX.
 */
function describeSyntaxError(expression: string, error: unknown): string {
  if (!isPeggySyntaxError(error)) return `${visible(error instanceof Error ? error.message : String(error))}; ${PATH_FORMS}`;
  const offset = Math.min(Math.max(error.location.start.offset, 0), expression.length);
  const before = expression.slice(0, offset);
  const after = before === "" ? "at the start" : `after ${quote(before)}`;
  const found = offset >= expression.length ? "the path ends" : `unexpected ${quote(String.fromCodePoint(expression.codePointAt(offset) ?? 0))}`;
  const words = [...new Set((error.expected ?? []).flatMap(expectationWords))];
  let expected = wordList(words, "or");
  if (offset === 0 && expected === '"$"') expected += ` (a path starts at the record, $; a fixed value is written {"literal": value})`;
  const meant = offset === 0 ? rootedPath(expression) : undefined;
  return `${found} at character ${[...before].length + 1} (${after})${expected ? `; expected ${expected}` : ""}${meant ? `; did you mean ${quote(meant)}?` : ""}; ${PATH_FORMS}`;
}

/**
 * The path that `expression` reads as when it was written without its leading `$`, as the product
 * documents write paths (`reference.answer` for `$.reference.answer`), or undefined when adding `$.`
 * (`$` before a bracket or a dot) does not make a valid path.
 */
function rootedPath(expression: string): string | undefined {
  if (expression === "" || expression.startsWith("$")) return undefined;
  const rooted = expression.startsWith("[") || expression.startsWith(".") ? `$${expression}` : `$.${expression}`;
  try {
    parse(rooted);
    return rooted;
  } catch {
    return undefined;
  }
}

/**
 * `text` in double quotes (single quotes when it holds a double quote and no single one), with every
 * character that cannot be seen or printed written as \uXXXX. For paths and characters in messages.
 */
function quote(text: string): string {
  const q = text.includes('"') && !text.includes("'") ? "'" : '"';
  return `${q}${visible(text)}${q}`;
}

/**
 * `text` with every character that cannot be seen or printed (controls, format characters, lone
 * surrogates, private-use and unassigned code points, line and paragraph separators, U+FFFD) written
 * as \uXXXX (\u{XXXXX} above U+FFFF).
 */
function visible(text: string): string {
  return text.replace(/[\p{Cc}\p{Cs}\p{Cf}\p{Co}\p{Cn}\p{Zl}\p{Zp}\uFFFD]/gu, jsEscape);
}
