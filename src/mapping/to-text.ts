/**
 * How a non-string input becomes text: numbers and booleans become their JSON text; objects and
 * arrays become canonical JSON (keys sorted at every depth by code unit, compact separators,
 * non-ASCII kept as is), so `{"a":1,"b":2}` equals `{"b":2,"a":1}`.
 */
export function toText(value: unknown): string {
  if (typeof value === "string") return value;
  return canonicalJson(value);
}

/** JSON with object keys sorted at every depth; `undefined` members are left out as JSON does. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value)) ?? "";
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== "object") return value;
  if (typeof (value as { toJSON?: unknown }).toJSON === "function") return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) out[key] = sortKeys((value as Record<string, unknown>)[key]);
  return out;
}
