import { describeValue } from "../errors.js";
import type { EmbeddingUsage } from "./provider.js";

/** A checked `/embeddings` response: one vector per input text, in input order. */
interface ParsedEmbeddings {
  vectors: Float32Array[];
  usage?: EmbeddingUsage;
}

/**
 * Parses and checks the body of an OpenAI-style embeddings response
 * (`{object: "list", data: [{object: "embedding", index, embedding: number[]}], model, usage}`)
 * for a request of `count` texts. Sorts `data` by `index` (servers may answer out of order); when no
 * item has an `index`, array order is taken, as some compatible servers omit it.
 *
 * Throws an Error whose message names what was wrong: not JSON (truncated?), not an object, `data`
 * missing, the wrong number of embeddings, an index missing, repeated or out of range, an embedding
 * that is not an array of finite numbers (a base64 string is named as such), vectors of differing
 * lengths, or not of the requested `dimensions`.
 */
export function parseEmbeddingsResponse(body: string, count: number, dimensions?: number): ParsedEmbeddings {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    const truncated = /end of (JSON )?input|unterminated|Expected .* after/i.test(why);
    const tail = body.length > 60 ? `…${body.slice(-60)}` : body;
    throw new Error(
      `the response is not valid JSON${truncated ? " (truncated?)" : ""}: ${why}; ${body.length} characters, ending ${JSON.stringify(tail)}`,
    );
  }
  if (json === null || typeof json !== "object" || Array.isArray(json)) {
    throw new Error(`the response is ${describeValue(json)}, expected an object {"data": [...]}`);
  }
  const data = (json as { data?: unknown }).data;
  if (data === undefined) throw new Error(`the response has no "data" array (keys: ${Object.keys(json).join(", ") || "none"})`);
  if (!Array.isArray(data)) throw new Error(`"data" is ${describeValue(data)}, expected an array of embeddings`);
  if (data.length !== count) throw new Error(`"data" has ${data.length} embeddings for ${count} input texts`);

  const indexed = data.some((d) => d !== null && typeof d === "object" && "index" in d);
  const vectors = new Array<Float32Array | undefined>(count);
  const seenAt = new Map<number, number>();
  let dims: number | undefined;
  data.forEach((item: unknown, i) => {
    const at = `data[${i}]`;
    if (item === null || typeof item !== "object" || Array.isArray(item)) throw new Error(`${at} is ${describeValue(item)}, expected an object {"index", "embedding"}`);
    let index = i;
    if (indexed) {
      const raw = (item as { index?: unknown }).index;
      if (typeof raw !== "number" || !Number.isInteger(raw)) throw new Error(`${at}.index is ${describeValue(raw)}, expected an integer`);
      if (raw < 0 || raw >= count) throw new Error(`${at}.index is ${raw}, out of range for ${count} input texts (0 to ${count - 1})`);
      const first = seenAt.get(raw);
      if (first !== undefined) throw new Error(`${at}.index ${raw} repeats data[${first}].index`);
      seenAt.set(raw, i);
      index = raw;
    }
    const embedding = (item as { embedding?: unknown }).embedding;
    if (typeof embedding === "string") throw new Error(`${at}.embedding is a string (base64?), expected an array of numbers`);
    if (!Array.isArray(embedding)) throw new Error(`${at}.embedding is ${describeValue(embedding)}, expected an array of numbers`);
    if (embedding.length === 0) throw new Error(`${at}.embedding is empty`);
    const v = new Float32Array(embedding.length);
    for (let j = 0; j < embedding.length; j++) {
      const x: unknown = embedding[j];
      if (typeof x !== "number" || !Number.isFinite(x)) throw new Error(`${at}.embedding[${j}] is ${describeValue(x)}, expected a finite number`);
      v[j] = x;
    }
    if (dimensions !== undefined && v.length !== dimensions) {
      throw new Error(`${at}.embedding has ${v.length} numbers, expected ${dimensions} (the "dimensions" asked for)`);
    }
    if (dims !== undefined && v.length !== dims) throw new Error(`the vectors differ in length: data[0].embedding has ${dims} numbers, ${at}.embedding has ${v.length}`);
    dims = v.length;
    vectors[index] = v;
  });

  const out: ParsedEmbeddings = { vectors: vectors as Float32Array[] };
  const usage = readUsage((json as { usage?: unknown }).usage);
  if (usage) out.usage = usage;
  return out;
}

/** The usage object's token counts, ignoring anything that is not a non-negative number. */
function readUsage(raw: unknown): EmbeddingUsage | undefined {
  if (raw === null || typeof raw !== "object") return undefined;
  const usage: EmbeddingUsage = {};
  const { prompt_tokens, total_tokens } = raw as Record<string, unknown>;
  if (typeof prompt_tokens === "number" && prompt_tokens >= 0) usage.prompt_tokens = prompt_tokens;
  if (typeof total_tokens === "number" && total_tokens >= 0) usage.total_tokens = total_tokens;
  return Object.keys(usage).length ? usage : undefined;
}
