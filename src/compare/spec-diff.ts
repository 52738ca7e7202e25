/**
 * How two recorded specs of one evaluator (same name, same type) differ, for the comparison's warnings:
 * scores made with another config or other inputs may differ because of that, not because of the outputs.
 */
import type { Issue } from "../errors.js";
import { parseSpec, type EvaluatorSpec } from "../evaluators/spec.js";
import { canonicalInputs, DEFAULT_INPUTS, type Parameter } from "../mapping/inputs.js";
import { canonicalJson } from "../mapping/to-text.js";

/** Config keys that decide pass/fail from the score and change no score. */
const VERDICT_KEYS: ReadonlySet<string> = new Set(["threshold"]);
/** Config keys that change how a provider is called (batches, retries, limits, where the cache lives), never a score or verdict. */
const OPERATIONAL_KEYS: ReadonlySet<string> = new Set(["batch_size", "concurrency", "timeout_ms", "max_retries", "cache_dir", "api_key_env"]);

/** One key whose value differs between the runs: its values as shown ("default" when not given). */
interface KeyDifference {
  key: string;
  a: string;
  b: string;
}

/** The config and inputs keys of one evaluator that differ between run A's spec and run B's. */
interface SpecDifferences {
  config: KeyDifference[];
  inputs: KeyDifference[];
}

/**
 * Compares the specs canonically: key order does not matter, and each config is first completed with its
 * evaluator's defaults and aliases (as a run does), so `{}` and `{"trim": true}` are the same exact_match config.
 * A spec that no longer parses (an evaluator changed since the run) is compared as recorded. An input
 * left unmapped is its default path when that is a single path (`output`: `"$.output"`), else "default"
 * (`expected`'s default falls back to `$.metadata.expectedOutput`, which an explicit path does not).
 * Keys that change neither scores nor verdicts ({@link OPERATIONAL_KEYS}) are left out.
 */
export function specDifferences(a: EvaluatorSpec, b: EvaluatorSpec): SpecDifferences {
  const na = normalized(a);
  const nb = normalized(b);
  const config = keyDifferences(na.config, nb.config).filter((d) => !OPERATIONAL_KEYS.has(d.key));
  return { config, inputs: keyDifferences(na.inputs, nb.inputs) };
}

/**
 * The warning for an evaluator whose specs differ, or null when they do not, e.g.
 * `exact_match: config differs between the runs (case_sensitive: false vs true), so its scores may differ
 * because of that, not the outputs`. When only the threshold differs, the scores are comparable and the
 * warning says that pass/fail is decided differently.
 */
export function specDifferenceWarning(name: string, a: EvaluatorSpec, b: EvaluatorSpec): string | null {
  const d = specDifferences(a, b);
  const parts: string[] = [];
  if (d.config.length) parts.push(`config differs between the runs (${listDifferences(d.config)})`);
  if (d.inputs.length) parts.push(`inputs differ between the runs (${listDifferences(d.inputs)})`);
  if (!parts.length) return null;
  const effect = scoreKeys(d).length === 0 ? "so its scores compare, but pass/fail is decided differently" : "so its scores may differ because of that, not the outputs";
  return `${name}: ${parts.join("; ")}, ${effect}`;
}

/** The differing keys that can change scores: config keys other than the threshold, and inputs (as `inputs.output`). */
export function scoreKeys(d: SpecDifferences): string[] {
  return [...d.config.filter((k) => !VERDICT_KEYS.has(k.key)).map((k) => k.key), ...d.inputs.map((k) => `inputs.${k.key}`)];
}

function listDifferences(diffs: readonly KeyDifference[]): string {
  return diffs.map((d) => `${d.key}: ${d.a} vs ${d.b}`).join("; ");
}

/** The spec's config with its defaults (when it still parses) and its inputs, as plain records. */
function normalized(spec: EvaluatorSpec): { config: Record<string, unknown>; inputs: Record<string, unknown> } {
  const issues: Issue[] = [];
  const parsed = parseSpec(spec, [], issues);
  const inputs: Record<string, unknown> = canonicalInputs(spec.inputs ?? {});
  for (const [p, paths] of Object.entries(DEFAULT_INPUTS) as [Parameter, readonly string[]][]) {
    if (inputs[p] === undefined && paths.length === 1) inputs[p] = paths[0];
  }
  return { config: parsed?.config ?? spec.config ?? {}, inputs };
}

/** Keys of either record whose canonical JSON differs, sorted; a missing (or undefined) value shows as "default". */
function keyDifferences(a: Record<string, unknown>, b: Record<string, unknown>): KeyDifference[] {
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
  const out: KeyDifference[] = [];
  for (const key of keys) {
    const va = shown(a[key]);
    const vb = shown(b[key]);
    if (va !== vb) out.push({ key, a: va, b: vb });
  }
  return out;
}

function shown(value: unknown): string {
  if (value === undefined) return "default";
  try {
    return canonicalJson(value);
  } catch {
    return String(value); // recorded specs are JSON: not expected
  }
}
