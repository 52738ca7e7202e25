import { describeEvaluators } from "../../evaluators/describe.js";
import { EXIT } from "../exit-codes.js";
import type { CliIO } from "../io.js";
import { renderTable } from "../table.js";

/** `simeval list`: every registered evaluator with its config keys, what they accept, and defaults. */
export function listCommand(opts: { json?: boolean }, io: CliIO): number {
  const all = describeEvaluators();
  if (opts.json) {
    io.stdout(JSON.stringify(all, null, 2));
    return EXIT.ok;
  }
  const blocks = all.map((e) => {
    const rows = e.config.map((f) => [f.key, f.accepts, f.default === undefined ? "(unset)" : JSON.stringify(f.default), f.description]);
    const aliases = Object.entries(e.aliases).map(([a, c]) => `  alias: ${a} -> ${c}`);
    return [
      `${e.type}  (${e.title}; ${e.direction === "maximize" ? "higher is better" : "lower is better"})`,
      `  ${e.description}`,
      ...aliases,
      renderTable(["config key", "accepts", "default", "meaning"], rows)
        .split("\n")
        .map((l) => `  ${l}`)
        .join("\n"),
    ].join("\n");
  });
  io.stdout(blocks.join("\n\n"));
  return EXIT.ok;
}
