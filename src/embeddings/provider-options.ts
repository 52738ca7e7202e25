import { z } from "zod";
import { EvalError, formatIssues } from "../errors.js";
import type { EmbeddingProviderDefinition } from "./provider.js";

/** Every provider's option keys merged into one schema shape, and which providers accept each key. */
interface ProviderOptionKeys {
  /** Each key optional and without a default (the default shows in JSON Schema as `default` only). */
  shape: z.ZodRawShape;
  /** Key → names of the providers that declare it, in registry order. */
  owners: Map<string, string[]>;
}

/**
 * Merges the `options` shapes of `definitions` for `semantic_similarity`'s strict schema. Defaults are
 * stripped (kept as JSON Schema metadata for the docs): a key's absence must stay visible, so that a key
 * given for another provider can be reported, and the chosen provider applies its own defaults.
 * When two providers declare the same key, the first one's schema validates it in the merged shape (each
 * provider validates its options again when created), and its description joins each provider's, with
 * a later provider's default when it differs. Throws when a key collides with one of `reserved`.
 */
export function providerOptionKeys(definitions: readonly EmbeddingProviderDefinition[], reserved: readonly string[]): ProviderOptionKeys {
  const first = new Map<string, z.ZodType>();
  const descriptions = new Map<string, string[]>();
  const owners = new Map<string, string[]>();
  for (const def of definitions) {
    for (const [key, schema] of Object.entries(def.options)) {
      if (reserved.includes(key)) throw new Error(`embedding provider "${def.name}" declares the option "${key}", which semantic_similarity reserves`);
      const { description, defaultValue } = describe(schema as z.ZodType);
      const list = owners.get(key);
      if (list) {
        // A shared key: the docs give each provider's meaning, and its default when it differs.
        list.push(def.name);
        const firstDefault = describe(first.get(key)!).defaultValue;
        const note = defaultValue !== undefined && defaultValue !== firstDefault ? ` (default ${JSON.stringify(defaultValue)})` : "";
        if (description !== undefined) descriptions.get(key)!.push(description + note);
        continue;
      }
      owners.set(key, [def.name]);
      first.set(key, schema as z.ZodType);
      descriptions.set(key, description === undefined ? [] : [description]);
    }
  }
  const shape: Record<string, z.ZodType> = {};
  for (const [key, schema] of first) shape[key] = optionalWithoutDefault(schema, descriptions.get(key)!.join("; "));
  return { shape, owners };
}

function describe(schema: z.ZodType): { description: string | undefined; defaultValue: unknown } {
  if (!(schema instanceof z.ZodDefault)) return { description: schema.description, defaultValue: undefined };
  return { description: schema.description ?? (schema.unwrap() as z.ZodType).description, defaultValue: schema.def.defaultValue as unknown };
}

function optionalWithoutDefault(schema: z.ZodType, description: string): z.ZodType {
  const { defaultValue } = describe(schema);
  const inner = (schema instanceof z.ZodDefault ? (schema.unwrap() as z.ZodType) : schema).optional();
  const meta = { ...(defaultValue === undefined ? {} : { default: defaultValue }), ...(description ? { description } : {}) };
  return Object.keys(meta).length ? inner.meta(meta) : inner;
}

/**
 * A provider's own options checked against its strict schema: the parsed values, or CONFIG_INVALID with
 * one issue per bad key (its path under `config`), each message starting with the provider's name.
 */
export function parseProviderOptions<S extends z.ZodType>(provider: string, schema: S, raw: unknown): z.output<S> {
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((i) => ({ path: ["config", ...i.path.map(String)], message: `${provider}: ${i.path.join(".") || "options"}: ${i.message}` }));
  throw new EvalError("CONFIG_INVALID", `${provider}: invalid options:\n${formatIssues(issues)}`, { issues });
}
