import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { RunInfo } from "../../run/types.js";
import { cliOutput, storesInTempDir } from "../test-support.js";
import fc from "fast-check";
import stringWidth from "string-width";
import { meansCell, shownDatasetPath } from "./runs.js";

const temp = storesInTempDir("simeval-runs-");
const { open } = temp;

describe("runs -n and --dataset", () => {
  /** A database of complete runs, oldest first, each of a name on a dataset file whose sha256 it records. */
  async function recordedOn(runs: [name: string, dataset: string][]): Promise<string> {
    const store = open();
    for (const [name, dataset] of runs) {
      const id = await store.beginRun({ name, dataset_path: dataset, dataset_hash: createHash("sha256").update(readFileSync(dataset)).digest("hex"), evaluators: [{ type: "exact_match" }] });
      await store.finishRun(id, { rows: 0, row_errors: 0, skipped_as_zero: false, evaluators: [] });
    }
    return join(temp.dir, "simeval.db");
  }

  const cli = (...argv: string[]) => cliOutput(argv);

  /** The names of the runs a table lists, newest first. */
  const names = (table: string) => table.split("\n").slice(2).map((line) => line.split(/\s+/)[1]);

  let a: string;
  let b: string;
  let copy: string;
  beforeEach(() => {
    a = join(temp.dir, "a.jsonl");
    b = join(temp.dir, "b.jsonl");
    copy = join(temp.dir, "copy", "a.jsonl");
    writeFileSync(a, '{"output":"x","expected":"x"}\n');
    writeFileSync(b, '{"output":"y","expected":"x"}\n');
    mkdirSync(join(temp.dir, "copy"));
    writeFileSync(copy, readFileSync(a));
  });

  it("keep the runs of that name, and those on that file or its content at another path, in the table and in --json", async () => {
    const db = await recordedOn([["nightly", a], ["adhoc", a], ["nightly", b], ["nightly", copy]]);
    expect(names((await cli("runs", "--db", db, "-n", "nightly")).out)).toEqual(["nightly", "nightly", "nightly"]);
    // A relative path is the file's, as in trend; the copy is kept by its content.
    const onA = await cli("runs", "--db", db, "--dataset", relative(process.cwd(), a));
    expect(onA).toMatchObject({ code: 0, err: "" });
    expect(names(onA.out.split("\n(same content)")[0] ?? "")).toEqual(["nightly", "adhoc", "nightly"]);
    expect(onA.out).not.toContain(b);
    // The copy's run is marked, as trend marks it, and the mark said under the table.
    expect(onA.out).toContain(`${copy} (same content)`);
    expect(onA.out.match(/\(same content\)/g)).toHaveLength(2);
    expect(onA.out).toContain(`(same content): recorded at another path, matched by content: its dataset's sha256 is that of ${a}`);
    const both = JSON.parse((await cli("runs", "--db", db, "--json", "--name=nightly", "--dataset", a)).out) as RunInfo[];
    expect(both.map((r) => [r.name, r.dataset_path])).toEqual([
      ["nightly", copy],
      ["nightly", a],
    ]);
  });

  it("list a dataset under the working folder by its relative path, and one elsewhere as recorded", async () => {
    expect(shownDatasetPath("/work/project/examples/a.jsonl", "/work/project")).toBe("examples/a.jsonl");
    expect(shownDatasetPath("/work/project/..a.jsonl", "/work/project")).toBe("..a.jsonl");
    expect(shownDatasetPath("/work/other/a.jsonl", "/work/project")).toBe("/work/other/a.jsonl");
    expect(shownDatasetPath("/work/project", "/work/project")).toBe("/work/project");
    // Outside the working folder (the test's temporary one): the recorded, absolute path.
    const db = await recordedOn([["nightly", a]]);
    expect((await cli("runs", "--db", db)).out.split("\n")[2]).toContain(` ${a}`);
    // A working folder deleted under the shell (process.cwd() throws): the recorded path, as before relative paths.
    const cwd = vi.spyOn(process, "cwd").mockImplementation(() => {
      throw Object.assign(new Error("ENOENT: no such file or directory, uv_cwd"), { code: "ENOENT" });
    });
    try {
      const gone = await cli("runs", "--db", db);
      expect(gone).toMatchObject({ code: 0, err: "" });
      expect(gone.out.split("\n")[2]).toContain(` ${a}`);
    } finally {
      cwd.mockRestore();
    }
  });

  it("say so when they keep no run, naming the filters, and exit 0; --json gives []", async () => {
    const db = await recordedOn([["nightly", a], ["adhoc", b]]);
    expect(await cli("runs", "--db", db, "-n", "weekly")).toEqual({ code: 0, out: 'No run named "weekly" (2 other runs are recorded; `simeval runs` without -n lists them).', err: "" });
    const gone = join(temp.dir, "gone.jsonl");
    expect((await cli("runs", "--db", db, "-n", "adhoc", "--dataset", gone)).out).toBe(`No run named "adhoc" on ${gone} (2 other runs are recorded; \`simeval runs\` without -n and --dataset lists them).`);
    expect((await cli("runs", "--db", db, "-n", "adhoc", "--dataset", a)).out).toBe(`No run named "adhoc" on ${a} or on a file with its content (2 other runs are recorded; \`simeval runs\` without -n and --dataset lists them).`);
    expect(await cli("runs", "--db", db, "-n", "weekly", "--json")).toEqual({ code: 0, out: "[]", err: "" });
  });

  it("refuse a directory as --dataset, as trend does (exit 2)", async () => {
    const db = await recordedOn([["nightly", a]]);
    const folder = join(temp.dir, "copy");
    for (const command of ["runs", "trend"]) {
      expect(await cli(command, "--db", db, "--dataset", folder)).toEqual({
        code: 2,
        out: "",
        err: `simeval: --dataset ${folder}: is a directory; expected a dataset file (.jsonl, .json or .csv), the path that runs were recorded on`,
      });
    }
  });

  it("--last keeps the newest n runs the filters keep, in the table and in --json", async () => {
    const db = await recordedOn([["nightly", a], ["adhoc", a], ["nightly", b], ["nightly", a], ["adhoc", b]]);
    expect(names((await cli("runs", "--db", db, "--last", "2")).out)).toEqual(["adhoc", "nightly"]);
    expect(names((await cli("runs", "--db", db, "--last", "9")).out)).toEqual(["adhoc", "nightly", "nightly", "adhoc", "nightly"]);
    const json = JSON.parse((await cli("runs", "--db", db, "--json", "-n", "nightly", "--dataset", a, "--last", "1")).out) as RunInfo[];
    const all = await open().listRuns();
    expect(json.map((r) => r.id)).toEqual([all[1]!.id]);
  });

  it("--last refuses what is not a whole number >= 1 (exit 2), before the database is looked at", async () => {
    for (const value of ["0", "two"]) {
      for (const command of ["runs", "trend"]) {
        expect(await cli(command, "--db", join(temp.dir, "none.db"), "--last", value)).toEqual({
          code: 2,
          out: "",
          err: `simeval: --last takes a whole number >= 1 (how many of the newest runs to keep), received ${JSON.stringify(value)}`,
        });
      }
    }
  });

  it("mark the baseline under the table only when the table lists it", async () => {
    const db = await recordedOn([["nightly", a], ["adhoc", b]]);
    await open().setBaseline((await open().findRun("nightly"))!.id);
    expect((await cli("runs", "--db", db)).out).toMatch(/\n\* baseline$/);
    expect((await cli("runs", "--db", db, "-n", "nightly")).out).toMatch(/\n\* baseline$/);
    expect((await cli("runs", "--db", db, "-n", "adhoc")).out).not.toContain("baseline");
  });

  it("mark the baseline's row with * after its id, and `show` says \"(baseline)\" of it alone", async () => {
    const db = await recordedOn([["nightly", a], ["adhoc", b]]);
    const [nightly, adhoc] = [(await open().findRun("nightly"))!.id, (await open().findRun("adhoc"))!.id];
    await open().setBaseline(nightly);
    const rows = (await cli("runs", "--db", db)).out.split("\n").slice(2, 4);
    expect(rows.find((l) => l.includes("nightly"))).toMatch(new RegExp(`^${nightly} \\* +nightly `));
    expect(rows.find((l) => l.includes("adhoc"))).toMatch(new RegExp(`^${adhoc} +adhoc `));
    expect((await cli("show", nightly, "--db", db)).out.split("\n")[0]).toBe(`run      ${nightly} (baseline)`);
    expect((await cli("show", adhoc, "--db", db)).out.split("\n")[0]).toBe(`run      ${adhoc}`);
  });
});

describe("a run not read from a dataset file (null dataset_path and dataset_hash: a service's)", () => {
  const cli = (...argv: string[]) => cliOutput(argv);
  let file: string;
  let db: string;
  let traces: string;
  let onFile: string;
  beforeEach(async () => {
    file = join(temp.dir, "a.jsonl");
    writeFileSync(file, '{"output":"x","expected":"x"}\n');
    const store = open();
    const empty = { rows: 0, row_errors: 0, skipped_as_zero: false, evaluators: [] };
    onFile = await store.beginRun({ name: "nightly", dataset_path: file, dataset_hash: createHash("sha256").update(readFileSync(file)).digest("hex"), evaluators: [{ type: "exact_match" }] });
    await store.finishRun(onFile, empty);
    traces = await store.beginRun({ name: "svc", dataset_path: null, dataset_hash: null, evaluators: [{ type: "exact_match" }] }, { owner: "none" });
    await store.finishRun(traces, empty);
    db = join(temp.dir, "simeval.db");
  });

  it("runs lists it with - as its dataset beside a run on a file, and null in --json", async () => {
    const listed = await cli("runs", "--db", db);
    expect(listed).toMatchObject({ code: 0, err: "" });
    const lines = listed.out.split("\n");
    expect(lines[0]).toMatch(/^id +name +started \(UTC\) +status +rows +dataset +means$/);
    expect(lines[2]).toMatch(new RegExp(`^${traces} +svc +\\S+ \\S+ +complete +0 +- *$`));
    expect(lines[3]).toMatch(new RegExp(`^${onFile} +nightly +\\S+ \\S+ +complete +0 +${file.replace(/[.\\]/g, "\\$&")} *$`));
    const json = JSON.parse((await cli("runs", "--db", db, "--json")).out) as RunInfo[];
    expect(json.map((r) => [r.name, r.dataset_path, r.dataset_hash])).toEqual([
      ["svc", null, null],
      ["nightly", file, expect.stringMatching(/^[0-9a-f]{64}$/)],
    ]);
  });

  it("runs --dataset never keeps it, by path or by content", async () => {
    const json = JSON.parse((await cli("runs", "--db", db, "--json", "--dataset", file)).out) as RunInfo[];
    expect(json.map((r) => r.name)).toEqual(["nightly"]);
    // A file whose sha256 no run recorded, at a path none recorded either: nothing kept, the null one neither.
    const other = join(temp.dir, "b.jsonl");
    writeFileSync(other, "{}\n");
    expect(JSON.parse((await cli("runs", "--db", db, "--json", "--dataset", other)).out)).toEqual([]);
  });

  it("show says it read no dataset file, and --json gives null; a run on a file is shown as before", async () => {
    const shown = await cli("show", "svc", "--db", db);
    expect(shown).toMatchObject({ code: 0, err: "" });
    expect(shown.out.split("\n")[5]).toBe("dataset  none (not read from a dataset file)");
    expect(JSON.parse((await cli("show", "svc", "--db", db, "--json")).out)).toMatchObject({ id: traces, dataset_path: null, dataset_hash: null });
    const hash = createHash("sha256").update(readFileSync(file)).digest("hex");
    expect((await cli("show", "nightly", "--db", db)).out.split("\n")[5]).toBe(`dataset  ${file} (sha256 ${hash})`);
  });
});

describe("runs' means", () => {
  it("lists the means that fit in the room, in order, then how many more; all of them when they fit", () => {
    const mean = fc.tuple(fc.oneof(fc.stringMatching(/^[a-z_ ]{1,30}$/), fc.constantFrom("中文", "👍🏽 ok")), fc.constantFrom("0.5", "1", "26.2517")).map(([n, m]) => `${n}=${m}`);
    fc.assert(
      fc.property(fc.array(mean, { maxLength: 12 }), fc.integer({ min: 0, max: 200 }), (means, room) => {
        const cell = meansCell(means, room);
        if (stringWidth(means.join(" ")) <= room) {
          expect(cell).toBe(means.join(" "));
          return;
        }
        const cut = cell.match(/^(.*) \+(\d+) more$/);
        if (!cut) {
          expect(cell).toBe(`${means.length} evaluators`);
          return;
        }
        const shown = means.length - Number(cut[2]);
        expect(shown).toBeGreaterThan(0);
        expect(cut[1]).toBe(means.slice(0, shown).join(" "));
        expect(stringWidth(cell)).toBeLessThanOrEqual(room);
        // One more would not have fitted.
        expect(stringWidth(`${means.slice(0, shown + 1).join(" ")} +${means.length - shown - 1} more`)).toBeGreaterThan(room);
      }),
    );
  });

  it("counts a cell that fills the room exactly as fitting", () => {
    // "a=1 b=2" is 7 columns: it fits in 7, and in 6 not even "a=1 +1 more" (11) does.
    expect(meansCell(["a=1", "b=2"], 7)).toBe("a=1 b=2");
    expect(meansCell(["a=1", "b=2"], 6)).toBe("2 evaluators");
    // Of five: "a=1 +4 more" is 11 columns, "a=1 b=2 +3 more" 15, "a=1 b=2 c=3 +2 more" 19, all five 19.
    const five = ["a=1", "b=2", "c=3", "d=4", "e=5"];
    expect(meansCell(five, 10)).toBe("5 evaluators");
    expect(meansCell(five, 11)).toBe("a=1 +4 more");
    expect(meansCell(five, 14)).toBe("a=1 +4 more");
    expect(meansCell(five, 15)).toBe("a=1 b=2 +3 more");
    expect(meansCell(five, 19)).toBe("a=1 b=2 c=3 d=4 e=5");
  });

  it("fit the terminal's width in the table (160 columns when stdout is not one)", async () => {
    const store = open();
    const evaluators = Array.from({ length: 12 }, (_, i) => ({ name: `answer_quality_${i}`, mean: i / 10 }));
    const id = await store.beginRun({ name: "wide", dataset_path: "/d.jsonl", dataset_hash: "ab", evaluators: evaluators.map((e) => ({ type: "exact_match", name: e.name })) });
    const summary = (e: (typeof evaluators)[number]) => ({ name: e.name, type: "exact_match", direction: "maximize" as const, threshold: null, n: 1, skipped: 0, errors: 0, mean: e.mean, median: e.mean, p10: e.mean, p90: e.mean, min: e.mean, max: e.mean, pass_rate: null, verdicts: 0 });
    await store.finishRun(id, { rows: 1, row_errors: 0, skipped_as_zero: false, evaluators: evaluators.map(summary) });
    const db = join(temp.dir, "simeval.db");
    for (const columns of [undefined, 120]) {
      const { code, out } = await cliOutput(["runs", "--db", db], columns);
      expect(code).toBe(0);
      const line = out.split("\n")[2] as string;
      expect(line.length).toBeLessThanOrEqual(columns ?? 160);
      expect(line, line).toMatch(/ answer_quality_0=0( answer_quality_\d+=\S+)* \+\d+ more$/);
    }
  });
});
