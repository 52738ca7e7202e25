import { z } from "zod";
import type { EmbeddingProviderDefinition } from "./provider.js";

/** Every provider's option keys merged into one schema shape, and which providers accept each key. */
export interface ProviderOptionKeys {
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
 * provider validates its options again when created). Throws when a key collides with one of `reserved`.
 */
export function providerOptionKeys(definitions: readonly EmbeddingProviderDefinition[], reserved: readonly string[]): ProviderOptionKeys {
  const shape: Record<string, z.ZodType> = {};
  const owners = new Map<string, string[]>();
  for (const def of definitions) {
    for (const [key, schema] of Object.entries(def.options)) {
      if (reserved.includes(key)) throw new Error(`embedding provider "${def.name}" declares the option "${key}", which semantic_similarity reserves`);
      const list = owners.get(key);
      if (list) {
        list.push(def.name);
        continue;
      }
      owners.set(key, [def.name]);
      shape[key] = optionalWithoutDefault(schema as z.ZodType);
    }
  }
  return { shape, owners };
}

function optionalWithoutDefault(schema: z.ZodType): z.ZodType {
  if (!(schema instanceof z.ZodDefault)) return schema.optional();
  const inner = (schema.unwrap() as z.ZodType).optional();
  const description = schema.description ?? (schema.unwrap() as z.ZodType).description;
  const meta = { default: schema.def.defaultValue as unknown };
  return inner.meta(description === undefined ? meta : { ...meta, description });
}
