import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { EvalError } from "../errors.js";
import { readEvalsFile } from "./config-file.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "simeval-config-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function file(text: string): string {
  const path = join(dir, "evals.json");
  writeFileSync(path, text);
  return path;
}

async function errorOf(path: string): Promise<EvalError> {
  const error = await readEvalsFile(path).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(EvalError);
  return error as EvalError;
}

describe("readEvalsFile", () => {
  it("returns the specs of a well-formed file, leaving their validation to the caller", async () => {
    const specs = [{ type: "levenshtein", config: { threshold: 2 } }];
    expect(await readEvalsFile(file(JSON.stringify({ evaluators: specs })))).toEqual(specs);
  });

  it("reads a file that starts with a UTF-8 byte order mark", async () => {
    const specs = [{ type: "exact_match" }];
    expect(await readEvalsFile(file(`\uFEFF${JSON.stringify({ evaluators: specs })}`))).toEqual(specs);
  });

  it("reports an unknown top-level key together with every problem of the specs", async () => {
    const path = file('{"evaluators":[{"type":"levenshtein","config":{"threshold":2}}],"extra":1}');
    const e = await errorOf(path);
    expect(e.code).toBe("CONFIG_INVALID");
    expect(e.issues.map((i) => i.path)).toEqual([["extra"], ["evaluators", 0, "config", "threshold"]]);
    expect(e.message).toContain(`${path}: Invalid evaluator configuration (2 problems)`);
    expect(e.message).toContain('unknown top-level key "extra"; the file holds only "evaluators"');
    expect(e.message).toContain("invalid config.threshold: expected a number in [0, 1], received number 2");
  });

  it("reports an unknown key alone when the specs are valid, with a suggestion for a misspelt evaluators", async () => {
    const e = await errorOf(file('{"evaluators":[{"type":"exact_match"}],"note":"x"}'));
    expect(e.issues).toHaveLength(1);
    const typo = await errorOf(file('{"evaluator":[{"type":"exact_match"}]}'));
    expect(typo.issues.map((i) => i.path)).toEqual([["evaluator"], ["evaluators"]]);
    expect(typo.message).toContain('unknown top-level key "evaluator"; the file holds only "evaluators". Did you mean "evaluators"?');
    expect(typo.message).toContain('"evaluators" is missing');
  });

  it("lists the first 20 problems of a config with thousands, and counts the rest", async () => {
    const e = await errorOf(file(JSON.stringify({ evaluators: Array.from({ length: 2000 }, (_, i) => ({ type: "levenshtein", name: `l${i}`, config: { threshold: 2 } })), extra: 1 })));
    expect(e.issues).toHaveLength(2001);
    expect(e.message).toContain("Invalid evaluator configuration (2,001 problems):");
    expect(e.message.split("\n")).toHaveLength(1 + 40 + 1);
    expect(e.message).toMatch(/→ at evaluators\[18\]\.config\.threshold\n…and 1,981 more such problems\.$/);
  });

  it("says that a dataset given as --config looks like one (the arguments swapped)", async () => {
    const swapped = "--config takes the EVALS.json file, {\"evaluators\": [spec, ...]}, and the dataset comes before it: simeval run DATASET --config EVALS.json";
    const jsonl = await errorOf(file('{"output": "a", "expected": "b"}\n\n{"output": "c", "expected": "c"}\n'));
    expect(jsonl.message).toMatch(/: not valid JSON at line 3, column 1 \(.*\); it looks like a JSONL dataset \(a JSON value a line\): /);
    expect(jsonl.message.endsWith(swapped)).toBe(true);
    const array = await errorOf(file('[{"output": "a", "expected": "b"}]'));
    expect(array.message).toContain(`found an array; it looks like a dataset (an array of rows): ${swapped}`);
    // A CSV dataset (the arguments swapped, `simeval run evals.json --config data.csv`) is not JSON at its first character.
    const csv = join(dir, "data.csv");
    writeFileSync(csv, "output,expected\na,a\n");
    const asCsv = (await errorOf(csv)).message;
    expect(asCsv).toMatch(/: not valid JSON at line 1, column 1 \([^]*\); it is named as a CSV dataset: /);
    expect(asCsv.endsWith(swapped)).toBe(true);
    const tsv = join(dir, "data.tsv");
    writeFileSync(tsv, "output\texpected\na\ta\n");
    expect((await errorOf(tsv)).message).toMatch(/; it is named as a CSV dataset: /);
    // Not JSON lines, not rows: no such hint.
    expect((await errorOf(file('{"evaluators": []}\nnot json'))).message).not.toContain("dataset");
    expect((await errorOf(file('[{"type": "levenshtein"}]'))).message).not.toContain("dataset");
  });

  it("rejects an empty or non-array evaluators, and files that are not a JSON object", async () => {
    expect((await errorOf(file('{"evaluators":[]}'))).message).toContain('"evaluators" must be a non-empty array of evaluator specs');
    expect((await errorOf(file('{"evaluators":{"type":"exact_match"}}'))).issues).toHaveLength(1);
    // An object for the list: say to wrap it in [ ].
    expect((await errorOf(file('{"evaluators":{"type":"exact_match"}}'))).message).toContain('"evaluators" must be a non-empty array of evaluator specs, received an object: it is one spec; wrap it in [ ], {"evaluators": [{"type": "exact_match"}]}');
    expect((await errorOf(file('{"evaluators":{"lev":{"type":"levenshtein"},"em":{"type":"exact_match"}}}'))).message).toContain(
      'received an object: list the specs in [ ], each with its "name", {"evaluators": [{"name": "lev", "type": "levenshtein"}, …]}',
    );
    expect((await errorOf(file('{"evaluators":{}}'))).message).toContain('received an object: the specs go in [ ], {"evaluators": [{"type": "levenshtein"}, …]}');
    // The spec is cut at 80 characters, never inside an emoji (a lone surrogate half).
    const pad = "a".repeat(78 - '{"type": "exact_match", "x": "'.length);
    const cut = (await errorOf(file(JSON.stringify({ evaluators: { type: "exact_match", x: `${pad}😀${"b".repeat(20)}` } })))).message;
    expect(cut).toContain(`{"evaluators": [{"type": "exact_match", "x": "${pad}…]}`);
    expect(cut).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
    expect((await errorOf(file('{"evaluators":[]}'))).message).toContain("received an empty array");
    expect((await errorOf(file('{"evaluators":"levenshtein"}'))).message).toMatch(/received string "levenshtein"\n/);
    expect((await errorOf(file("[]"))).message).toMatch(/expected an object \{"evaluators": \[spec, \.\.\.\]\}, found an array$/);
    // One spec keyed by its name: no "…" after it; a spec longer than 80 characters is cut.
    expect((await errorOf(file('{"evaluators":{"em":{"type":"exact_match"}}}'))).message).toContain('list the specs in [ ], each with its "name", {"evaluators": [{"name": "em", "type": "exact_match"}]}');
    const long = (await errorOf(file(`{"evaluators":{"type":"levenshtein","name":"${"n".repeat(100)}"}}`))).message;
    expect(long).toContain(`wrap it in [ ], {"evaluators": [{"type": "levenshtein", "name": "${"n".repeat(46)}…]}`);
    expect((await errorOf(file("{evaluators"))).message).toContain("not valid JSON");
    expect((await errorOf(join(dir, "missing.json"))).code).toBe("USAGE");
  });

  it("keeps the message on one line where V8 quotes a short file whole, line breaks and all", async () => {
    const message = (await errorOf(file("hello\nworld\n"))).message;
    expect(message).toContain('"hello\\nworld\\n" is not valid JSON');
    expect(message).not.toContain("\n");
  });

  it("says on which line and column a file stops being JSON", async () => {
    expect((await errorOf(file('{"evaluators":[\n  {"type":"levenshtein",}\n]}'))).message).toContain("not valid JSON at line 2, column 24 (a trailing comma: JSON allows none before ] or }) (");
    // The place is the 1-based line and column alone: V8's 0-based "in JSON at position 39" is left out.
    expect((await errorOf(file('{"evaluators":[\n  {"type":"levenshtein",}\n]}'))).message).toMatch(/ \(Expected double-quoted property name\)$/);
    expect((await errorOf(file('{"evaluators":[\n  {"type":"exact_match"},\n]}'))).message).toContain("not valid JSON at line 2, column 25 (a trailing comma");
    // V8 gives no position for these.
    expect((await errorOf(file('{"evaluators":[\n  {"type": exact_match}]}'))).message).toContain("not valid JSON at line 2, column 12 (");
    expect((await errorOf(file('{"é":[],\n x}'))).message).toContain("not valid JSON at line 2, column 2 (");
    expect((await errorOf(file('{"evaluators":[] "x"}'))).message).toContain("not valid JSON at line 1, column 18 (");
    expect((await errorOf(file('{"evaluators":[\n'))).message).toContain("not valid JSON at line 2, column 1 (");
  });

  it("reports a key given twice in one object, which JSON.parse would drop without a word, with the specs' problems", async () => {
    const whole = await errorOf(file('{"evaluators":[{"type":"exact_match"}],\n "evaluators":[{"type":"levenshtein"}]}'));
    expect(whole.issues.map((i) => i.path)).toEqual([["evaluators"]]);
    expect(whole.message).toContain('the key "evaluators" is given twice (at line 1, column 2 and at line 2, column 2); JSON keeps only the last, so the first would be ignored: keep one');
    // Keys are compared with their escapes resolved; a key starting with U+FEFF is another key.
    const e = await errorOf(file('{"evaluators":[{"type":"levenshtein","config":{"threshold":0.5,"threshold":2}},{"type":"exact_match","inputs":{"output":"$.a","out\\u0070ut":"$.b"},"name":"\\ufeffx","\\ufeffname":1}]}'));
    expect(e.issues.map((i) => i.path)).toEqual([
      ["evaluators", 0, "config", "threshold"],
      ["evaluators", 1, "inputs", "output"],
      ["evaluators", 0, "config", "threshold"],
      ["evaluators", 1, "\ufeffname"],
      ["evaluators", 1, "name"],
    ]);
    expect(e.message).toContain('evaluators[0].config: the key "threshold" is given twice (at line 1, column 48 and at line 1, column 64)');
    expect(e.message).toContain('evaluators[1].inputs: the key "output" is given twice');
  });

  it("lists the first 20 keys given twice, then how many more, where every one was placed by encoding the text up to it", async () => {
    const repeated = Array.from({ length: 50 }, () => '"x":1').join(",");
    const e = await errorOf(file(`{"evaluators":[{"type":"exact_match"}],${repeated}}`));
    // 20 placed, one for the 29 others, and "x" itself, an unknown top-level key.
    expect(e.issues).toHaveLength(22);
    expect(e.issues.slice(0, 20).every((i) => i.path.join(".") === "x")).toBe(true);
    expect(e.issues[20]).toMatchObject({ path: [], message: "…and 29 more keys given again in the same object" });
    expect(e.message).toContain("(22 problems)");
  });

  it("says what a file that is not JSON is: empty, a comment, YAML, UTF-16, compressed, or a path through a file", async () => {
    expect((await errorOf(file(" \n"))).message).toMatch(/evals\.json: the file is empty; expected \{"evaluators": \[spec, \.\.\.\]\}$/);
    expect((await errorOf(file("\uFEFF"))).message).toContain("the file is empty");
    expect((await errorOf(file('{\n  // evals\n  "evaluators": []}'))).message).toContain("not valid JSON at line 2, column 3 (a comment: JSON allows none) (");
    expect((await errorOf(file('{"evaluators": /* all */ []}'))).message).toContain("not valid JSON at line 1, column 16 (a comment: JSON allows none) (");
    const yaml = await errorOf(file("# evals\nevaluators:\n  - type: levenshtein\n"));
    expect(yaml.message).toContain('; it looks like YAML: the --config file is JSON, {"evaluators": [{"type": "levenshtein"}]}');
    expect((await errorOf(file("{evaluators"))).message).not.toContain("YAML");
    // "key:value" with no space after the colon is a YAML scalar, not a key.
    expect((await errorOf(file("levenshtein:0.8\n"))).message).not.toContain("YAML");
    const path = join(dir, "evals.json");
    writeFileSync(path, Buffer.from('\uFEFF{"evaluators": []}', "utf16le"));
    expect((await errorOf(path)).message).toBe(`${path}: is UTF-16 text (it starts with a UTF-16 byte order mark); expected UTF-8: convert it first, e.g. iconv -f UTF-16 -t UTF-8 FILE > FILE-utf8`);
    writeFileSync(path, gzipSync('{"evaluators": []}'));
    expect((await errorOf(path)).message).toBe(`${path}: is gzip-compressed; expected a UTF-8 text file (JSON): decompress it first, e.g. gunzip -k FILE`);
    const through = await errorOf(join(path, "x"));
    expect(through.code).toBe("USAGE");
    expect(through.message).toBe(`${join(path, "x")}: no such file (a part of the path is not a directory) (the --config file holds {"evaluators": [...]})`);
  });

  it("refuses bytes that are not UTF-8 (a file saved as Latin-1), naming the line, column and byte, where they were read as U+FFFD", async () => {
    const path = join(dir, "evals.json");
    writeFileSync(path, Buffer.concat([Buffer.from('\uFEFF{"evaluators": [\n  {"type": "exact_match", "name": "caf'), Buffer.from([0xe9]), Buffer.from('"}]}')]));
    const e = await errorOf(path);
    expect(e.code).toBe("CONFIG_INVALID");
    expect(e.message).toBe(
      `${path}: not valid UTF-8 at line 2, column 39 (byte 0xE9); the file was likely saved in another encoding (Windows-1252 or Latin-1): convert it to UTF-8, e.g. iconv -f WINDOWS-1252 -t UTF-8 FILE > FILE-utf8`,
    );
    // A lone surrogate written as UTF-8 bytes (CESU-8) is not UTF-8 either.
    writeFileSync(path, Buffer.concat([Buffer.from('{"evaluators": [{"type": "exact_match", "name": "'), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('"}]}')]));
    expect((await errorOf(path)).message).toContain("not valid UTF-8 at line 1, column 50 (byte 0xED)");
    // On the first line after a byte order mark, the column is counted after it, as a JSON error's is; the first byte is column 1.
    writeFileSync(path, Buffer.concat([Buffer.from('\uFEFF{"evaluators": [{"type": "exact_match", "name": "'), Buffer.from([0xe9]), Buffer.from('"}]}')]));
    expect((await errorOf(path)).message).toContain("not valid UTF-8 at line 1, column 50 (byte 0xE9)");
    writeFileSync(path, Buffer.concat([Buffer.from([0xe9]), Buffer.from('{"evaluators": []}')]));
    expect((await errorOf(path)).message).toBe(`${path}: not valid UTF-8 at line 1, column 1 (byte 0xE9); the file was likely saved in another encoding (Windows-1252 or Latin-1): convert it to UTF-8, e.g. iconv -f WINDOWS-1252 -t UTF-8 FILE > FILE-utf8`);
  });
});
