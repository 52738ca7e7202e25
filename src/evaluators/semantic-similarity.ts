import { z } from "zod";
import { describeValue, EvalError, formatIssues, problemCount, type Issue } from "../errors.js";
import { cosineSimilarity } from "../metrics/cosine.js";
import { EmbeddingBatcher, type EmbeddedText } from "../embeddings/batcher.js";
import { memoryEmbeddingCache } from "../embeddings/cache.js";
import { providerOptionKeys } from "../embeddings/provider-options.js";
import type { EmbeddingProvider, EmbeddingProviderFactory, EmbeddingProviderHooks, EmbeddingProviderOptions, EmbeddingUsage } from "../embeddings/provider.js";
import { builtinEmbeddingProviders, embeddingProviderDefinitions } from "../embeddings/registry.js";
import { defineEvaluator, type EvaluatorEnv, type Scorer } from "./define.js";
import { scoreText } from "./score-text.js";
import { didYouMean } from "./suggest.js";

/** Every built-in provider's option keys, all optional here; each provider applies its own defaults. */
const providerKeys = providerOptionKeys(embeddingProviderDefinitions, ["provider", "model", "threshold", "rescale", "unicode_normalization"]);

/**
 * Embedding cosine similarity (the "Semantic Similarity" document): embeds both texts with the
 * configured provider and scores `cos = a·b / (‖a‖ ‖b‖)`, raw, in [-1, 1].
 *
 * `rescale: {from}` instead scores `clamp((cos - from) / (1 - from), 0, 1)`: [from, 1] mapped linearly
 * onto [0, 1]. Use it when the model crowds unrelated texts into a narrow high band (ada-002 rarely
 * gives less than 0.7 for any two English sentences), so that raw cosines are hard to read and
 * thresholds hard to choose; set `from` near the cosine of unrelated texts under that model.
 *
 * The score in the result is the rescaled one when `rescale` is set, else the cosine; `details` keeps
 * both (`cosine`, `score`). With a `threshold`, passes iff score >= threshold, on that exact score.
 * Identical texts have cosine 1.0 and a text against an empty one 0.0, without a provider call.
 *
 * Texts go through an {@link EmbeddingBatcher} (concurrent rows share requests; the provider's batch size
 * and concurrency apply) and `env.embeddingCache`, or a 64 MiB in-memory cache when the environment gives
 * none. Evaluators created together (one `createEvaluators` call) with the same provider, model and
 * provider options share one provider and batcher (see {@link sharedEmbedder}), so that a text both ask
 * for is sent once. `details.usage` is the row's share of the tokens of the requests that embedded its
 * texts (split by text length, rounded to 0.01), so that summing it over the rows gives the tokens billed,
 * give or take the roundings; cached texts cost nothing.
 *
 * Defaults: provider "openai", the provider's default model, no threshold, no rescale. A provider key
 * of another provider than the chosen one is a configuration error.
 */
export const semanticSimilarityEvaluator = defineEvaluator({
  type: "semantic_similarity",
  title: "Semantic Similarity",
  description: "Cosine similarity of the two texts' embeddings, in [-1, 1] (or rescaled to [0, 1]).",
  direction: "maximize",
  scores: { min: -1, max: 1 },
  config: {
    threshold: z.number().min(-1).max(1).optional().describe("Minimum score to pass (no verdict when unset)"),
    provider: z.string().min(1).default("openai").describe("Embedding provider name"),
    model: z.string().min(1).optional().describe("Embedding model (the provider's default when unset); transformers: the path of the model folder (required)"),
    rescale: z
      .strictObject({ from: z.number().min(-1).lt(1).describe("The cosine that maps to 0") })
      .optional()
      .describe('{"from": number in [-1, 1)}: map cosines in [from, 1] to [0, 1], clamped; for models whose cosines crowd near 1'),
    ...providerKeys.shape,
  },
  // Options of another provider than a built-in one chosen, said with the spec's other problems; a provider of the
  // caller's (or an unknown one, whose message needs the run's providers) has them said at creation.
  checkConfig: (_given, config) => (Object.hasOwn(builtinEmbeddingProviders, config.provider) ? foreignProviderOptions(config) : []),
  create(config, env) {
    // The built-in providers unless the caller gives its own table (their modules load nothing until used).
    const factories = env.embeddingProviders ?? builtinEmbeddingProviders;
    // An own entry only: "constructor" or "toString" would find Object's methods, and make a provider that throws a TypeError on every row.
    const factory = Object.hasOwn(factories, config.provider) ? factories[config.provider] : undefined;
    const issues: Issue[] = [];
    if (!factory) {
      const known = Object.keys(factories);
      issues.push({
        path: ["config", "provider"],
        message:
          `embedding provider "${config.provider}" is not available; ` +
          (known.length ? `available: ${known.join(", ")}.${didYouMean(config.provider, known)}` : "no embedding provider is registered in this build"),
        expected: known.length ? `one of ${known.join(", ")}` : "a registered provider",
        received: config.provider,
      });
    }
    const options: EmbeddingProviderOptions = config.model === undefined ? {} : { model: config.model };
    for (const [key, owners] of providerKeys.owners) {
      const value = (config as Record<string, unknown>)[key];
      if (value !== undefined && owners.includes(config.provider)) options[key] = value;
    }
    // A built-in provider's were said with the spec's other problems (checkConfig); another's with its own.
    for (const issue of foreignProviderOptions(config)) issues.push({ ...issue, path: ["config", ...issue.path] });
    if (issues.length || !factory) {
      const count = problemCount(issues.length);
      throw new EvalError("CONFIG_INVALID", `semantic_similarity: invalid configuration (${count}):\n${formatIssues(issues)}`, { issues });
    }
    const { provider, batcher } = sharedEmbedder(env, config.provider, options, () => {
      const made = createProvider(config.provider, factory, options, env.notice ? { notice: env.notice } : {});
      const cache = env.embeddingCache ?? memoryEmbeddingCache();
      return { provider: made, batcher: new EmbeddingBatcher(made, env.notice ? { cache, notice: env.notice } : { cache }) };
    });

    const from = config.rescale?.from;
    const toScore = (cosine: number) => (from === undefined ? cosine : Math.min(1, Math.max(0, (cosine - from) / (1 - from))));
    const verdict = (score: number): boolean | null => (config.threshold === undefined ? null : score >= config.threshold);
    const about = {
      provider: provider.name,
      model: provider.model,
      threshold: config.threshold ?? null,
      ...(from !== undefined ? { rescale: { from } } : {}),
    };
    // The score is printed with enough decimals to agree with the verdict printed after it.
    const shown = (score: number, passed: boolean | null) => scoreText(score, 4, config.threshold, passed);
    const scoreLine = (cosine: number, score: number, passed: boolean | null) =>
      from === undefined ? shown(cosine, passed) : `${cosine.toFixed(4)}, rescaled from [${from}, 1] to ${shown(score, passed)}`;
    const verdictText = (passed: boolean | null) =>
      passed === null ? " (no threshold set)." : `; ${passed ? "meets" : "below"} the threshold ${config.threshold}.`;

    const scorer: Scorer = async ({ output, expected }) => {
      if (output === expected || output === "" || expected === "") {
        const cosine = output === expected ? 1 : 0;
        const score = toScore(cosine);
        const passed = verdict(score);
        const why = output === expected ? "The texts are identical: cosine 1.0 (no embedding needed)" : `The ${output === "" ? "output" : "expected output"} is empty: cosine 0.0 (nothing to embed)`;
        return {
          score,
          passed,
          reasoning: why + (from === undefined ? "" : `, rescaled to ${shown(score, passed)}`) + (passed === null ? "." : verdictText(passed)),
          details: { ...about, cosine, score, embedded: false },
        };
      }
      const [a, b] = (await batcher.embed([output, expected])) as [EmbeddedText, EmbeddedText];
      if (a.vector.length !== b.vector.length) {
        throw new EvalError(
          "PROVIDER_FAILED",
          `${provider.name} (${provider.model}): the output's embedding has ${a.vector.length} dimensions and the expected output's ${b.vector.length}; ` +
            `a cache may hold vectors of another configuration`,
        );
      }
      const cosine = cosineSimilarity(a.vector, b.vector);
      const score = toScore(cosine);
      const passed = verdict(score);
      // A zero vector has no direction: cosine 0 by convention, which the reasoning must not pass off as a measured 0.
      const zero = ([["output", a], ["expected output", b]] as const).filter(([, t]) => t.vector.every((x) => x === 0)).map(([which]) => which);
      const why = zero.length
        ? `The ${zero.join(" and the ")} ${zero.length > 1 ? "have" : "has"} an all-zero embedding (${provider.zeroVectorMeans ?? "the model gave no direction"}), so the cosine is 0 by convention: `
        : `Cosine similarity of the ${provider.model} embeddings: `;
      // No cache-hit count in details: a result must not depend on what an earlier run left in the cache.
      // Usage does, by nature: it is present only when this row spent tokens.
      const usage = rowUsage(a, b);
      return {
        score,
        passed,
        reasoning: `${why}${scoreLine(cosine, score, passed)}${verdictText(passed)}`,
        details: {
          ...about,
          cosine,
          score,
          dimensions: a.vector.length,
          embedded: true,
          ...(zero.length ? { zero_vector: zero.map((w) => (w === "output" ? "output" : "expected")) } : {}),
          ...(usage ? { usage } : {}),
        },
      };
    };
    // Loading happens on the first embed; an empty call makes it happen now (no request for openai).
    scorer.ready = async () => {
      await provider.embed([]);
    };
    scorer.remote = provider.remote === true;
    return scorer;
  },
});

interface Embedder {
  provider: EmbeddingProvider;
  batcher: EmbeddingBatcher;
}

/** Each environment's embedders by provider name and options (see {@link sharedEmbedder}). */
const embedders = new WeakMap<EvaluatorEnv, Map<string, Embedder>>();

/**
 * The provider and batcher for `name` with `options` in `env`, made by `make` the first time: two
 * `semantic_similarity` evaluators of one run (one raw, one rescaled, say) on the same model then
 * coalesce their requests, so that a text neither has cached is sent, and billed, once (each row's
 * `usage` share is split between them). Options that differ (another model, `dimensions`, timeout…), or
 * are written otherwise (a default left out in one and given in the other), make another provider. Keyed
 * by the env object, of which `createEvaluators` makes one for each call: evaluators created together
 * share, and nothing is kept for a later call (a vectors file replaced since is loaded anew; a service
 * creating evaluators for each run holds no provider of an earlier run).
 */
function sharedEmbedder(env: EvaluatorEnv, name: string, options: EmbeddingProviderOptions, make: () => Embedder): Embedder {
  let byKey = embedders.get(env);
  if (!byKey) embedders.set(env, (byKey = new Map()));
  const key = JSON.stringify([name, Object.entries(options).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))]);
  let embedder = byKey.get(key);
  if (!embedder) byKey.set(key, (embedder = make()));
  return embedder;
}

function createProvider(name: string, factory: EmbeddingProviderFactory, options: EmbeddingProviderOptions, hooks: EmbeddingProviderHooks): EmbeddingProvider {
  let made: unknown;
  try {
    made = factory(options, hooks);
  } catch (err) {
    if (err instanceof EvalError) throw err;
    throw cannotCreate(name, err instanceof Error ? err.message : String(err), err);
  }
  // A factory of one's own (env.embeddingProviders) that gives no provider: said here, by name, rather than as a
  // TypeError here (null) or on every row (no embed) — and a provider without its name and model, which key the
  // embedding cache, would share cached vectors with another such provider.
  const what = providerProblem(made);
  if (what) throw cannotCreate(name, `its factory returned ${what}`);
  return made as EmbeddingProvider;
}

/** What keeps `made` from being an {@link EmbeddingProvider}, or undefined when nothing does. */
function providerProblem(made: unknown): string | undefined {
  if (made === null || typeof made !== "object") return `${describeValue(made)}, not an embedding provider { name, model, embed }`;
  const p = made as Record<string, unknown>;
  if (typeof p["embed"] !== "function") return `a provider whose embed is ${describeValue(p["embed"])}, not a function (texts) => Promise<{ vectors }>`;
  for (const key of ["name", "model"] as const) {
    if (typeof p[key] !== "string" || p[key] === "") return `a provider whose ${key} is ${describeValue(p[key])}, not a non-empty string`;
  }
  return undefined;
}

function cannotCreate(name: string, why: string, cause?: unknown): EvalError {
  return new EvalError("CONFIG_INVALID", `semantic_similarity: could not create embedding provider "${name}": ${why}`, {
    cause,
    issues: [{ path: ["config", "provider"], message: `could not create embedding provider "${name}": ${why}` }],
  });
}

/** The row's token shares, summed over its two texts and rounded to 0.01; undefined when neither reports any. */
function rowUsage(a: EmbeddedText, b: EmbeddedText): EmbeddingUsage | undefined {
  if (!a.usage && !b.usage) return undefined;
  const round = (x: number) => Math.round(x * 100) / 100;
  const usage: EmbeddingUsage = {};
  for (const k of ["prompt_tokens", "total_tokens"] as const) {
    const va = a.usage?.[k];
    const vb = b.usage?.[k];
    if (va !== undefined || vb !== undefined) usage[k] = round((va ?? 0) + (vb ?? 0));
  }
  return usage;
}

/** The options given that belong to another provider than the one chosen (`base_url` with `"provider": "word_vectors"`), paths under config. */
function foreignProviderOptions(config: Readonly<Record<string, unknown>>): Issue[] {
  const chosen = String(config["provider"]);
  return [...providerKeys.owners].flatMap(([key, owners]) =>
    config[key] === undefined || owners.includes(chosen)
      ? []
      : [{ path: [key], message: `"${key}" is an option of the ${owners.map((o) => `"${o}"`).join(", ")} provider${owners.length > 1 ? "s" : ""}, not of the chosen provider "${chosen}"; remove it or change "provider"`, received: key }],
  );
}
