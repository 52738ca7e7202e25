import { EvalError, describeValue, type Issue } from "../errors.js";
import { didYouMean } from "../evaluators/suggest.js";
import { compilePath, type CompiledPath } from "./jsonpath.js";
import { toText } from "./to-text.js";
import { cutText } from "../cut-text.js";

/** The parameters an evaluator reads from a record. */
const PARAMETERS = ["output", "expected"] as const;
export type Parameter = (typeof PARAMETERS)[number];

/** Where a parameter comes from: a JSONPath expression, or a fixed value. */
export type InputSource = string | { literal: unknown };

/** Default mapping: `$.output`; `$.expected`, falling back to `$.metadata.expectedOutput` (a trace's reference). */
export const DEFAULT_INPUTS: Readonly<Record<Parameter, readonly string[]>> = {
  output: ["$.output"],
  expected: ["$.expected", "$.metadata.expectedOutput"],
};

/** Other names of a parameter: the Levenshtein distance document calls the text to evaluate `actual`. */
const INPUT_ALIASES: Readonly<Record<string, Parameter>> = { actual: "output" };

/** Whether `key` names an input: a parameter (`output`) or another name for one (`actual`). */
export function isInputKey(key: string): boolean {
  return (PARAMETERS as readonly string[]).includes(key) || Object.hasOwn(INPUT_ALIASES, key);
}

/** A mapping with every alias replaced by its parameter's own name (`actual` → `output`), for specs as recorded and compared. */
export function canonicalInputs<T>(inputs: Readonly<Record<string, T>>): Record<string, T> {
  const out: Record<string, T> = {};
  for (const [key, source] of Object.entries(inputs)) out[INPUT_ALIASES[key] ?? key] = source;
  return out;
}

type Resolver = (record: unknown) => unknown;

export type CompiledInputs = Readonly<Record<Parameter, Resolver>>;

/**
 * Validates an `inputs` mapping and compiles it. Problems are appended to `issues` (paths under `at`),
 * never thrown, so that every problem of a config is reported at once.
 * A parameter left unmapped uses {@link DEFAULT_INPUTS}; its fallbacks apply only then. An alias
 * ({@link INPUT_ALIASES}) maps its parameter; giving both is an issue. A key of the evaluator's config
 * given as an input (`configKeys` of `type`: the Levenshtein distance document maps `case_sensitive` as it
 * maps the texts) is named as a config key.
 */
export function compileInputs(
  raw: unknown,
  at: (string | number)[],
  issues: Issue[],
  who: string,
  evaluator?: { type: string; configKeys: readonly string[] },
): CompiledInputs {
  const chosen: Partial<Record<Parameter, Resolver>> = {};
  if (raw !== undefined) {
    if (raw === null || typeof raw !== "object" || Array.isArray(raw)) {
      issues.push({ path: at, message: `${who}: inputs must be an object mapping ${PARAMETERS.join(" / ")} to a JSONPath or {"literal": value}, received ${describeValue(raw)}`, received: describeValue(raw) });
    } else {
      for (const [key, source] of Object.entries(raw)) {
        const path = [...at, key];
        const parameter = INPUT_ALIASES[key] ?? key;
        if (!(PARAMETERS as readonly string[]).includes(parameter)) {
          const known = `known inputs: ${PARAMETERS.join(", ")} (${aliasList()}).`;
          const message = evaluator?.configKeys.includes(key)
            ? `${who}: unknown input "${key}": it is a config key of ${evaluator.type}; set it in "config" (it applies to every row and is not read from the record); ${known}`
            : `${who}: unknown input "${key}"; ${known}${didYouMean(key, [...PARAMETERS, ...Object.keys(INPUT_ALIASES)])}`;
          issues.push({ path, message, received: key });
          continue;
        }
        if (parameter !== key && parameter in raw) {
          issues.push({ path, message: `${who}: "${key}" is another name for the input "${parameter}", which is also given; keep one`, received: key });
          continue;
        }
        const resolver = compileSource(source, key, path, issues, who);
        if (resolver) chosen[parameter as Parameter] = resolver;
      }
    }
  }
  const result = {} as Record<Parameter, Resolver>;
  for (const p of PARAMETERS) result[p] = chosen[p] ?? firstOf(DEFAULT_INPUTS[p].map((e) => pathResolver(compilePath(e), p)));
  return result;
}

function compileSource(source: unknown, input: string, at: (string | number)[], issues: Issue[], who: string): Resolver | undefined {
  if (typeof source === "string") {
    const trimmed = source.trim();
    const padded = trimmed !== "" && trimmed !== source;
    if (padded) {
      // RFC 9535 allows no whitespace around a query: say so, rather than where the parser stopped.
      const where = [source.startsWith(trimmed) ? "" : "start", source.endsWith(trimmed) ? "" : "end"].filter(Boolean).join(" and ");
      issues.push({
        path: at,
        message: `${who}: input "${input}": the JSONPath ${JSON.stringify(source)} has whitespace at its ${where}, which a JSONPath may not have; remove it: ${JSON.stringify(trimmed)}`,
        expected: "a JSONPath without leading or trailing whitespace",
        received: JSON.stringify(source),
      });
    }
    try {
      const path = compilePath(trimmed === "" ? source : trimmed);
      return padded ? undefined : pathResolver(path, input);
    } catch (error) {
      // compilePath's message names the path, the position, what was found and the usual forms.
      if (!(error instanceof EvalError)) throw error;
      issues.push({
        path: at,
        message: `${who}: input "${input}": ${error.message}`,
        expected: "a JSONPath such as $.answer or $.metadata.reference",
        received: source,
      });
      return undefined;
    }
  }
  if (source !== null && typeof source === "object" && !Array.isArray(source) && "literal" in source && Object.keys(source).length === 1) {
    const value = (source as { literal: unknown }).literal;
    const problem = literalProblem(value, input, [...at, "literal"]);
    if (problem) {
      issues.push({ ...problem, message: `${who}: ${problem.message}` });
      return undefined;
    }
    return () => value;
  }
  const keys = source !== null && typeof source === "object" && !Array.isArray(source) ? Object.keys(source) : undefined;
  const received = keys ? describeKeys(keys) : describeValue(source);
  const literalPlus = keys?.includes("literal") ? '; {"literal": value} has no other key' : "";
  issues.push({
    path: at,
    message: `${who}: input "${input}" must be a JSONPath string (such as "$.answer") or {"literal": value}, received ${received}${literalPlus}`,
    expected: 'a JSONPath string or {"literal": value}',
    received,
  });
  return undefined;
}

/**
 * Why a literal cannot be used, or undefined when it can. A literal is used as text on every row (see
 * `toText`), so one that has none (a BigInt, a function, a circular structure, a failing `toJSON`, NaN or
 * ±Infinity: what JSON.parse makes of 1e400) would fail every row: it is refused when the evaluator is created.
 */
function literalProblem(value: unknown, input: string, at: (string | number)[]): Issue | undefined {
  try {
    toText(value, `input "${input}" (a literal)`);
    return undefined;
  } catch (error) {
    if (!(error instanceof EvalError)) throw error;
    const found = error.issues[0];
    return { path: [...at, ...(found?.path.slice(1) ?? [])], message: error.message, ...(found?.expected === undefined ? {} : { expected: found.expected }), ...(found?.received === undefined ? {} : { received: found.received }) };
  }
}

/** An object given as an input, by its keys (the first five, each cut at 40 characters): `an object with the key "path"`. */
function describeKeys(keys: string[]): string {
  if (keys.length === 0) return "an empty object";
  const shown = keys.slice(0, 5).map((k) => JSON.stringify(cutText(k, 40)));
  const more = keys.length > 5 ? ` and ${keys.length - 5} more` : "";
  return `an object with the key${keys.length === 1 ? "" : "s"} ${shown.join(", ")}${more}`;
}

/**
 * null and no match both mean "not provided"; several matches are an error for that record, naming
 * `input` (the parameter as the mapping writes it, e.g. "output") as `toText`'s errors do, and the path.
 */
function pathResolver(path: CompiledPath, input: string): Resolver {
  const one = path.selectOne;
  if (one) return (record) => one(record) ?? undefined;
  return (record) => {
    const nodes = path.select(record);
    if (nodes.length > 1) {
      const message = `${input}: JSONPath ${path.expression} matched ${nodes.length} values; it must select at most one`;
      throw new EvalError("INPUT_INVALID", message, { issues: [{ path: [input], message, expected: "at most one value", received: `${nodes.length} values` }] });
    }
    return nodes[0] ?? undefined;
  };
}

function firstOf(resolvers: Resolver[]): Resolver {
  if (resolvers.length === 1) return resolvers[0] as Resolver;
  return (record) => {
    for (const r of resolvers) {
      const v = r(record);
      if (v !== undefined && v !== null) return v;
    }
    return undefined;
  };
}

function aliasList(): string {
  return Object.entries(INPUT_ALIASES)
    .map(([alias, parameter]) => `"${alias}" for ${parameter}`)
    .join(", ");
}
