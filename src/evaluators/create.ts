import { argumentError, EvalError, formatPath, isPlainObject, type Issue } from "../errors.js";
import { refuseUnknownKeys } from "../unknown-keys.js";
import { toText } from "../mapping/to-text.js";
import type { Direction, EvalRecord, EvalResult } from "../types.js";
import type { EvaluatorEnv, ScoreArgs, Scored, Scorer } from "./define.js";
import { findEvaluator } from "./registry.js";
import { sameNames } from "./same-names.js";
import { parseSpec, throwIssues, type EvaluatorSpec, type ParsedSpec } from "./spec.js";

/** What a summary needs of a result: see {@link Evaluator.verdictNow}. */
export type EvalVerdict = Pick<EvalResult, "score" | "passed" | "skipped">;

/** A configured evaluator, ready to score records. */
export interface Evaluator {
  readonly name: string;
  readonly type: string;
  readonly direction: Direction;
  /** The config with every default filled in. */
  readonly config: Readonly<Record<string, unknown>>;
  /** The score at which a row passes (for reports), or null when the evaluator has none. */
  readonly threshold: number | null;
  /** The spec as given, named (its type when it had no name) and with the config completed by its defaults. */
  readonly spec: EvaluatorSpec;
  /**
   * True when it sends texts to a network service (semantic_similarity with the openai provider): its
   * cost is per text, not CPU, so a run keeps it to one scoring thread by default, where each distinct
   * text is sent once.
   */
  readonly remote: boolean;
  /**
   * Scores one record. Rejects with an INPUT_INVALID EvalError when the record cannot be read, and when
   * it is not an object (null, a string, an array...): that message names the evaluator and the method,
   * e.g. `evaluator "strict" (exact_match).evaluate: the record must be an object such as {...}, received null`.
   */
  evaluate(record: EvalRecord): Promise<EvalResult>;
  /** Like {@link evaluate}, but returns the result directly when the evaluator is synchronous. For runners. */
  evaluateNow(record: EvalRecord): EvalResult | Promise<EvalResult>;
  /**
   * The score, verdict and skip of {@link evaluateNow}'s result without its reasoning and details, at a
   * fraction of the cost: for runs that keep only the summary. Present only on synchronous evaluators
   * (their `evaluateNow` never returns a Promise).
   */
  verdictNow?: (record: EvalRecord) => EvalVerdict;
  /** Loads what the evaluator needs before the first record (e.g. word vectors); rejects with a clear error when it cannot. */
  ready(): Promise<void>;
  /** The two texts this evaluator would compare for `record` (null when not provided), for reports. */
  texts(record: EvalRecord): { output: string | null; expected: string | null };
}

/**
 * Creates an evaluator from a JSON spec `{ type, name?, config?, inputs? }`, validating it completely
 * first: every problem is reported at once in one EvalError (CONFIG_INVALID or UNKNOWN_EVALUATOR).
 * An `env` that is not an {@link EvaluatorEnv} (null, a number, a field of the wrong kind) is refused
 * first, with CONFIG_INVALID naming it.
 */
export function createEvaluator(spec: unknown, env: EvaluatorEnv = {}): Evaluator {
  checkEnv("createEvaluator", env);
  const issues: Issue[] = [];
  const parsed = parseSpec(spec, [], issues);
  if (!parsed) throwIssues(issues);
  try {
    return build(parsed, { ...env });
  } catch (error) {
    // Its cause kept: what a provider factory of one's own threw, say, with its stack.
    throwIssues(creationIssues(error, parsed, spec, []), (error as EvalError).cause);
  }
}

/**
 * The issues of an error thrown while building a parsed spec (an unknown embedding provider, a missing
 * API key), under `at` and naming the evaluator as the spec's own checks do; any other error is rethrown.
 */
function creationIssues(error: unknown, parsed: ParsedSpec, raw: unknown, at: (string | number)[]): Issue[] {
  if (!(error instanceof EvalError) || error.issues.length === 0) throw error;
  const given = (raw as Record<string, unknown>)["name"];
  const who = `${at.length ? `${formatPath(at)}: ` : ""}evaluator ${typeof given === "string" ? `${JSON.stringify(given)} ` : ""}(${parsed.definition.type})`;
  return error.issues.map((issue) => ({ ...issue, path: [...at, ...issue.path], message: `${who}: ${issue.message}` }));
}

/**
 * Creates several evaluators at once, as a run does: every problem of every spec is reported together,
 * in the order of the specs (a spec's problems in the order found), and two evaluators may not share a
 * name (results are keyed by name). `at` is where the specs are (default `["evaluators"]`), the start of
 * every issue's path; one that is not an array of strings and numbers is refused with CONFIG_INVALID.
 */
export function createEvaluators(specs: unknown, env: EvaluatorEnv = {}, at: (string | number)[] = ["evaluators"]): Evaluator[] {
  checkEnv("createEvaluators", env);
  checkAt("createEvaluators", at);
  const issues: Issue[] = [];
  const parsed = parseSpecs(specs, at, issues);
  // Creation can fail too (an unknown embedding provider, say): collect those from every spec that parsed as
  // well, with the problems above, so that one error lists every problem.
  const built: Evaluator[] = [];
  // The cause of the first creation that threw one (a provider factory's error), for the error listing every issue.
  let cause: unknown;
  // One env object of this call's own: evaluators made together may share what they build from it (see
  // semantic_similarity's providers), and nothing is shared with, or kept for, another call.
  const together = { ...env };
  parsed.forEach((p, i) => {
    if (!p) return;
    try {
      built.push(build(p, together));
    } catch (error) {
      issues.push(...creationIssues(error, p, (specs as unknown[])[i], [...at, i]));
      cause ??= (error as EvalError).cause;
    }
  });
  if (issues.length) throwIssues(inSpecOrder(issues, at.length), cause);
  return built;
}

/**
 * Throws what {@link createEvaluators} throws for `specs` when they would not make evaluators, without building
 * any: every problem of every spec, and names shared, in one CONFIG_INVALID (UNKNOWN_EVALUATOR when an unknown
 * type is the only problem). What only building finds is not checked: an embedding provider that the caller's
 * `env` lacks, a missing API key (so a spec of `semantic_similarity` with the openai provider passes without one).
 * Returns the specs as {@link Evaluator.spec} gives them: named, and each config completed by its defaults.
 * For a run store, which records specs that other processes build later. Issue paths start at `evaluators`, as
 * {@link createEvaluators}' do by default.
 */
export function checkEvaluatorSpecs(specs: unknown): EvaluatorSpec[] {
  return parsedSpecs("checkEvaluatorSpecs", specs, ["evaluators"]).map((p) => p.spec);
}

/** What a summary needs of an evaluator: its name, type, direction and pass threshold ({@link Evaluator}'s). */
type EvaluatorOutline = Pick<Evaluator, "name" | "type" | "direction" | "threshold">;

/**
 * The name, type, direction and threshold that {@link createEvaluators} would give each of `specs`, in their
 * order, without building any (so no embedding provider is loaded and no API key is needed), after the checks of
 * {@link checkEvaluatorSpecs}, which throws as it does: for summarizing a run whose rows were scored elsewhere.
 */
export function outlineEvaluatorSpecs(specs: unknown, at: (string | number)[] = ["evaluators"]): EvaluatorOutline[] {
  return parsedSpecs("outlineEvaluatorSpecs", specs, at).map(({ definition, name, config }) => ({ name, type: definition.type, direction: definition.direction, threshold: thresholdOf(definition, config) }));
}

/** Every spec of `specs` parsed, or the error of {@link createEvaluators} for all their problems; `fn` names the caller. */
function parsedSpecs(fn: string, specs: unknown, at: (string | number)[]): ParsedSpec[] {
  checkAt(fn, at);
  const issues: Issue[] = [];
  const parsed = parseSpecs(specs, at, issues);
  if (issues.length) throwIssues(inSpecOrder(issues, at.length));
  return parsed as ParsedSpec[];
}

/** A row passes at this score (for reports): the definition's `passThreshold`, else `config.threshold` when it is a number, else null. */
function thresholdOf(definition: ParsedSpec["definition"], config: Readonly<Record<string, unknown>>): number | null {
  return definition.passThreshold ? definition.passThreshold(config) : typeof config["threshold"] === "number" ? config["threshold"] : null;
}

/** Throws CONFIG_INVALID naming `fn` unless `at` is a path (an array of strings and numbers). */
function checkAt(fn: string, at: unknown): void {
  if (!Array.isArray(at) || at.some((part) => typeof part !== "string" && typeof part !== "number")) {
    throw argumentError("CONFIG_INVALID", fn, "at", 'a path (an array of strings and numbers, such as ["evaluators"]) or nothing', at);
  }
}

/**
 * Parses every spec of `specs` ({@link parseSpec}), appending every problem to `issues` (paths under `at`),
 * and names shared by two specs; throws at once when `specs` is not a non-empty array. One entry per spec,
 * undefined where the spec cannot be used.
 */
function parseSpecs(specs: unknown, at: (string | number)[], issues: Issue[]): (ParsedSpec | undefined)[] {
  if (!Array.isArray(specs) || specs.length === 0) {
    issues.push({ path: at, message: `${at.join(".")} must be a non-empty array of evaluator specs` });
    throwIssues(issues);
  }
  const parsed = specs.map((spec, i) => parseSpec(spec, [...at, i], issues));
  // Names are checked for every spec, valid or not, so that a duplicate shows with the other problems; one differing
  // only in case is refused like an exact duplicate (sameNames).
  const names = parsed.map((p, i) => p?.name ?? nameOf(specs[i]));
  // A spec without "name" is named by its type, which the reader of the config does not see as a name.
  const byType = (spec: unknown) => (typeof spec === "object" && spec !== null && (spec as Record<string, unknown>)["name"] === undefined ? ` (its type: it gives no "name")` : "");
  for (const { at: i, first } of sameNames(names)) {
    const [name, other] = [names[i] as string, names[first] as string];
    const how = other === name ? "is already used by" : `differs only in case from ${JSON.stringify(other)}, the name of`;
    issues.push({ path: [...at, i, "name"], message: `${at.join(".")}[${i}]: the name "${name}"${byType(specs[i])} ${how} ${at.join(".")}[${first}]${byType(specs[first])}; give each evaluator a unique "name"` });
  }
  return parsed;
}

/** The fields of an {@link EvaluatorEnv}, and what each must be. */
const ENV_FIELDS: Record<keyof EvaluatorEnv, string> = {
  embeddingProviders: "an object of embedding provider factories by name",
  embeddingCache: "an embedding cache ({ key, get, put })",
  datasetIdf: "a function (evaluatorName) => IdfTable",
  notice: "a function (message) => void",
};

/**
 * Throws CONFIG_INVALID, naming `fn` and the field, unless `env` is an object whose fields are known and what
 * they must be: `createEvaluator(spec, null)` was accepted, to throw a TypeError when an evaluator read it.
 */
function checkEnv(fn: string, env: unknown): void {
  const bad = (path: string[], expected: string, value: unknown) => argumentError("CONFIG_INVALID", fn, formatPath(["env", ...path]), expected, value, ["env", ...path]);
  if (!isPlainObject(env)) throw bad([], `an object ({ ${Object.keys(ENV_FIELDS).map((k) => `${k}?`).join(", ")} }) or nothing`, env);
  refuseUnknownKeys(fn, "env", env, Object.keys(ENV_FIELDS));
  const { embeddingProviders, embeddingCache, datasetIdf, notice } = env;
  if (embeddingProviders !== undefined) {
    if (!isPlainObject(embeddingProviders)) throw bad(["embeddingProviders"], ENV_FIELDS.embeddingProviders, embeddingProviders);
    for (const [name, factory] of Object.entries(embeddingProviders)) if (typeof factory !== "function") throw bad(["embeddingProviders", name], "a function (an embedding provider factory)", factory);
  }
  if (embeddingCache !== undefined) {
    if (!isPlainObject(embeddingCache)) throw bad(["embeddingCache"], ENV_FIELDS.embeddingCache, embeddingCache);
    for (const method of ["key", "get", "put"]) if (typeof embeddingCache[method] !== "function") throw bad(["embeddingCache", method], "a function", embeddingCache[method]);
  }
  if (datasetIdf !== undefined && typeof datasetIdf !== "function") throw bad(["datasetIdf"], ENV_FIELDS.datasetIdf, datasetIdf);
  if (notice !== undefined && typeof notice !== "function") throw bad(["notice"], ENV_FIELDS.notice, notice);
}

/**
 * `issues` sorted by the index of the spec they are about (`path[depth]`), stably: the checks run in
 * passes over every spec (the specs, then their names), which would list evaluators[2]'s problem before
 * evaluators[1]'s duplicate name.
 */
function inSpecOrder(issues: Issue[], depth: number): Issue[] {
  const index = (issue: Issue) => {
    const i = issue.path[depth];
    return typeof i === "number" ? i : -1;
  };
  return issues.sort((a, b) => index(a) - index(b));
}

/** The name an invalid spec would have: its `name` when that is a non-empty string, else a known `type`. */
function nameOf(raw: unknown): string | undefined {
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) return undefined;
  const { name, type } = raw as Record<string, unknown>;
  if (name !== undefined) return typeof name === "string" && name.trim() !== "" ? name : undefined;
  return typeof type === "string" ? findEvaluator(type)?.type : undefined;
}

/**
 * Throws INPUT_INVALID unless `record` is an object (not null, not an array): a record of another kind
 * has no output or expected to read, and is a caller's mistake rather than a row without a reference.
 * The message names the evaluator (`who`, see {@link evaluatorLabel}) and its `method` that was called,
 * for a service that holds many evaluators and sees only the error.
 */
function checkRecord(record: unknown, who: string, method: string): asserts record is EvalRecord {
  if (isPlainObject(record)) return;
  throw argumentError("INPUT_INVALID", `${who}.${method}`, "the record", 'an object such as {"output": "...", "expected": "..."}', record, []);
}

/** How an error names an evaluator: `evaluator "name"`, with its type after when the name is not the type. */
function evaluatorLabel(name: string, type: string): string {
  return `evaluator ${JSON.stringify(name)}${name === type ? "" : ` (${type})`}`;
}

function build(parsed: ParsedSpec, env: EvaluatorEnv): Evaluator {
  const { definition, name, config, inputs, spec } = parsed;
  const scorer: Scorer = definition.create(config, env, name);
  const normalization = config["unicode_normalization"] as "NFC" | "NFKC" | undefined;
  const skippedScore = definition.direction === "minimize" ? null : 0;
  const mapped = spec.inputs?.expected;
  const expectedFrom = typeof mapped === "string" ? `"${mapped}" matched nothing or null` : mapped ? "the literal is null" : 'neither "expected" nor "metadata.expectedOutput"';

  const finish = (scored: Scored, outputNote: string): EvalResult => ({
    name,
    type: definition.type,
    score: scored.score,
    passed: scored.passed,
    label: scored.passed === null ? null : scored.passed ? "pass" : "fail",
    reasoning: outputNote + scored.reasoning,
    skipped: false,
    details: scored.details,
  });

  /** The two texts to score, or null when the row has no expected output (skipped). */
  const who = evaluatorLabel(name, definition.type);
  const argsOf = (record: EvalRecord, method: string): (ScoreArgs & { outputMissing: boolean }) | null => {
    checkRecord(record, who, method);
    const expected = inputs.expected(record);
    if (expected === undefined || expected === null) return null;
    const rawOutput = inputs.output(record);
    const outputMissing = rawOutput === undefined || rawOutput === null;
    let output = outputMissing ? "" : toText(rawOutput, "output");
    let reference = toText(expected, "expected");
    if (normalization) {
      output = output.normalize(normalization);
      reference = reference.normalize(normalization);
    }
    return { output, expected: reference, outputMissing };
  };

  /** {@link Evaluator.evaluateNow}; `method` is the one the caller called, for the error of a record that is not an object. */
  const evaluateAs = (record: EvalRecord, method: string): EvalResult | Promise<EvalResult> => {
    const args = argsOf(record, method);
    if (args === null) {
      return {
        name,
        type: definition.type,
        score: skippedScore,
        passed: false,
        label: "fail",
        reasoning: `No expected output was provided (${expectedFrom}), so the comparison could not be performed; score ${skippedScore === null ? "null" : "0.0"}, skipped.`,
        skipped: true,
        details: {},
      };
    }
    const note = args.outputMissing ? "The output was missing and is scored as the empty string. " : "";
    const scored = scorer(args);
    return scored instanceof Promise ? scored.then((s) => finish(s, note)) : finish(scored, note);
  };

  const verdictOf = scorer.verdict;
  const verdictNow = verdictOf
    ? (record: EvalRecord): EvalVerdict => {
        const args = argsOf(record, "verdictNow");
        if (args === null) return { score: skippedScore, passed: false, skipped: true };
        const v = verdictOf(args);
        return { score: v.score, passed: v.passed, skipped: false };
      }
    : undefined;

  const texts = (record: EvalRecord) => {
    checkRecord(record, who, "texts");
    const text = (v: unknown, what: string) => (v === undefined || v === null ? null : toText(v, what));
    return { output: text(inputs.output(record), "output"), expected: text(inputs.expected(record), "expected") };
  };

  return {
    name,
    type: definition.type,
    direction: definition.direction,
    config,
    threshold: thresholdOf(definition, config),
    spec,
    remote: scorer.remote === true,
    texts,
    ready: async () => {
      await scorer.ready?.();
    },
    evaluateNow: (record) => evaluateAs(record, "evaluateNow"),
    ...(verdictNow ? { verdictNow } : {}),
    evaluate: async (record) => evaluateAs(record, "evaluate"),
  };
}

