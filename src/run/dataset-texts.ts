import type { Issue } from "../errors.js";
import type { EvaluatorSpec } from "../evaluators/spec.js";
import { readDataset } from "../dataset/read-dataset.js";
import { compileInputs } from "../mapping/inputs.js";
import { toText } from "../mapping/to-text.js";

export type RowTexts = Map<number, { output: string | null; expected: string | null }>;

/**
 * The texts an evaluator compared on some rows, read again from the dataset file through the spec's
 * input mapping (results keep scores, not texts). Returns what it could read: an empty map when the
 * file is gone or unreadable, so that reports show the scores without the texts.
 */
export async function rowTexts(datasetPath: string, spec: EvaluatorSpec, rows: ReadonlySet<number>): Promise<RowTexts> {
  const out: RowTexts = new Map();
  if (rows.size === 0) return out;
  const issues: Issue[] = [];
  const inputs = compileInputs(spec.inputs, [], issues, spec.name ?? spec.type);
  if (issues.length) return out;
  const text = (v: unknown) => (v === undefined || v === null ? null : toText(v));
  const last = Math.max(...rows);
  try {
    for await (const item of readDataset(datasetPath)) {
      if (item.row > last) break;
      if (!rows.has(item.row) || !("record" in item)) continue;
      try {
        out.set(item.row, { output: text(inputs.output(item.record)), expected: text(inputs.expected(item.record)) });
      } catch {
        // a row whose mapping fails is shown without its texts
      }
    }
  } catch {
    // the dataset moved or changed since the run: show what was read
  }
  return out;
}
