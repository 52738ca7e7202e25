import { query, type JsonValue } from "jsonpath-rfc9535";
import parse from "jsonpath-rfc9535/parser";

/**
 * A compiled RFC 9535 JSONPath query (through `jsonpath-rfc9535`, which never evaluates code).
 * Queries made only of member names and indexes (`$.a.b`, `$["x y"][0]`, `$.items[-1]`) are turned
 * into plain property reads, several times faster than walking the AST on every record.
 */
export interface CompiledPath {
  readonly expression: string;
  /** Every node the query selects, in document order. */
  select(value: unknown): unknown[];
}

/** Parses `expression`; throws an Error with the parser's message when it is not valid JSONPath. */
export function compilePath(expression: string): CompiledPath {
  const ast = parse(expression);
  const steps: (string | number)[] = [];
  for (const segment of ast.segments) {
    const step = simpleStep(segment);
    if (step === undefined) {
      return { expression, select: (value) => query(value as JsonValue, expression) };
    }
    steps.push(step);
  }
  return { expression, select: (value) => selectSteps(value, steps) };
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

function selectSteps(value: unknown, steps: readonly (string | number)[]): unknown[] {
  let current: unknown = value;
  for (const step of steps) {
    if (typeof step === "string") {
      if (current === null || typeof current !== "object" || Array.isArray(current)) return [];
      if (!Object.prototype.hasOwnProperty.call(current, step)) return [];
      current = (current as Record<string, unknown>)[step];
    } else {
      if (!Array.isArray(current)) return [];
      const index = step < 0 ? current.length + step : step;
      if (index < 0 || index >= current.length) return [];
      current = current[index];
    }
    if (current === undefined) return [];
  }
  return [current];
}
