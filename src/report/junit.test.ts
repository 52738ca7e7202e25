import { XMLParser, XMLValidator } from "fast-xml-parser";
import { describe, expect, it } from "vitest";
import type { RowOutcome, StoredResult } from "../run/types.js";
import { renderJUnit } from "./junit.js";

interface Node {
  [key: string]: string | Node | Node[] | undefined;
}
const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "@",
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  htmlEntities: true,
  isArray: (name) => ["testsuite", "testcase"].includes(name),
});

function parse(xml: string): { suites: Node; list: Node[] } {
  expect(XMLValidator.validate(xml)).toBe(true);
  const doc = parser.parse(xml) as { testsuites: Node };
  return { suites: doc.testsuites, list: (doc.testsuites["testsuite"] as Node[] | undefined) ?? [] };
}

function result(over: Partial<StoredResult>): StoredResult {
  return { type: "levenshtein", score: 0.9, passed: true, label: "pass", reasoning: "ok", skipped: false, details: {}, ...over };
}

const rows: RowOutcome[] = [
  { row: 1, id: "q1", results: { lev: result({}), dist: result({ type: "levenshtein_distance", score: 3, passed: null, label: null }) } },
  { row: 2, id: "q2", results: { lev: result({ score: 0.2, passed: false, label: "fail", reasoning: "Edit distance 8: 1 - 8/10 = 0.2, is below the threshold 0.7." }), dist: result({ score: 8, passed: null }) } },
  { row: 3, id: null, results: { lev: result({ score: 0, passed: null, skipped: true, reasoning: "No expected output." }), dist: result({ skipped: true, score: null, passed: null }) } },
  { row: 4, id: 7, results: { lev: { error: { code: "INPUT_INVALID", message: "$.output matched 2 values" } }, dist: result({ score: 0 }) } },
  { row: 5, id: undefined, line: 5, results: {}, error: { code: "DATASET_INVALID", message: "line 5: not valid JSON (Unexpected token })" } },
];

describe("renderJUnit", () => {
  const xml = renderJUnit({
    name: "simeval run r1",
    timestamp: "2024-06-03T14:22:05Z",
    evaluators: ["lev", "dist"],
    rows,
    gates: [
      { name: "levenshtein=0.8", passed: false, message: "mean 0.55 is below 0.8" },
      { name: "dist=5", passed: true, message: "mean 2.75 is within 5" },
    ],
  });
  const { suites, list } = parse(xml);

  it("has one suite per evaluator, then unreadable rows, then gates", () => {
    expect(xml.startsWith(`<?xml version="1.0" encoding="UTF-8"?>`)).toBe(true);
    expect(list.map((s) => s["@name"])).toEqual(["simeval.lev", "simeval.dist", "simeval:rows", "simeval:gates"]);
    expect(list[0]?.["@timestamp"]).toBe("2024-06-03T14:22:05Z");
  });

  it("gives each row a testcase with its verdict", () => {
    const lev = list[0] as Node;
    expect([lev["@tests"], lev["@failures"], lev["@errors"], lev["@skipped"]]).toEqual(["4", "1", "1", "1"]);
    const cases = lev["testcase"] as Node[];
    expect(cases.map((c) => c["@name"])).toEqual(["row 1 (id q1)", "row 2 (id q2)", "row 3", "row 4 (id 7)"]);
    expect(cases[0]?.["failure"]).toBeUndefined();
    const failure = cases[1]?.["failure"] as Node;
    expect(failure["@message"]).toBe("Edit distance 8: 1 - 8/10 = 0.2, is below the threshold 0.7.");
    expect(failure["@type"]).toBe("levenshtein");
    expect(failure["#text"]).toBe("score: 0.2\nEdit distance 8: 1 - 8/10 = 0.2, is below the threshold 0.7.");
    expect((cases[2]?.["skipped"] as Node)["@message"]).toBe("No expected output.");
    const error = cases[3]?.["error"] as Node;
    expect([error["@type"], error["@message"]]).toEqual(["INPUT_INVALID", "$.output matched 2 values"]);
  });

  it("passes rows an evaluator gives no verdict on", () => {
    const dist = list[1] as Node;
    expect([dist["@tests"], dist["@failures"], dist["@errors"], dist["@skipped"]]).toEqual(["4", "0", "0", "1"]);
  });

  it("reports unreadable rows once, as errors", () => {
    const r = list[2] as Node;
    const cases = r["testcase"] as Node[];
    expect(cases).toHaveLength(1);
    expect((cases[0]?.["error"] as Node)["#text"]).toBe("line 5: not valid JSON (Unexpected token })"); // the reader's message names its line once
  });

  it("has a testcase per gate, failed gates with the reason", () => {
    const g = list[3] as Node;
    const cases = g["testcase"] as Node[];
    expect(cases.map((c) => c["@name"])).toEqual(["levenshtein=0.8", "dist=5"]);
    expect((cases[0]?.["failure"] as Node)["@message"]).toBe("mean 0.55 is below 0.8");
    expect(cases[1]?.["failure"]).toBeUndefined();
  });

  it("adds the suites' counts up on <testsuites>", () => {
    expect([suites["@name"], suites["@tests"], suites["@failures"], suites["@errors"], suites["@skipped"]]).toEqual(["simeval run r1", "11", "2", "2", "2"]);
  });

  it("escapes markup and removes characters XML 1.0 forbids, so the file still parses", () => {
    const nasty = `<script>&"x"\u0000\u0007\u001B\uFFFF\uD800 end`;
    const out = renderJUnit({
      name: nasty,
      evaluators: [nasty],
      rows: [{ row: 1, id: nasty, results: { [nasty]: result({ passed: false, reasoning: `${nasty}\nsecond line` }) } }],
      gates: [{ name: nasty, passed: false, message: nasty }],
    });
    expect(out).not.toMatch(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/);
    expect(out).not.toContain("<script>");
    const { list: l } = parse(out);
    const cleaned = `<script>&"x"\uFFFD\uFFFD\uFFFD\uFFFD\uFFFD end`;
    expect(l[0]?.["@name"]).toBe(`simeval.${cleaned}`);
    const tc = (l[0]?.["testcase"] as Node[])[0] as Node;
    expect(tc["@name"]).toBe(`row 1 (id ${cleaned})`);
    // The message attribute holds the first line; the body all of it.
    expect((tc["failure"] as Node)["@message"]).toBe(cleaned);
    expect((tc["failure"] as Node)["#text"]).toBe(`score: 0.9\n${cleaned}\nsecond line`);
  });

  it("keeps a testcase name on one line, and cuts a long message without splitting an emoji", () => {
    const long = `${"a".repeat(298)}😀😀 tail`;
    const out = renderJUnit({
      name: "r",
      evaluators: ["lev"],
      rows: [{ row: 1, id: "a\nb\tc", results: { lev: result({ passed: false, reasoning: long }) } }],
      gates: [],
    });
    const tc = ((parse(out).list[0] as Node)["testcase"] as Node[])[0] as Node;
    expect(tc["@name"]).toBe("row 1 (id a\\nb\\tc)");
    expect((tc["failure"] as Node)["@message"]).toBe(`${"a".repeat(298)}😀…`);
  });

  it("keeps a message's first line whole up to 300 characters, and cuts one of 301 to 299 and \"…\"", () => {
    const message = (reasoning: string): string => {
      const out = renderJUnit({ name: "r", evaluators: ["lev"], rows: [{ row: 1, id: null, results: { lev: result({ passed: false, reasoning }) } }], gates: [] });
      return (((parse(out).list[0] as Node)["testcase"] as Node[])[0]?.["failure"] as Node)["@message"] as string;
    };
    expect(message(`${"b".repeat(299)}😀\nsecond line`)).toBe(`${"b".repeat(299)}😀`);
    expect(message(`${"b".repeat(300)}c`)).toBe(`${"b".repeat(299)}…`);
  });

  it("gives a message starting with line breaks (or blank lines) its first line that is not blank", () => {
    const out = renderJUnit({
      name: "r",
      evaluators: ["lev"],
      rows: [
        { row: 1, id: null, results: { lev: result({ passed: false, reasoning: "\nEdit distance 8.\nsecond line" }) } },
        { row: 2, id: null, results: { lev: { error: { code: "INPUT_INVALID", message: "\r\n  \n$.output matched 2 values" } } } },
        { row: 3, id: null, results: { lev: result({ passed: false, reasoning: "\n \n" }) } },
      ],
      gates: [{ name: "mean", passed: false, message: "\nmean 0.2 < 0.7\r\nsecond line" }],
    });
    const { list: l } = parse(out);
    const cases = (l[0] as Node)["testcase"] as Node[];
    expect((cases[0]?.["failure"] as Node)["@message"]).toBe("Edit distance 8.");
    expect((cases[1]?.["error"] as Node)["@message"]).toBe("$.output matched 2 values");
    expect((cases[2]?.["failure"] as Node)["@message"]).toBe(""); // nothing but blank lines
    const gate = ((l[1] as Node)["testcase"] as Node[])[0] as Node;
    expect((gate["failure"] as Node)["@message"]).toBe("mean 0.2 < 0.7");
  });

  it("fails the skipped rows of the evaluators counted that way by --count-skipped-as-zero, as the summary does", () => {
    const { suites: s, list: l } = parse(renderJUnit({ name: "r", evaluators: ["lev", "dist"], skippedAsFailed: ["lev"], rows, gates: [] }));
    const lev = l[0] as Node;
    expect([lev["@tests"], lev["@failures"], lev["@errors"], lev["@skipped"]]).toEqual(["4", "2", "1", "0"]);
    const failure = (lev["testcase"] as Node[])[2]?.["failure"] as Node;
    expect(failure["@message"]).toBe("no expected output; counted as failed because of --count-skipped-as-zero");
    expect([failure["@type"], failure["#text"]]).toEqual(["levenshtein", "No expected output."]);
    // An evaluator left out (one without verdicts) keeps its skipped rows skipped.
    const dist = l[1] as Node;
    expect([dist["@failures"], dist["@skipped"]]).toEqual(["0", "1"]);
    expect([s["@failures"], s["@skipped"]]).toEqual(["2", "1"]);
  });

  it("keeps evaluators named rows and gates apart from simeval's own suites", () => {
    const named: RowOutcome[] = [
      { row: 1, id: "a", results: { rows: result({}), gates: result({}) } },
      { row: 2, id: undefined, line: 2, results: {}, error: { code: "DATASET_INVALID", message: "line 2: not valid JSON" } },
    ];
    const { list: l } = parse(renderJUnit({ name: "r", evaluators: ["rows", "gates"], rows: named, gates: [{ name: "--fail-under gates=0.8", passed: true, message: "passed" }] }));
    const names = l.map((s) => s["@name"]);
    expect(names).toEqual(["simeval.rows", "simeval.gates", "simeval:rows", "simeval:gates"]);
    expect(new Set(names).size).toBe(names.length);
    const firstCase = (suite: number) => ((l[suite]?.["testcase"] as Node[])[0] as Node)["@classname"];
    expect([0, 1, 2, 3].map(firstCase)).toEqual(names);
  });

  it("leaves out simeval:rows when every row was read and simeval:gates when there are no gates, as README says", () => {
    const read = rows.filter((r) => !r.error);
    expect(parse(renderJUnit({ name: "r", evaluators: ["lev"], rows: read, gates: [] })).list.map((s) => s["@name"])).toEqual(["simeval.lev"]);
    const gates = [{ name: "lev=0.5", passed: true, message: "passed" }];
    expect(parse(renderJUnit({ name: "r", evaluators: ["lev"], rows: read, gates })).list.map((s) => s["@name"])).toEqual(["simeval.lev", "simeval:gates"]);
    expect(parse(renderJUnit({ name: "r", evaluators: ["lev"], rows, gates: [] })).list.map((s) => s["@name"])).toEqual(["simeval.lev", "simeval:rows"]);
  });

  it("gives the run's duration as the time of the document and of each suite of rows, the gates 0, and no testcase a time", () => {
    const timed = renderJUnit({ name: "r", evaluators: ["lev", "dist"], time: 12.3456, rows, gates: [{ name: "lev=0.5", passed: true, message: "passed" }] });
    const { suites: s, list: l } = parse(timed);
    expect(s["@time"]).toBe("12.346");
    expect(l.map((suite) => [suite["@name"], suite["@time"]])).toEqual([
      ["simeval.lev", "12.346"],
      ["simeval.dist", "12.346"],
      ["simeval:rows", "12.346"],
      ["simeval:gates", "0.000"],
    ]);
    // No `time="0"` on each row and evaluator, read as "took no time": a row's time per evaluator is not measured.
    expect(l.flatMap((suite) => suite["testcase"] as Node[]).filter((c) => c["@time"] !== undefined)).toEqual([]);
    expect(timed).not.toMatch(/<testcase [^>]*time=/);
  });

  it("writes no time at all when the run's duration is not given, and refuses one that is not a duration", () => {
    const untimed = renderJUnit({ name: "r", evaluators: ["lev"], rows, gates: [{ name: "lev=0.5", passed: true, message: "passed" }] });
    expect(untimed).not.toContain("time=");
    // A run that took no measurable time (its start and end in the same millisecond) has a duration: 0.
    expect(parse(renderJUnit({ name: "r", evaluators: ["lev"], rows, gates: [], time: 0 })).suites["@time"]).toBe("0.000");
    for (const time of [-1, Number.NaN, Number.POSITIVE_INFINITY, "12"]) {
      expect(() => renderJUnit({ name: "r", evaluators: ["lev"], rows, gates: [], time } as never)).toThrow(/renderJUnit: input\.time must be/);
    }
  });

  it("writes an empty run as an empty, valid document", () => {
    const { suites: s, list: l } = parse(renderJUnit({ name: "empty", evaluators: [], rows: [], gates: [] }));
    expect(l).toEqual([]);
    expect(s["@tests"]).toBe("0");
  });
});
