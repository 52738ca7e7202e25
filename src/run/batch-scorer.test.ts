import { describe, expect, it } from "vitest";
import { BatchScorer } from "./batch-scorer.js";
import { batchRows } from "./serialized-batch.js";
import { evaluatorsFor } from "./scorer-init.js";

const items = (from: number, n: number) => Array.from({ length: n }, (_, i) => ({ row: from + i, line: from + i, record: { output: `answer ${i}`, expected: "answer 1" } }));

describe("BatchScorer's spare buffers", () => {
  it("writes a batch into bytes handed back, but lets go of a buffer grown past 4 MiB rather than keep it for the run", async () => {
    const { evaluators } = evaluatorsFor({ specs: [{ type: "exact_match" }], worst: 0, explain: true });
    const scorer = new BatchScorer(evaluators, 0);
    const first = await scorer.score(items(1, 8));
    const reference = batchRows(first);
    const handedBack = first.bytes.buffer as ArrayBuffer;
    scorer.recycle(handedBack);
    const second = await scorer.score(items(1, 8));
    expect(second.bytes.buffer).toBe(handedBack);
    expect(batchRows(second)).toEqual(reference);

    const grown = new ArrayBuffer((1 << 22) + 1);
    scorer.recycle(grown);
    expect((await scorer.score(items(9, 8))).bytes.buffer).not.toBe(grown);
  });
});
