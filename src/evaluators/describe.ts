import type { Direction } from "../types.js";
import { configFields, describeField } from "./describe-schema.js";
import { evaluators } from "./registry.js";

export interface ConfigFieldDescription {
  key: string;
  /** "a number in [0, 1]", "true or false"... */
  accepts: string;
  /** The default, or undefined when the field is optional with no default. */
  default?: unknown;
  description: string;
}

export interface EvaluatorDescription {
  type: string;
  title: string;
  description: string;
  direction: Direction;
  config: ConfigFieldDescription[];
  aliases: Record<string, string>;
}

/** Every registered evaluator with its config fields and defaults, derived from the registry. */
export function describeEvaluators(): EvaluatorDescription[] {
  return evaluators.map((e) => ({
    type: e.type,
    title: e.title,
    description: e.description,
    direction: e.direction,
    aliases: { ...(e.aliases ?? {}) },
    config: Object.entries(configFields(e.config)).map(([key, field]) => ({
      key,
      accepts: describeField(field),
      ...(field.default !== undefined ? { default: field.default } : {}),
      description: field.description ?? "",
    })),
  }));
}
