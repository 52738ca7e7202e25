import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { createEvaluators } from "../src/evaluators/create.js";
import { scoreRecord } from "../src/run/evaluate-row.js";
import { openSqliteStore } from "../src/storage/sqlite.js";

const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8").replace(/\s+/g, " ");

describe("README's run store codes", () => {
  it("names the code addRows gives a row whose key the run holds, RUN_CONFLICT, where it said STORE_FAILED", async () => {
    const store = openSqliteStore(":memory:");
    const run = await store.beginRun({ name: "t", dataset_path: null, dataset_hash: null, evaluators: [{ type: "exact_match" }] });
    const results = await scoreRecord({ output: "a", expected: "a" }, createEvaluators([{ type: "exact_match" }]));
    await store.addRows(run, [{ row: 1, id: "a", key: "k", results }]);
    const error = await store.addRows(run, [{ row: 2, id: "b", key: "k", results }]).then(
      () => undefined,
      (e: unknown) => e as { code: string },
    );
    await store.close();
    expect(error?.code).toBe("RUN_CONFLICT");
    expect(readme).toContain(`while \`addRows\` refuses the whole batch (\`${error?.code}\`, storing none of it)`);
  });
});

describe("README's run store methods", () => {
  it("says of no method of the RunStore interface that it is not part of RunStore (storedRows, moved into the interface, still read so)", () => {
    const source = readFileSync(new URL("../src/storage/store.ts", import.meta.url), "utf8");
    const body = source.slice(source.indexOf("export interface RunStore {"));
    const methods = [...body.slice(0, body.indexOf("\n}")).matchAll(/^ {2}([a-zA-Z]+)\(/gm)].map((m) => m[1]);
    expect(methods).toContain("storedRows");
    const disowned = [...readme.matchAll(/`store\.([a-zA-Z]+)\([^`]*\)` \(not part of `RunStore`\)/g)].map((m) => m[1]);
    expect(disowned.filter((m) => methods.includes(m))).toEqual([]);
  });
});
