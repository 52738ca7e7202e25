import { createEvaluator } from "../src/index.js";
const rows = Array.from({length: 300000}, (_, i) => ({ output: i % 2 ? "The capital of France is Paris." : "Paris", expected: "The capital of France is Paris." }));
const e = createEvaluator({ type: process.argv[2] ?? "exact_match" });
const t0 = performance.now();
for (const r of rows) e.evaluateNow(r);
console.log(((performance.now() - t0) / rows.length * 1000).toFixed(2), "us/row");
