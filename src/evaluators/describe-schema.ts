import { z } from "zod";

/** The part of a JSON Schema that simeval's config fields use. */
export interface FieldSchema {
  type?: string;
  enum?: unknown[];
  minimum?: number;
  exclusiveMinimum?: number;
  maximum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  /** What the field accepts, in words, when the schema cannot say it (set with zod's `.meta({ expected })`). */
  expected?: string;
  /** A value never quoted in a message (`.meta({ redact: true })`): a field naming where a secret is, which a user may fill with the secret. */
  redact?: boolean;
  properties?: Record<string, FieldSchema>;
  default?: unknown;
  description?: string;
}

const fieldsOf = new WeakMap<z.ZodType, Readonly<Record<string, FieldSchema>>>();

/**
 * A config schema's fields as JSON Schema (input side, so defaults show and fields are optional). Made once
 * per schema: every spec read converts its evaluator's schema, and `trend` reads every recorded run's specs
 * (a trend over 5,000 runs took 6.3 s converting them again and again, 1.5 s with this).
 */
export function configFields(schema: z.ZodType): Readonly<Record<string, FieldSchema>> {
  let fields = fieldsOf.get(schema);
  if (!fields) {
    const json = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as { properties?: Record<string, FieldSchema> };
    fields = json.properties ?? {};
    fieldsOf.set(schema, fields);
  }
  return fields;
}

/** "a number in [0, 1]", "an integer >= 0", "a number > 0", "one of "word", "char_ngram"", "true or false"... */
export function describeField(field: FieldSchema | undefined): string {
  if (!field) return "a valid value";
  if (field.expected) return field.expected;
  if (field.enum) return `one of ${field.enum.map((v) => JSON.stringify(v)).join(", ")}`;
  const lo = field.minimum;
  const above = field.exclusiveMinimum;
  const hi = field.maximum !== undefined && field.maximum < Number.MAX_SAFE_INTEGER ? field.maximum : undefined;
  const below = field.exclusiveMaximum;
  const range =
    above !== undefined
      ? hi !== undefined
        ? ` in (${above}, ${hi}]`
        : below !== undefined
          ? ` in (${above}, ${below})`
          : ` > ${above}`
      : lo !== undefined && hi !== undefined
      ? ` in [${lo}, ${hi}]`
      : lo !== undefined && below !== undefined
        ? ` in [${lo}, ${below})`
        : lo !== undefined
          ? ` >= ${lo}`
          : hi !== undefined
            ? ` <= ${hi}`
            : "";
  switch (field.type) {
    case "number":
      return `a number${range}`;
    case "integer":
      return `an integer${range}`;
    case "boolean":
      return "true or false";
    case "string":
      return field.minLength ? "a non-empty string" : "a string";
    case "object":
      return field.properties
        ? `an object {${Object.entries(field.properties).map(([k, f]) => `"${k}": ${describeField(f)}`).join(", ")}}`
        : "an object";
    default:
      return field.type ? `a value of type ${field.type}` : "a valid value";
  }
}
