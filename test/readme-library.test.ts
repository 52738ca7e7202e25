/**
 * Runs the ```ts examples of README.md's "## Library" section as a user would, against the built package
 * (`import ... from "simeval"` resolves to dist/ through the package's self-reference, as in
 * package.test.ts), and checks that every `console.log` prints the value its `// ...` comment says.
 *
 * A comment is read as a JavaScript value (`// [{ row: 1, added: true }]`, `// "number"`, the object of
 * several `//` lines under a `console.log` that has no comment of its own) and must equal what is logged,
 * whole (every field, not only some) and exactly: numbers are not rounded for the comparison. The `0.92`
 * of the levenshtein result is the score itself, which the evaluator rounds half-up to two decimals; a
 * comment that wrote an unrounded score shorter would misstate what `console.log` prints, and fails.
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("..", import.meta.url));
const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");

/** README.md's "## Library" section, up to the next heading of its level (its ### subsections included). */
function librarySection(): string {
  const start = readme.indexOf("\n## Library\n");
  if (start < 0) throw new Error('README.md has no "## Library" section');
  const end = readme.indexOf("\n## ", start + 1);
  return readme.slice(start, end < 0 ? undefined : end);
}

/** The ```ts blocks of the Library section, without the indentation of a block in a list item. */
function tsBlocks(): string[] {
  return [...librarySection().matchAll(/^( *)```ts\n([\s\S]*?)^\1```$/gm)].map(([, indent = "", body = ""]) =>
    body.split("\n").map((line) => (line.startsWith(indent) ? line.slice(indent.length) : line)).join("\n"),
  );
}

/** The ```ts block of the Library section that holds `marker`. */
function tsBlock(marker: string): string {
  const block = tsBlocks().find((body) => body.includes(marker));
  if (block !== undefined) return block;
  throw new Error(`README.md's "## Library" section has no \`\`\`ts block holding ${JSON.stringify(marker)}`);
}

interface Expectation {
  /** The `console.log(...)` line, to name it in a failure. */
  code: string;
  /** The comment's text, without its `//`. */
  comment: string;
}

/**
 * What each `console.log` of a block should print, in order: the comment after it on its line, or else the
 * `//` lines right under it. A `console.log` with neither is an error, since nothing would check it.
 */
function expectations(block: string): Expectation[] {
  const lines = block.split("\n");
  const found: Expectation[] = [];
  lines.forEach((line, i) => {
    if (!/^\s*console\.log\(/.test(line)) return;
    const trailing = /\);\s*\/\/ (.*)$/.exec(line);
    let comment = trailing?.[1];
    if (comment === undefined) {
      const below: string[] = [];
      for (let j = i + 1; j < lines.length && /^\s*\/\//.test(lines[j]!); j++) below.push(lines[j]!.replace(/^\s*\/\/\s?/, ""));
      if (below.length > 0) comment = below.join("\n");
    }
    if (comment === undefined) throw new Error(`README.md's example line ${JSON.stringify(line.trim())} has no comment saying what it prints`);
    found.push({ code: line.trim(), comment });
  });
  return found;
}

/** The value a comment writes, as a JavaScript expression (the README's own text, so it is trusted). */
function commentValue(comment: string): unknown {
  return new Function(`return (${comment});`)();
}

/**
 * Runs a block in a child node process from the repository's root, with `console.log` replaced by one that
 * writes each value as a line of JSON (`{"value": ...}`, so that `undefined` comes through as a missing key).
 */
function runBlock(block: string): { values: unknown[]; stderr: string; status: number | null } {
  const logAsJson = 'console.log = (value) => process.stdout.write(JSON.stringify({ value }) + "\\n");\n';
  const p = spawnSync(process.execPath, ["--input-type=module", "-e", logAsJson + block], { cwd: root, encoding: "utf8" });
  const values = p.stdout.split("\n").filter((line) => line !== "").map((line) => (JSON.parse(line) as { value?: unknown }).value);
  return { values, stderr: p.stderr, status: p.status };
}

/** A value as the child's JSON gives it back, so that a comment's value compares with a logged one. */
function throughJson(value: unknown): unknown {
  return (JSON.parse(JSON.stringify({ value })) as { value?: unknown }).value;
}

function checkBlock(marker: string): void {
  const block = tsBlock(marker);
  const wanted = expectations(block);
  expect(wanted.length).toBeGreaterThan(0);
  const { values, stderr, status } = runBlock(block);
  expect(stderr).toBe("");
  expect(status).toBe(0);
  expect(values.length, "one printed value per console.log").toBe(wanted.length);
  wanted.forEach(({ code, comment }, i) => {
    const expected = throughJson(commentValue(comment));
    expect(values[i], `${code} prints what its comment says`).toStrictEqual(expected);
  });
}

const markers = {
  evaluator: "import { createEvaluator, levenshteinDistance }",
  store: "import { createEvaluators, finishStoredRun, openSqliteStore, scoreRecord }",
};

describe('README "## Library" examples', () => {
  it("are the two blocks checked here (a new example needs a test too)", () => {
    expect(tsBlocks().map((body) => Object.values(markers).find((marker) => body.includes(marker)) ?? body)).toEqual(Object.values(markers));
  });

  it("createEvaluator and levenshteinDistance print what their comments say", () => {
    checkBlock(markers.evaluator);
  });

  it("the run store example (appendRows, rowByKey, finishStoredRun) prints what its comments say", () => {
    checkBlock(markers.store);
  });
});
