/**
 * Test support (not part of the build): writes a tiny sentence-transformers-shaped model directory, so
 * that the `transformers` provider's real loading code (transformers.js, its WordPiece tokenizer and
 * ONNX Runtime) runs in the tests without downloading a model.
 *
 * The model is a BERT-shaped ONNX graph reduced to its embedding layer: `last_hidden_state =
 * Gather(E, input_ids)`, so a token's output vector is its row of E, independent of its context. Mean
 * pooling of a text is then the average of E's rows over its tokens ([CLS] and [SEP] included, padding
 * excluded), which a test computes by hand. E's [PAD] row is large, so that pooling that counted
 * padding would be caught.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { TRANSFORMERS_PACKAGE } from "./defaults.js";

/** Whether the optional transformers.js is installed (CI installs it, see .ci/run): the tests that need it run only then. */
export const transformersInstalled = (() => {
  try {
    createRequire(import.meta.url).resolve(TRANSFORMERS_PACKAGE);
    return true;
  } catch {
    return false;
  }
})();

const SPECIAL_TOKENS = ["[PAD]", "[UNK]", "[CLS]", "[SEP]"] as const;

interface TinyModel {
  dir: string;
  /** Token → id: the special tokens, then the words given. */
  vocab: Map<string, number>;
  dim: number;
  /** Row `id` of E is the output vector of token `id`. */
  embedding: (id: number) => Float32Array;
}

/**
 * Writes `config.json`, `tokenizer.json`, `tokenizer_config.json` and `onnx/model.onnx` into `dir`.
 * `words` become whole-word tokens (lower case); anything else is [UNK]. E's entries are small integers
 * chosen by (token id, component), so that every sum is exact in float32.
 */
export function writeTinyModel(dir: string, words: readonly string[]): TinyModel {
  const dim = 4;
  const tokens = [...SPECIAL_TOKENS, ...words];
  const vocab = new Map(tokens.map((t, i) => [t, i]));
  const table = new Float32Array(tokens.length * dim);
  for (let id = 0; id < tokens.length; id++) {
    for (let j = 0; j < dim; j++) table[id * dim + j] = id === 0 ? 1000 : ((id * 7 + j * 3) % 11) - 5;
  }
  mkdirSync(join(dir, "onnx"), { recursive: true });
  writeFileSync(join(dir, "onnx", "model.onnx"), embeddingModel(table, tokens.length, dim));
  writeFileSync(
    join(dir, "config.json"),
    JSON.stringify({ model_type: "bert", architectures: ["BertModel"], hidden_size: dim, vocab_size: tokens.length, max_position_embeddings: 512 }),
  );
  writeFileSync(join(dir, "tokenizer.json"), JSON.stringify(wordPieceTokenizer(tokens)));
  writeFileSync(
    join(dir, "tokenizer_config.json"),
    JSON.stringify({ tokenizer_class: "BertTokenizer", do_lower_case: true, model_max_length: 512, pad_token: "[PAD]", unk_token: "[UNK]", cls_token: "[CLS]", sep_token: "[SEP]" }),
  );
  return { dir, vocab, dim, embedding: (id) => table.slice(id * dim, id * dim + dim) };
}

function wordPieceTokenizer(tokens: readonly string[]): unknown {
  const special = (content: string, id: number) => ({ id, content, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true });
  const template = (id: string) => ({ SpecialToken: { id, type_id: 0 } });
  return {
    version: "1.0",
    truncation: null,
    padding: null,
    added_tokens: SPECIAL_TOKENS.map((t, i) => special(t, i)),
    normalizer: { type: "BertNormalizer", clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true },
    pre_tokenizer: { type: "BertPreTokenizer" },
    post_processor: {
      type: "TemplateProcessing",
      single: [template("[CLS]"), { Sequence: { id: "A", type_id: 0 } }, template("[SEP]")],
      pair: [template("[CLS]"), { Sequence: { id: "A", type_id: 0 } }, template("[SEP]"), { Sequence: { id: "B", type_id: 1 } }, { SpecialToken: { id: "[SEP]", type_id: 1 } }],
      special_tokens: {
        "[CLS]": { id: "[CLS]", ids: [2], tokens: ["[CLS]"] },
        "[SEP]": { id: "[SEP]", ids: [3], tokens: ["[SEP]"] },
      },
    },
    decoder: { type: "WordPiece", prefix: "##", cleanup: true },
    model: { type: "WordPiece", unk_token: "[UNK]", continuing_subword_prefix: "##", max_input_chars_per_word: 100, vocab: Object.fromEntries(tokens.map((t, i) => [t, i])) },
  };
}

// ---- A minimal protobuf writer for the ONNX ModelProto (onnx.proto3 field numbers). ----

type Field = Uint8Array;

function varint(value: number | bigint): number[] {
  let v = BigInt(value);
  if (v < 0n) v += 1n << 64n;
  const out: number[] = [];
  do {
    let byte = Number(v & 0x7fn);
    v >>= 7n;
    if (v > 0n) byte |= 0x80;
    out.push(byte);
  } while (v > 0n);
  return out;
}

function intField(field: number, value: number): Field {
  return Uint8Array.from([...varint(field << 3), ...varint(value)]);
}

function bytesField(field: number, bytes: Uint8Array): Field {
  return Uint8Array.from([...varint((field << 3) | 2), ...varint(bytes.length), ...bytes]);
}

function stringField(field: number, text: string): Field {
  return bytesField(field, new TextEncoder().encode(text));
}

function message(...fields: Field[]): Uint8Array {
  const out = new Uint8Array(fields.reduce((n, f) => n + f.length, 0));
  let at = 0;
  for (const f of fields) {
    out.set(f, at);
    at += f.length;
  }
  return out;
}

const FLOAT = 1;
const INT64 = 7;

/** ValueInfoProto of a tensor whose dimensions are named (symbolic) or fixed. */
function tensorInfo(name: string, elemType: number, dims: readonly (string | number)[]): Field {
  const shape = message(...dims.map((d) => bytesField(1, typeof d === "string" ? stringField(2, d) : intField(1, d))));
  const tensorType = message(intField(1, elemType), bytesField(2, shape));
  return message(stringField(1, name), bytesField(2, message(bytesField(1, tensorType))));
}

function embeddingModel(table: Float32Array, vocabSize: number, dim: number): Uint8Array {
  const initializer = message(intField(1, vocabSize), intField(1, dim), intField(2, FLOAT), stringField(8, "embeddings"), bytesField(9, new Uint8Array(table.buffer, table.byteOffset, table.byteLength)));
  const axis = message(stringField(1, "axis"), intField(3, 0), intField(20, 2));
  const gather = message(stringField(1, "embeddings"), stringField(1, "input_ids"), stringField(2, "last_hidden_state"), stringField(3, "embed"), stringField(4, "Gather"), bytesField(5, axis));
  const graph = message(
    bytesField(1, gather),
    stringField(2, "tiny-embedding"),
    bytesField(5, initializer),
    bytesField(11, tensorInfo("input_ids", INT64, ["batch_size", "sequence_length"])),
    bytesField(11, tensorInfo("attention_mask", INT64, ["batch_size", "sequence_length"])),
    bytesField(12, tensorInfo("last_hidden_state", FLOAT, ["batch_size", "sequence_length", dim])),
  );
  const opset = message(stringField(1, ""), intField(2, 13));
  return message(intField(1, 8), stringField(2, "simeval tests"), bytesField(7, graph), bytesField(8, opset));
}
