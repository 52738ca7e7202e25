import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { renderJUnit } from "../report/junit.js";
import type { RowOutcome } from "../run/types.js";
import { writeJUnitFile } from "./junit-file.js";
import { tempDir } from "../test-support.js";

const dir = tempDir("simeval-junit-");

/** While `at` is set, each write takes at most that many bytes, as a write to a disk that fills takes only what fits. */
const shortWrites = vi.hoisted(() => ({ at: 0 }));
vi.mock("node:fs", async (original) => {
  const fs = await original<typeof import("node:fs")>();
  const writeSync = (fd: number, data: string | NodeJS.ArrayBufferView, offset?: number, length?: number, position?: number | null): number => {
    const bytes = typeof data === "string" ? Buffer.from(data) : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
    const from = typeof data === "string" ? 0 : (offset ?? 0);
    const to = typeof data === "string" ? bytes.length : from + (length ?? bytes.length - from);
    const taken = shortWrites.at > 0 ? Math.min(to - from, shortWrites.at) : to - from;
    return fs.writeSync(fd, bytes, from, taken, typeof data === "string" ? (offset ?? null) : (position ?? null));
  };
  return { ...fs, writeSync, default: { ...fs, writeSync } };
});

/** 5,000 rows of every kind (pass, fail, skipped, error, unreadable): far more than one flush per suite. */
function* rows(): Generator<RowOutcome> {
  for (let i = 1; i <= 5000; i++) {
    if (i % 97 === 0) {
      yield { row: i, id: null, line: i, results: {}, error: { code: "DATASET_INVALID", message: `bad JSON <${i}>` } };
      continue;
    }
    const passed = i % 3 !== 0;
    yield {
      row: i,
      id: `q${i}`,
      results: {
        lev: { type: "levenshtein", score: passed ? 0.9 : 0.1, passed, label: passed ? "pass" : "fail", reasoning: `row ${i} & "quotes"`, skipped: i % 11 === 0, details: {} },
        ...(i % 13 === 0 ? { jac: { error: { code: "INPUT_INVALID", message: "$.output matched 2 values" } } } : {}),
      },
    };
  }
}

describe("writeJUnitFile", () => {
  const input = { name: "run <1>", timestamp: "2026-11-21T10:00:00Z", evaluators: ["lev", "jac"] };
  const gates = [{ name: "lev=0.8", passed: false, message: "mean 0.6 is below 0.8" }];

  it("writes rows read back with a record and a stored time (a run store's, schema version 5) as it writes them without", async () => {
    async function* stored(): AsyncGenerator<RowOutcome> {
      for (const r of rows()) yield { ...r, record: { output: `RECORDED-TEXT ${r.row}` }, stored_at: 1_800_000_000_000 + r.row };
    }
    await writeJUnitFile(join(dir, "plain.xml"), input, rows(), gates);
    await writeJUnitFile(join(dir, "stored.xml"), input, stored(), gates);
    const xml = readFileSync(join(dir, "stored.xml"), "utf8");
    expect(xml).not.toContain("RECORDED-TEXT");
    expect(xml).toBe(readFileSync(join(dir, "plain.xml"), "utf8"));
  });

  it("lets the event loop turn while the rows stream from a synchronous source, so that a Ctrl-C's listener runs", async () => {
    let read = 0;
    let turnedAt: number | undefined;
    function* counted(): Generator<RowOutcome> {
      for (const r of rows()) {
        // Asked for once the rows have begun: it runs on the event loop's next turn.
        if (++read === 1) setImmediate(() => (turnedAt = read));
        yield r;
      }
    }
    await writeJUnitFile(join(dir, "turns.xml"), input, counted(), gates);
    expect(turnedAt).toBeDefined();
    expect(turnedAt).toBeLessThanOrEqual(1024);
  });

  it("tells a progress display of the rows read back, of the total given, then is done with it", async () => {
    const updates: [number, number | null][] = [];
    let done = 0;
    const to = { update: (n: number, total: number | null) => void updates.push([n, total]), note: () => undefined, step: () => undefined, done: () => void done++ };
    await writeJUnitFile(join(dir, "progress.xml"), input, rows(), gates, { to, total: 5000 });
    expect(updates.length).toBeGreaterThan(1);
    expect(updates.every(([, total]) => total === 5000)).toBe(true);
    expect(updates.map(([n]) => n)).toEqual([...updates.map(([n]) => n)].sort((x, y) => x - y));
    expect(updates.at(-1)).toEqual([5000, 5000]);
    expect(done).toBe(1);
  });

  it("writes the file a symlink names, keeping the link, and writes into a FIFO rather than replacing it", async () => {
    const real = join(dir, "linked-real.xml");
    const link = join(dir, "linked.xml");
    symlinkSync(real, link);
    await writeJUnitFile(link, input, rows(), gates);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readFileSync(real, "utf8")).toBe(renderJUnit({ ...input, rows: rows(), gates }));

    // As `--junit /dev/stdout` piped to another program.
    const fifo = join(dir, "junit.fifo");
    execFileSync("mkfifo", [fifo]);
    // The reader writes to a file, not to this process: writeJUnitFile writes synchronously, and would wait on a reader waiting on it.
    const copy = join(dir, "fifo-read.xml");
    const reader = spawn("sh", ["-c", 'cat "$0" > "$1"', fifo, copy], { stdio: "ignore" });
    const ended = new Promise((done) => reader.on("close", done));
    await writeJUnitFile(fifo, input, rows(), gates);
    await ended;
    const got = readFileSync(copy, "utf8");
    expect(lstatSync(fifo).isFIFO()).toBe(true);
    expect(got).toBe(renderJUnit({ ...input, rows: rows(), gates }));
  });

  it("writes --junit /dev/stdout into the pipe standard output is (a link to \"pipe:[N]\", which realpath cannot resolve)", () => {
    const script = [
      `import { writeJUnitFile } from ${JSON.stringify(new URL("./junit-file.ts", import.meta.url).href)};`,
      `await writeJUnitFile("/dev/stdout", { name: "piped", evaluators: ["lev"] }, [{ row: 1, id: "q1", results: { lev: { type: "levenshtein", score: 1, passed: true, label: "pass", reasoning: "same", skipped: false, details: {} } } }], []);`,
    ].join("\n");
    // Through `| cat`, so that standard output is a pipe as a shell makes it (Node's own stdio "pipe" is a socket, which /dev/stdout cannot open).
    const p = spawnSync("sh", ["-c", '"$0" --import tsx --input-type=module -e "$1" | cat', process.execPath, script], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
    expect(p.stderr).toBe("");
    expect(p.status).toBe(0);
    expect(p.stdout).toBe(renderJUnit({ name: "piped", evaluators: ["lev"], rows: [{ row: 1, id: "q1", results: { lev: { type: "levenshtein", score: 1, passed: true, label: "pass", reasoning: "same", skipped: false, details: {} } } }], gates: [] }));
  });

  it("keeps no part file on disk while the rows stream, so that a process killed meanwhile (Ctrl-C twice, SIGTERM) leaves none", async () => {
    const path = join(dir, "killed", "junit.xml");
    const seen: string[][] = [];
    async function* watched(): AsyncGenerator<RowOutcome> {
      let i = 0;
      for (const row of rows()) {
        if (++i % 1000 === 0) seen.push(readdirSync(join(dir, "killed")));
        yield row;
      }
    }
    await writeJUnitFile(path, input, watched(), gates);
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.flat()).toEqual([]);
    expect(readFileSync(path, "utf8")).toBe(renderJUnit({ ...input, rows: rows(), gates }));
  });

  it("writes exactly the in-memory document, and leaves no part file behind", async () => {
    const path = join(dir, "out", "junit.xml");
    await writeJUnitFile(path, input, rows(), gates);
    expect(readFileSync(path, "utf8")).toBe(renderJUnit({ ...input, rows: rows(), gates }));
    expect(readdirSync(join(dir, "out"))).toEqual(["junit.xml"]);
  });

  it("holds one scratch file for all its suites, whatever the evaluator count", async () => {
    // A part file per suite ran out of descriptors (EMFILE) at about 250 evaluators under macOS's default limit of 256.
    const names = Array.from({ length: 300 }, (_, i) => `ev${i}`);
    const wide = { ...input, evaluators: names };
    const openFiles = () => (existsSync("/proc/self/fd") ? readdirSync("/proc/self/fd").length : 0);
    const seen: number[] = [];
    function* wideRows(count: boolean): Generator<RowOutcome> {
      for (let i = 1; i <= 200; i++) {
        if (count && i % 50 === 0) seen.push(openFiles());
        const results = Object.fromEntries(names.map((n) => [n, { type: "levenshtein", score: 0.1, passed: false, label: "fail" as const, reasoning: `${n} row ${i} `.repeat(60), skipped: false, details: {} }]));
        yield { row: i, id: `q${i}`, results };
      }
    }
    const before = openFiles();
    const path = join(dir, "wide", "junit.xml");
    await writeJUnitFile(path, wide, wideRows(true), gates);
    expect(readFileSync(path, "utf8")).toBe(renderJUnit({ ...wide, rows: wideRows(false), gates }));
    expect(seen.length).toBe(4);
    if (before) for (const n of seen) expect(n).toBeLessThanOrEqual(before + 1);
    expect(readdirSync(join(dir, "wide"))).toEqual(["junit.xml"]);
  });

  it.each([2, 3000])("writes lines longer than a suite's buffer, and text of any script, as the in-memory document does (%i evaluators)", async (evaluators) => {
    // 3,000 evaluators share 8 MiB: 4 KiB a suite, where 2 have 64 KiB each.
    const names = Array.from({ length: evaluators }, (_, i) => `ev${i}`);
    const wide = { ...input, evaluators: names };
    function* mixed(): Generator<RowOutcome> {
      for (let i = 1; i <= 40; i++) {
        // A line of a few hundred bytes, of 30 KiB, or of 3 × 100,000 bytes (over any suite's buffer), of ASCII or of emoji and accents.
        const text = (i % 2 ? "😀 é " : "ab & <c> ").repeat(i % 5 === 0 ? 100_000 / 5 : i % 3 === 0 ? 3_000 : 20);
        const results = Object.fromEntries(names.slice(0, 4).map((n, k) => [n, { type: "levenshtein", score: 0.1, passed: (i + k) % 2 === 0, label: "fail" as const, reasoning: text, skipped: false, details: {} }]));
        yield { row: i, id: `q${i}`, results };
      }
    }
    const path = join(dir, `mixed-${evaluators}.xml`);
    await writeJUnitFile(path, wide, mixed(), gates);
    expect(readFileSync(path, "utf8")).toBe(renderJUnit({ ...wide, rows: mixed(), gates }));
  });

  it("writes every byte when a write takes only part of what it is given (a disk that fills takes what fits)", async () => {
    // Taken as whole, the document lost all but the first 7 bytes of each write: its last line among them.
    const path = join(dir, "short.xml");
    shortWrites.at = 7;
    try {
      await writeJUnitFile(path, input, rows(), gates);
    } finally {
      shortWrites.at = 0;
    }
    expect(readFileSync(path, "utf8")).toBe(renderJUnit({ ...input, rows: rows(), gates }));
  });

  it("fails skipped rows as the in-memory document does under --count-skipped-as-zero", async () => {
    const path = join(dir, "zero.xml");
    const zero = { ...input, skippedAsFailed: ["lev"] };
    await writeJUnitFile(path, zero, rows(), gates);
    const xml = readFileSync(path, "utf8");
    expect(xml).toBe(renderJUnit({ ...zero, rows: rows(), gates }));
    expect(xml).not.toContain("<skipped");
  });

  it("keeps the previous file when the rows fail midway", async () => {
    const path = join(dir, "kept.xml");
    writeFileSync(path, "previous");
    function* failing(): Generator<RowOutcome> {
      yield* [...rows()].slice(0, 10);
      throw new Error("the database went away");
    }
    // Read back later, by a CI system, it would pass for this run's: the message says whose it is.
    await expect(writeJUnitFile(path, input, failing(), gates)).rejects.toThrow(`--junit ${path}: cannot write (the database went away); the file at ${path} is from an earlier run, left as it was`);
    expect(readFileSync(path, "utf8")).toBe("previous");
    expect(readdirSync(dir).filter((f) => f.includes("kept"))).toEqual(["kept.xml"]);
    // No file there before: none after, and none is spoken of.
    const fresh = join(dir, "fresh.xml");
    const error = await writeJUnitFile(fresh, input, failing(), gates).catch((e: unknown) => e as Error);
    expect(error).toMatchObject({ message: `--junit ${fresh}: cannot write (the database went away)` });
    expect(readdirSync(dir).filter((f) => f.includes("fresh"))).toEqual([]);
  });

  (process.platform === "linux" ? it : it.skip)("keeps the previous file when the disk fills while the file is written, and says it is an earlier run's", () => {
    const path = join(dir, "full", "junit.xml");
    mkdirSync(join(dir, "full"));
    writeFileSync(path, "previous");
    // `ulimit -f 64` (32 kB) fails every write past it with EFBIG, as a disk that fills; 5,000 rows are far more.
    const script = [
      `import { writeJUnitFile } from ${JSON.stringify(new URL("./junit-file.ts", import.meta.url).href)};`,
      `const rows = Array.from({ length: 5000 }, (_, i) => ({ row: i + 1, id: "q" + i, results: { lev: { type: "levenshtein", score: 0.1, passed: false, label: "fail", reasoning: "far apart", skipped: false, details: {} } } }));`,
      `await writeJUnitFile(process.argv[1], { name: "r", evaluators: ["lev"] }, rows, []).catch((e) => console.log(e.message));`,
    ].join("\n");
    const p = spawnSync("sh", ["-c", 'ulimit -f 64 && exec "$0" --import tsx --input-type=module -e "$1" "$2"', process.execPath, script, path], { encoding: "utf8" });
    expect(p.stderr).toBe("");
    expect(p.stdout).toBe(`--junit ${path}: cannot write (EFBIG: file too large, write); the file at ${path} is from an earlier run, left as it was\n`);
    expect(readFileSync(path, "utf8")).toBe("previous");
    expect(readdirSync(join(dir, "full"))).toEqual(["junit.xml"]);
  });

  it("writes a file whose name is as long as the system allows (the temporary file beside it has a name of its own)", async () => {
    const path = join(dir, `${"j".repeat(251)}.xml`);
    await writeJUnitFile(path, input, rows(), gates);
    expect(readFileSync(path, "utf8")).toBe(renderJUnit({ ...input, rows: rows(), gates }));
  });
});
