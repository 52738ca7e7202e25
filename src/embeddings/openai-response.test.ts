import { describe, expect, it } from "vitest";
import { parseEmbeddingsResponse } from "./openai-response.js";

const body = (value: unknown) => JSON.stringify(value);

describe("parseEmbeddingsResponse", () => {
  it("shows the last 60 characters of a body that is not JSON", () => {
    const text = `{"data": [${"1,".repeat(100)}`;
    expect(() => parseEmbeddingsResponse(text, 1)).toThrow(`; ${text.length} characters, ending ${JSON.stringify(`…${text.slice(-60)}`)}`);
  });

  it("refuses an index given twice, an empty embedding, and an item without the index the others have", () => {
    expect(() => parseEmbeddingsResponse(body({ data: [{ index: 0, embedding: [1] }, { index: 0, embedding: [2] }] }), 2)).toThrow("data[1].index 0 repeats data[0].index");
    expect(() => parseEmbeddingsResponse(body({ data: [{ index: 0, embedding: [] }] }), 1)).toThrow("data[0].embedding is empty");
    expect(() => parseEmbeddingsResponse(body({ data: [{ embedding: [1] }, { index: 0, embedding: [2] }] }), 2)).toThrow("data[0].index is nothing, expected an integer");
  });

  it("reads usage, leaving out counts that are negative or not numbers", () => {
    const parse = (usage: unknown) => parseEmbeddingsResponse(body({ data: [{ embedding: [1] }], usage }), 1).usage;
    expect(parse({ prompt_tokens: 3, total_tokens: 4 })).toEqual({ prompt_tokens: 3, total_tokens: 4 });
    expect(parse({ prompt_tokens: -1, total_tokens: 4 })).toEqual({ total_tokens: 4 });
    expect(parse({ prompt_tokens: -1, total_tokens: "4" })).toBeUndefined();
  });
});
