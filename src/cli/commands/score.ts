import { statIfAny } from "../stat-if-any.js";
import { builtinEmbeddingProviders } from "../../embeddings/registry.js";
import { createEvaluator } from "../../evaluators/create.js";
import { evaluatorTypes, findEvaluator } from "../../evaluators/registry.js";
import { didYouMean } from "../../evaluators/suggest.js";
import { quoteForMessage } from "../../unprintable.js";
import { wordList } from "../../word-list.js";
import { EvalError } from "../../errors.js";
import type { EvalRecord } from "../../types.js";
import { EXIT } from "../exit-codes.js";
import { warn, type CliIO } from "../io.js";
import { parseJsonOption } from "../json-option.js";

export interface ScoreOptions {
  type: string;
  name?: string;
  config?: string;
  inputs?: string;
  output?: string;
  expected?: string;
  record?: string;
}

/**
 * A JSON option of `score`, given as text. A value that is not JSON but names a file (`score --config
 * evals.json`, as `run --config` takes one) is said to be a file, which the option does not read: the JSON
 * parser's complaint alone ("Unexpected token 'e'") left the user to guess.
 */
function parseTextOption(flag: string, text: string, takes: string): unknown {
  try {
    return parseJsonOption(flag, text);
  } catch (error) {
    if (statIfAny(text)?.isFile()) throw new EvalError("USAGE", `${flag} ${text}: score's ${flag} takes JSON text, not a file: ${takes}`);
    throw error;
  }
}

/**
 * Refuses a `--config` that holds what run's config file holds, `{"evaluators": [...]}`, or one spec
 * (`{"type": ..., "config": {...}}`), where score takes the config object alone: no evaluator has a config
 * key `evaluators`, `type` or `config`, and the unknown-key issues that validation gave named the keys but not
 * the mix-up.
 */
function notASpec(config: unknown): unknown {
  if (config === null || typeof config !== "object" || Array.isArray(config)) return config;
  const example = `such as '{"threshold":0.9}', with the type as --type`;
  if ("evaluators" in config) {
    throw new EvalError("USAGE", `--config holds {"evaluators": [...]}, which run's --config file holds; score's --config takes one evaluator's config itself, ${example}`);
  }
  if ("type" in config || "config" in config) {
    throw new EvalError("USAGE", `--config holds an evaluator spec ({"type": ..., "config": {...}}); score's --config takes only its "config" object, ${example} (and its "inputs" as --inputs)`);
  }
  return config;
}

/**
 * `simeval score`: one evaluator on one pair; prints the result as JSON. Exit 0 pass or no verdict, 1 fail.
 * Without --record, --output and --expected are both required unless --inputs maps them (a forgotten one
 * is a usage error, exit 2, not a failed check).
 */
export async function scoreCommand(opts: ScoreOptions, io: CliIO): Promise<number> {
  // A flag's value, said as one (exit 2), rather than as an evaluator spec's "evaluator (): unknown type" with a JSON path.
  if (!findEvaluator(opts.type)) {
    throw new EvalError("USAGE", `--type ${quoteForMessage(opts.type)} is not an evaluator type; expected ${wordList(evaluatorTypes, "or")} (\`simeval list\` describes each).${didYouMean(opts.type, evaluatorTypes)}`);
  }
  const spec: Record<string, unknown> = { type: opts.type };
  if (opts.name !== undefined) spec["name"] = opts.name;
  if (opts.config !== undefined) spec["config"] = notASpec(parseTextOption("--config", opts.config, `the evaluator's config itself, such as '{"threshold":0.9}'; run's --config takes an EVALS.json file`));
  if (opts.inputs !== undefined) spec["inputs"] = parseTextOption("--inputs", opts.inputs, `the mapping itself, such as '{"output":"$.answer"}'`);
  // A provider's notices (a wait before a retry; a warning, which begins "warning: ") are said as run says them.
  const evaluator = createEvaluator(spec, { embeddingProviders: builtinEmbeddingProviders, notice: (message) => io.stderr(`simeval: ${message}`) });
  const mapped = (p: "output" | "expected") => evaluator.spec.inputs?.[p] !== undefined;
  // --output / --expected put the text in the record, where a mapping of that parameter does not read it
  // (it reads its path or literal): the text given would be silently dropped, and the verdict change.
  const contradicted = (["output", "expected"] as const).filter((p) => opts[p] !== undefined && mapped(p));
  if (contradicted.length) {
    throw new EvalError("USAGE", contradicted.map((p) => `--${p} and --inputs' "${p}" both give the ${p === "output" ? "output" : "expected output"}`).join("; ") + ": give one of them (a mapping reads --record's fields)");
  }
  if (opts.record === undefined) {
    const missing = (["output", "expected"] as const).filter((p) => opts[p] === undefined && !mapped(p)).map((p) => `--${p}`);
    if (missing.length) throw new EvalError("USAGE", `score needs ${missing.join(" and ")} (or --record with the record's fields)`);
  }
  await evaluator.ready();
  let record: EvalRecord = {};
  if (opts.record !== undefined) {
    const parsed = parseJsonOption("--record", opts.record);
    if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
      throw new EvalError("USAGE", "--record must be a JSON object such as {\"output\": \"...\", \"expected\": \"...\"}");
    }
    record = parsed as EvalRecord;
    // One of them would win without a word (the flag did): refused, as beside a mapping of the field.
    const twice = (["output", "expected"] as const).filter((p) => opts[p] !== undefined && record[p] !== undefined);
    if (twice.length) {
      throw new EvalError("USAGE", twice.map((p) => `--${p} and --record's "${p}" both give the ${p === "output" ? "output" : "expected output"}`).join("; ") + ": give one of them");
    }
  }
  if (opts.output !== undefined) record = { ...record, output: opts.output };
  if (opts.expected !== undefined) record = { ...record, expected: opts.expected };
  const result = await evaluator.evaluate(record);
  io.stdout(JSON.stringify(result, null, 2));
  if (result.skipped && opts.record !== undefined && !mapped("expected")) {
    const misspelt = misspeltExpected(record);
    if (misspelt) warn(io, `--record has no "expected", so the evaluator skipped it; it has "${misspelt}".${didYouMean(misspelt, ["expected"])}`);
  }
  return result.passed === false ? EXIT.failed : EXIT.ok;
}

/**
 * The field of a record without `expected` whose name is a slip for it (`expectd`, `Expected`): the record is
 * skipped (score 0, failed), which the reasoning says on stdout, but not why, which this says on stderr.
 */
function misspeltExpected(record: EvalRecord): string | undefined {
  if (record.expected !== undefined) return undefined;
  return Object.keys(record).find((key) => !["input", "output", "metadata", "id"].includes(key) && didYouMean(key, ["expected"]) !== "");
}
