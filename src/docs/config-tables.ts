import { describeEvaluators } from "../evaluators/describe.js";

/** The markdown config table of one evaluator, derived from its schema. */
function configTable(type: string): string {
  const e = describeEvaluators().find((d) => d.type === type);
  if (!e) throw new Error(`no evaluator ${type}`);
  const rows = e.config.map((f) => `| \`${f.key}\` | ${f.accepts} | ${f.default === undefined ? "unset" : `\`${JSON.stringify(f.default)}\``} | ${f.description} |`);
  // A blank line ends the table: a line right after its rows would be read as one more row (GitHub's tables).
  const aliases = Object.entries(e.aliases).map(([a, c]) => `\n\n\`${a}\` is accepted as an alias of \`${c}\`.`);
  return ["| key | accepts | default | meaning |", "|---|---|---|---|", ...rows].join("\n") + aliases.join("");
}

/**
 * Replaces each `<!-- config:TYPE -->…<!-- /config:TYPE -->` block of a markdown text with the
 * current table, so the README's reference can never drift from the schemas.
 */
export function updateConfigTables(markdown: string): string {
  return markdown.replace(/<!-- config:([a-z_]+) -->[\s\S]*?<!-- \/config:\1 -->/g, (_m, type: string) => `<!-- config:${type} -->\n${configTable(type)}\n<!-- /config:${type} -->`);
}
