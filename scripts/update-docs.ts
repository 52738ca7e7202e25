/** Regenerates the config tables in README.md from the evaluator registry: `npm run docs`. */
import { readFileSync, writeFileSync } from "node:fs";
import { updateConfigTables } from "../src/docs/config-tables.js";

const path = new URL("../README.md", import.meta.url);
const before = readFileSync(path, "utf8");
const after = updateConfigTables(before);
if (after !== before) writeFileSync(path, after);
console.log(after === before ? "README.md config tables are current" : "README.md config tables updated");
