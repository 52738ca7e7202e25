import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import * as root from "./index.js";
import * as node from "./node.js";

const here = dirname(fileURLToPath(import.meta.url));

/** Every source file the entry loads statically (a dynamic `import()` is loaded only when used). */
function staticGraph(entry: string): Map<string, string> {
  const files = new Map<string, string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    const text = readFileSync(file, "utf8");
    files.set(file, text);
    for (const m of text.matchAll(/^\s*(?:import|export)\s[^;]*?from\s*["'](\.[^"']+)["']/gm)) {
      if (/^\s*(?:import|export)\s+type\s/.test(m[0])) continue;
      visit(resolve(dirname(file), m[1]!.replace(/\.js$/, ".ts")));
    }
  };
  visit(resolve(here, entry));
  return files;
}

describe("the root and metrics exports", () => {
  for (const entry of ["index.ts", "metrics/index.ts"]) {
    it(`${entry} loads no node: module and uses no Node-only global`, () => {
      const found: string[] = [];
      for (const [file, text] of staticGraph(entry)) {
        const code = text.replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, "");
        for (const m of code.matchAll(/^\s*import\s[^;]*?from\s*["'](node:[^"']+)["']/gm)) found.push(`${file}: ${m[1]}`);
        if (/\bBuffer\s*\./.test(code)) found.push(`${file}: Buffer`);
      }
      expect(found).toEqual([]);
    });
  }

  it("follows re-exports down to the evaluators and their embedding providers", () => {
    expect([...staticGraph("index.ts").keys()]).toContain(resolve(here, "embeddings/openai.ts"));
  });
});

describe("the root export", () => {
  it("offers memoryEmbeddingCache for env.embeddingCache, the same function simeval/node exports", () => {
    expect(root.memoryEmbeddingCache).toBe(node.memoryEmbeddingCache);
  });

  it("offers createEvaluators and createEvaluator, the same functions simeval/node exports, so that a service needs one import", () => {
    expect(node.createEvaluators).toBe(root.createEvaluators);
    expect(node.createEvaluator).toBe(root.createEvaluator);
  });

  it("offers the evaluator registry, the same one simeval/node exports, so that a service needs one import to list types and take directions", () => {
    expect(node.evaluators).toBe(root.evaluators);
    expect(node.evaluatorTypes).toBe(root.evaluatorTypes);
    expect(node.findEvaluator).toBe(root.findEvaluator);
    expect(node.describeEvaluators).toBe(root.describeEvaluators);
  });

  it("offers EvalError and formatIssues, the same ones simeval/node exports, so that a service tells errors apart with one import", () => {
    expect(node.EvalError).toBe(root.EvalError);
    expect(node.formatIssues).toBe(root.formatIssues);
  });
});
