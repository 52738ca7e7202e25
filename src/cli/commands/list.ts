import stringWidth from "string-width";
import { describeEvaluators } from "../../evaluators/describe.js";
import { EXIT } from "../exit-codes.js";
import type { CliIO } from "../io.js";
import { renderTable, tableWidth, wrapWords } from "../table.js";

/**
 * The narrowest the "accepts" and "meaning" columns are made to fit a line; on a narrower terminal the table runs past
 * it. Narrow enough that every table fits 80 columns, the usual terminal's, but semantic_similarity's, whose default
 * base_url alone takes 27 (at 20 and 30, every table ran past 80 columns, to 106).
 */
const MIN_TEXT_WIDTH = { accepts: 12, meaning: 20 };

/**
 * `simeval list`: every registered evaluator with its config keys, what they accept, and defaults. Each
 * evaluator's description, and its table's "accepts" and "meaning" columns, are wrapped at word breaks to fit the
 * terminal ({@link tableWidth}: 160 columns when not one), where lines ran to some 300 columns.
 */
export function listCommand(opts: { json?: boolean }, io: CliIO): number {
  const all = describeEvaluators();
  if (opts.json) {
    io.stdout(JSON.stringify(all, null, 2));
    return EXIT.ok;
  }
  const width = tableWidth(io) - 2; // the blocks are indented by 2
  const blocks = all.map((e) => {
    const aliases = Object.entries(e.aliases).map(([a, c]) => `  alias: ${a} -> ${c}`);
    const fields = e.config.map((f) => ({ key: f.key, accepts: f.accepts, default: f.default === undefined ? "(unset)" : JSON.stringify(f.default), meaning: f.description }));
    return [
      `${e.type}  (${e.title}; ${e.direction === "maximize" ? "higher is better" : "lower is better"})`,
      ...wrapWords(e.description, width).map((l) => `  ${l}`),
      ...aliases,
      configTable(fields, width)
        .split("\n")
        .map((l) => `  ${l}`)
        .join("\n"),
    ].join("\n");
  });
  io.stdout(blocks.join("\n\n"));
  return EXIT.ok;
}

type ConfigField = Record<"key" | "accepts" | "default" | "meaning", string>;

/**
 * The config keys as a table of at most `width` columns where it can be: what the key and default do not take
 * goes to "accepts" and "meaning", each wrapped onto lines of its own column when the two do not fit side by side
 * ("accepts" given up to two fifths, at least {@link MIN_TEXT_WIDTH}'s).
 */
function configTable(fields: readonly ConfigField[], width: number): string {
  const header: ConfigField = { key: "config key", accepts: "accepts", default: "default", meaning: "meaning" };
  const natural = (column: keyof ConfigField) => Math.max(...[header, ...fields].map((f) => stringWidth(f[column])));
  const room = width - natural("key") - natural("default") - 3 * 2;
  const acceptsWidth = natural("accepts") + natural("meaning") <= room ? natural("accepts") : Math.min(natural("accepts"), Math.max(MIN_TEXT_WIDTH.accepts, Math.floor((room * 2) / 5)));
  const meaningWidth = Math.max(MIN_TEXT_WIDTH.meaning, room - acceptsWidth);
  const rows = fields.flatMap((f) => {
    const accepts = wrapWords(f.accepts, acceptsWidth);
    const meaning = wrapWords(f.meaning, meaningWidth);
    return Array.from({ length: Math.max(accepts.length, meaning.length) }, (_, i) => [i === 0 ? f.key : "", accepts[i] ?? "", i === 0 ? f.default : "", meaning[i] ?? ""]);
  });
  return renderTable([header.key, header.accepts, header.default, header.meaning], rows);
}
