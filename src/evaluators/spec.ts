import type { z } from "zod";
import { EvalError, describeValue, formatIssues, formatPath, problemCount, type Issue } from "../errors.js";
import { canonicalInputs, compileInputs, isInputKey, type CompiledInputs, type InputSource } from "../mapping/inputs.js";
import type { EvaluatorDefinition } from "./define.js";
import { configFields, describeField, type FieldSchema } from "./describe-schema.js";
import { evaluatorTypes, findEvaluator } from "./registry.js";
import { didYouMean } from "./suggest.js";
import { BIDI_IN_NAME, codePointLabel, escapeUnprintable, hasVisible, INVISIBLE_IN_NAME, quoteForMessage, UNPRINTABLE_IN_NAME } from "../unprintable.js";

/** An evaluator as a user writes it, in JSON. */
export interface EvaluatorSpec {
  type: string;
  /** Defaults to `type`; must be unique within one run. */
  name?: string;
  config?: Record<string, unknown>;
  /** Parameter -> JSONPath or `{ "literal": value }`. */
  inputs?: Partial<Record<"output" | "expected", InputSource>>;
}

/** A spec that passed validation: its definition, its config with every default, its compiled inputs. */
export interface ParsedSpec {
  definition: EvaluatorDefinition;
  name: string;
  config: Record<string, unknown>;
  inputs: CompiledInputs;
  /** The spec as given, with the config completed by its defaults. */
  spec: EvaluatorSpec;
}

const SPEC_KEYS = ["type", "name", "config", "inputs"];
/** Where a name first holds a character of {@link UNPRINTABLE_IN_NAME}: "U+200E at character 4" (in code points). */
function unprintableInName(name: string): string {
  const chars = [...name];
  const at = chars.findIndex((c) => UNPRINTABLE_IN_NAME.test(c));
  const code = (chars[at] ?? "").codePointAt(0) ?? 0;
  return `${codePointLabel(code)} at character ${at + 1}`;
}

/**
 * Where a spec's unknown key belongs, when it is one of its type's config keys (`"threshold": 0.8` beside `type`) or an
 * input (`"output": "$.answer"`): ` Write it in "config": {"config": {"threshold": 0.8}}`. Undefined for any other key.
 */
function misplacedKey(key: string, value: unknown, definition: EvaluatorDefinition | undefined): string | undefined {
  // Own keys only: `in` finds an object's prototype's too ("constructor", "toString"), which no config has.
  const fields = definition === undefined ? {} : configFields(definition.config);
  const aliases = definition?.aliases ?? {};
  const inConfig = Object.hasOwn(fields, key) || Object.hasOwn(aliases, key);
  const under = inConfig ? "config" : isInputKey(key) ? "inputs" : undefined;
  if (under === undefined) return undefined;
  // A field never quoted (api_key_env, where a key pasted would be): not here either, as in config it is not.
  const field = inConfig ? fields[Object.hasOwn(aliases, key) ? (aliases[key] as string) : key] : undefined;
  const json = field?.redact === true ? undefined : jsonIfAny(value);
  return ` "${key}" is ${under === "config" ? `a config key of ${definition?.type}` : "an input"}: write it in "${under}": {"${under}": {${JSON.stringify(key)}: ${json === undefined || json.length > 40 ? "…" : json}}}`;
}

/** `value` as JSON, or undefined where JSON cannot write it (undefined, a function, a BigInt, a circular object): a library caller's spec. */
function jsonIfAny(value: unknown): string | undefined {
  try {
    return JSON.stringify(value) as string | undefined;
  } catch {
    return undefined;
  }
}

/**
 * Validates one spec completely, appending every problem to `issues` (paths under `at`).
 * Returns undefined when the spec cannot be used.
 */
export function parseSpec(raw: unknown, at: (string | number)[], issues: Issue[]): ParsedSpec | undefined {
  const where = at.length ? `${formatPath(at)}: ` : "";
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) {
    issues.push({ path: at, message: `${where}an evaluator spec must be an object like {"type": "levenshtein"}, received ${describeValue(raw)}`, expected: "object", received: describeValue(raw) });
    return undefined;
  }
  const spec = raw as Record<string, unknown>;
  const type = spec["type"];
  const name = spec["name"];
  // A type given as something else than a string (a number) is not "no type": it is said to be one that is not a string.
  const typeText = typeof type === "string" ? escapeUnprintable(type) : type === undefined ? "no type" : "type not a string";
  const who = `${where}evaluator ${typeof name === "string" ? `${quoteForMessage(name)} ` : ""}(${typeText})`;
  const before = issues.length;

  let definition: EvaluatorDefinition | undefined;
  if (typeof type === "string") definition = findEvaluator(type);
  for (const key of Object.keys(spec)) {
    if (!SPEC_KEYS.includes(key)) {
      issues.push({ path: [...at, key], message: `${who}: unknown key "${key}"; a spec has only ${SPEC_KEYS.join(", ")}.${misplacedKey(key, spec[key], definition) ?? didYouMean(key, SPEC_KEYS)}`, received: key });
    }
  }
  if (typeof type !== "string") {
    const wrong = type === undefined ? `"type" is required and must be a string` : `"type" must be a string, received ${describeValue(type)}`;
    issues.push({ path: [...at, "type"], message: `${who}: ${wrong}; known types: ${evaluatorTypes.join(", ")}`, expected: "string", received: describeValue(type) });
  } else if (!definition) {
    issues.push({ path: [...at, "type"], message: `${who}: unknown type ${quoteForMessage(type)}; known types: ${evaluatorTypes.join(", ")}.${didYouMean(type, evaluatorTypes)}`, received: escapeUnprintable(type) });
  }
  if (name !== undefined && (typeof name !== "string" || !hasVisible(name))) {
    // A name of only "\u200d" would head its column as a blank.
    const expected = "non-empty string with a visible character";
    issues.push({ path: [...at, "name"], message: `${who}: "name" must be a ${expected}, received ${describeValue(name)}`, expected, received: describeValue(name) });
  } else if (typeof name === "string" && UNPRINTABLE_IN_NAME.test(name)) {
    // A name is printed as it is in tables, headings and messages: a line break or an escape sequence would garble them.
    issues.push({ path: [...at, "name"], message: `${who}: "name" may not hold control characters, line separators or bidirectional marks, overrides and isolates (${BIDI_IN_NAME}) or invisible characters (${INVISIBLE_IN_NAME}); it holds ${unprintableInName(name)}`, expected: "a name that prints as one line", received: quoteForMessage(name) });
  } else if (typeof name === "string" && name.trim() !== name) {
    // "levenshtein " reads as "levenshtein" in every table, yet is another key: a typo, not a name.
    issues.push({ path: [...at, "name"], message: `${who}: "name" may not begin or end with whitespace; write ${JSON.stringify(name.trim())}`, expected: "a name without surrounding whitespace", received: JSON.stringify(name) });
  } else if (name === "__proto__") {
    // Results are keyed by name in JSON objects, where this key would set the object's prototype.
    issues.push({ path: [...at, "name"], message: `${who}: "__proto__" cannot name an evaluator (results are keyed by name); choose another name`, expected: "another name", received: '"__proto__"' });
  }
  const configKeys = definition ? [...Object.keys(configFields(definition.config)), ...Object.keys(definition.aliases ?? {})] : [];
  const inputs = compileInputs(spec["inputs"], [...at, "inputs"], issues, who, definition && { type: definition.type, configKeys });
  const config = definition ? parseConfig(definition, spec["config"], [...at, "config"], issues, who) : undefined;

  if (issues.length > before || !definition || !config) return undefined;
  const finalName = typeof name === "string" ? name : definition.type;
  const normalized: EvaluatorSpec = { type: definition.type, name: finalName, config };
  if (spec["inputs"] !== undefined) normalized.inputs = canonicalInputs(spec["inputs"] as NonNullable<EvaluatorSpec["inputs"]>);
  return { definition, name: finalName, config, inputs, spec: normalized };
}

function parseConfig(
  definition: EvaluatorDefinition,
  raw: unknown,
  at: (string | number)[],
  issues: Issue[],
  who: string,
): Record<string, unknown> | undefined {
  if (raw !== undefined && (raw === null || typeof raw !== "object" || Array.isArray(raw))) {
    issues.push({ path: at, message: `${who}: "config" must be an object, received ${describeValue(raw)}`, expected: "object", received: describeValue(raw) });
    return undefined;
  }
  const given: Record<string, unknown> = { ...((raw as Record<string, unknown> | undefined) ?? {}) };
  // Canonical key -> the alias it was given as: a problem with its value is named as the user wrote it.
  const written = new Map<string, string>();
  for (const [alias, canonical] of Object.entries(definition.aliases ?? {})) {
    if (!Object.hasOwn(given, alias)) continue;
    if (canonical in given) {
      issues.push({ path: [...at, alias], message: `${who}: give either "${canonical}" or its alias "${alias}", not both` });
      return undefined;
    }
    given[canonical] = given[alias];
    delete given[alias];
    written.set(canonical, alias);
  }
  const result = (definition.config as z.ZodType).safeParse(given, { reportInput: true });
  if (result.success) {
    const config = result.data as Record<string, unknown>;
    const problems = definition.checkConfig?.(given, config) ?? [];
    issues.push(...underConfig(problems, at, who));
    return problems.length ? undefined : config;
  }
  const fields = configFields(definition.config);
  const known = [...Object.keys(fields), ...Object.keys(definition.aliases ?? {})];
  for (const issue of result.error.issues) {
    const inner = issue.path.map((p) => (typeof p === "symbol" ? String(p) : p));
    const first = inner[0];
    const asWritten = typeof first === "string" && written.has(first) ? [written.get(first) as string, ...inner.slice(1)] : inner;
    if (issue.code === "unrecognized_keys") {
      // An unknown key of an object-valued field (rescale) is named under that field, with its own keys.
      const knownHere = inner.length === 0 ? known : Object.keys(fieldAt(fields, inner)?.properties ?? {});
      const where = (key: string) => (inner.length === 0 ? `config key "${key}"` : `key "${key}" in ${formatPath(["config", ...inner])}`);
      for (const key of issue.keys) {
        issues.push({
          path: [...at, ...inner, key],
          message: `${who}: unknown ${where(key)}; known keys: ${knownHere.join(", ")}.${didYouMean(key, knownHere)}`,
          received: key,
        });
      }
      continue;
    }
    const field = fieldAt(fields, inner);
    const expected = describeField(field);
    const input = (issue as { input?: unknown }).input;
    const received = field?.redact && typeof input === "string" ? `a string of ${input.length} characters (not shown: it may be a secret)` : describeValue(input);
    issues.push({
      path: [...at, ...asWritten],
      message: `${who}: invalid ${formatPath(["config", ...asWritten.map(String)])}: expected ${expected}, received ${received}`,
      expected,
      received,
    });
  }
  crossCheckParsedKeys(definition, given, result.error.issues, at, issues, who);
  return undefined;
}

/**
 * The checks across keys (`checkConfig`) of a config whose schema failed, run on the keys that parsed, so that
 * one error names every problem (`"threshold": "0.7"` and `"ngram_size": 4` with word tokens, not the second only
 * once the first is fixed). What they find is kept only when they read none of the keys that failed, whose
 * default would stand in for what was written (a misspelt tokenizer is not "word").
 */
function crossCheckParsedKeys(
  definition: EvaluatorDefinition,
  given: Readonly<Record<string, unknown>>,
  failed: readonly z.core.$ZodIssue[],
  at: (string | number)[],
  issues: Issue[],
  who: string,
): void {
  if (!definition.checkConfig) return;
  const bad = new Set<string>();
  for (const issue of failed) {
    if (issue.code === "unrecognized_keys" && issue.path.length === 0) for (const key of issue.keys) bad.add(key);
    else if (typeof issue.path[0] === "string") bad.add(issue.path[0]);
    else return;
  }
  const rest = Object.fromEntries(Object.entries(given).filter(([key]) => !bad.has(key)));
  const parsed = (definition.config as z.ZodType).safeParse(rest);
  if (!parsed.success) return;
  let readBad = false;
  const watched = (o: Record<string, unknown>) =>
    new Proxy(o, {
      get: (target, key, receiver) => {
        if (typeof key === "string" && bad.has(key)) readBad = true;
        return Reflect.get(target, key, receiver) as unknown;
      },
      has: (target, key) => {
        if (typeof key === "string" && bad.has(key)) readBad = true;
        return Reflect.has(target, key);
      },
      ownKeys: (target) => {
        readBad = true;
        return Reflect.ownKeys(target);
      },
    });
  const problems = definition.checkConfig(watched(rest), watched(parsed.data as Record<string, unknown>));
  if (readBad) return;
  issues.push(...underConfig(problems, at, who));
}

/** `checkConfig`'s problems (paths under the config) as the spec's issues: under `at`, the evaluator named first. */
function underConfig(problems: readonly Issue[], at: (string | number)[], who: string): Issue[] {
  return problems.map((p) => ({ ...p, path: [...at, ...p.path], message: `${who}: ${p.message}` }));
}

/**
 * The field at `path` in a config's fields: `["rescale", "from"]` is rescale's own field `from`, whose
 * description ("a number in [-1, 1)") is what the value there must be, not rescale's ("an object {…}").
 */
function fieldAt(fields: Record<string, FieldSchema>, path: readonly (string | number)[]): FieldSchema | undefined {
  const [first, ...rest] = path;
  let field = typeof first === "string" && Object.hasOwn(fields, first) ? fields[first] : undefined;
  for (const key of rest) field = typeof key === "string" && field?.properties && Object.hasOwn(field.properties, key) ? field.properties[key] : undefined;
  return field;
}

/**
 * Throws one CONFIG_INVALID error listing every issue, or UNKNOWN_EVALUATOR when that is the only problem, with
 * `cause` (the error an evaluator's creation threw, such as a provider factory's, when there was one) as its cause.
 */
export function throwIssues(issues: Issue[], cause?: unknown): never {
  const onlyUnknownType = issues.every((i) => i.path[i.path.length - 1] === "type" && i.message.includes("unknown type"));
  const count = problemCount(issues.length);
  throw new EvalError(onlyUnknownType ? "UNKNOWN_EVALUATOR" : "CONFIG_INVALID", `Invalid evaluator configuration (${count}):\n${formatIssues(issues)}`, { issues, cause });
}
