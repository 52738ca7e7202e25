import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { jsonErrorPlace, jsonFault, jsonParseMessage } from "./json-error-place.js";

const LINE_BREAK = ' (a line break inside a string: close the string with " before the line ends, or write the break as \\n)';

/** JSON.parse's error on `text`, or undefined when it is JSON. */
function parseError(text: string): Error | undefined {
  try {
    JSON.parse(text);
    return undefined;
  } catch (error) {
    return error as Error;
  }
}

/** JSON texts broken by a few inserted or overwritten pieces: stray punctuation, comments, quotes, bare words. */
const broken = fc
  .tuple(
    fc.jsonValue({ maxDepth: 3 }),
    fc.boolean(),
    fc.array(fc.tuple(fc.nat(), fc.constantFrom(",", "}", "]", "{", "[", ":", "x", "//c", "/*c*/", '"', "\\", "tru", "-", "1e", " ", "\n", "é", "😀", "'a'", "NaN"), fc.boolean()), { minLength: 1, maxLength: 3 }),
  )
  .map(([value, indent, edits]) => {
    let text = JSON.stringify(value, null, indent ? 1 : 0);
    for (const [at, piece, overwrite] of edits) {
      const i = at % (text.length + 1);
      text = text.slice(0, i) + piece + text.slice(overwrite ? i + 1 : i);
    }
    return text;
  })
  .filter((text) => parseError(text) !== undefined);

describe("jsonFault", () => {
  it("finds, from V8's position alone, the place that tokenizing the whole text finds", () => {
    // The earlier of V8's position and the first fault the tokenizer meets, as jsonFault found it before it
    // trusted the position: tokenizing costs several times JSON.parse on a text of megabytes. With the
    // position taken out of the message, jsonFault gives the tokenizer's place alone.
    fc.assert(
      fc.property(broken, (text) => {
        const error = parseError(text) as Error;
        const at = / at position (\d+)(?: \(line \d+ column \d+\))?$/.exec(error.message);
        if (!at) return;
        const position = Number(at[1]);
        const tokenized = jsonFault(text, new Error(error.message.slice(0, at.index)));
        const lineBreak = text[position] === "\n" || text[position] === "\r";
        expect(jsonFault(text, error)).toEqual(tokenized && tokenized.offset <= position ? tokenized : { offset: position, note: lineBreak ? LINE_BREAK : "" });
      }),
      { seed: 7, numRuns: 3000 },
    );
  });

  it("names a trailing comma where V8 points past it, and a comment where it points at one", () => {
    expect(jsonFault('{"a":1, \n }', parseError('{"a":1, \n }'))).toEqual({ offset: 6, note: " (a trailing comma: JSON allows none before ] or })" });
    expect(jsonFault('{"a":1 /* c */}', parseError('{"a":1 /* c */}'))).toEqual({ offset: 7, note: " (a comment: JSON allows none)" });
    expect(jsonFault('{"a":1} x', parseError('{"a":1} x'))).toEqual({ offset: 8, note: "" });
  });

  it("names a trailing comma before a closing bracket after a tab or a CRLF line break", () => {
    for (const text of ['{"a":1,\r\n}', "[1,\t]", '{"a":1,\t\r\n\t}']) {
      expect(jsonFault(text, parseError(text)), JSON.stringify(text)).toEqual({ offset: text.indexOf(","), note: " (a trailing comma: JSON allows none before ] or })" });
    }
  });

  it("places a text that ends too soon at its end", () => {
    expect(jsonErrorPlace('{"a":', parseError('{"a":'))).toBe(" at line 1, column 6");
    expect(jsonErrorPlace('{\n  "a": [1,', parseError('{\n  "a": [1,'))).toBe(" at line 2, column 11");
  });

  it("names a line break inside a string, LF or CRLF: a string left unclosed at its line's end", () => {
    for (const eol of ["\n", "\r\n"]) {
      const text = `{"evaluators": [${eol}  {"name": "em${eol}  }]}${eol}`;
      expect(jsonFault(text, parseError(text))).toEqual({ offset: text.indexOf(eol, 20), note: LINE_BREAK });
      expect(jsonErrorPlace(text, parseError(text))).toBe(` at line 2, column 15${LINE_BREAK}`);
    }
    // White space between tokens is no fault: the place is the token after it.
    expect(jsonFault('{"a":\n\n}', parseError('{"a":\n\n}'))?.note).toBe("");
  });

  it("names a control character at the fault, which a reader of the line cannot see: a NUL byte, a tab in a string", () => {
    const nul = '{"a":"x\u0000y"}';
    expect(jsonFault(nul, parseError(nul))).toEqual({ offset: 7, note: " (the control character U+0000, a NUL byte: JSON takes it only inside a string, escaped as \\u0000)" });
    const tab = '{"a":"x\ty"}';
    expect(jsonFault(tab, parseError(tab))?.note).toBe(" (the control character U+0009, a tab: JSON takes it only inside a string, escaped as \\u0009)");
    const after = '{"a":1}\u0001';
    expect(jsonErrorPlace(after, parseError(after))).toBe(" at line 1, column 8 (the control character U+0001: JSON takes it only inside a string, escaped as \\u0001)");
  });
});

describe("jsonParseMessage", () => {
  it("leaves V8's 0-based position out of the message", () => {
    expect(jsonParseMessage(parseError('{"a":1,}'))).toBe("Expected double-quoted property name");
    expect(jsonParseMessage(parseError('{"a":'))).toBe("Unexpected end of JSON input");
  });
});
