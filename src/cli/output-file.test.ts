import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { EvalError } from "../errors.js";
import { basename, join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir, writeIn } from "../test-support.js";
import { exitCodeFor } from "./exit-codes.js";
import { writeJUnitFile } from "./junit-file.js";
import { checkOutputPaths, databaseInputs, namesOwnDescriptor, notingEarlierFiles, openTextFile, writeOutput } from "./output-file.js";

const dir = tempDir("simeval-output-file-");

describe("checkOutputPaths", () => {
  const data = writeIn(dir, "data.jsonl", "{}\n");
  const link = join(dir, "link.jsonl");
  symlinkSync(data, link);

  it("accepts distinct files, existing or not", () => {
    expect(() => checkOutputPaths([{ flag: "the dataset", path: data }], [{ flag: "--out", path: join(dir, "out.jsonl") }, { flag: "--report", path: join(dir, "r.html") }])).not.toThrow();
  });

  it("refuses an output that is an input, also through a symlink or another spelling", () => {
    for (const path of [data, link, join(dir, "sub", "..", "data.jsonl")]) {
      expect(() => checkOutputPaths([{ flag: "the dataset", path: data }], [{ flag: "--out", path }])).toThrow(`--out ${path} is the same file as the dataset (an input, which writing would destroy)`);
    }
  });

  it("refuses an output over a side file of the database a --db symbolic link leads to, where SQLite keeps them", () => {
    mkdirSync(join(dir, "dbs"), { recursive: true });
    const real = writeIn(join(dir, "dbs"), "runs.db", "");
    const db = join(dir, "runs-link.db");
    symlinkSync(real, db);
    expect(() => checkOutputPaths(databaseInputs(db), [{ flag: "--out", path: `${real}-wal` }])).toThrow(`--out ${real}-wal is the same file as --db's write-ahead log (an input, which writing would destroy)`);
    expect(() => checkOutputPaths(databaseInputs(db), [{ flag: "--out", path: `${db}-journal` }])).toThrow("is the same file as --db's rollback journal");
  });

  it("refuses two outputs on one file that does not exist yet", () => {
    const out = join(dir, "new.jsonl");
    expect(() => checkOutputPaths([], [{ flag: "--out", path: out }, { flag: "--summary", path: `${dir}/./new.jsonl` }])).toThrow("is the same file as --out (one output would overwrite the other)");
  });

  it("refuses, before the run, an output under another path it names, or a path under an output, when neither exists yet", () => {
    const out = join(dir, "fresh.jsonl");
    const db = join(dir, "fresh.db");
    expect(() => checkOutputPaths([], [{ flag: "--out", path: out }, { flag: "--summary", path: join(out, "s.json") }])).toThrow(`--summary ${join(out, "s.json")} is under --out ${out}, which is a file, not a folder`);
    expect(() => checkOutputPaths([{ flag: "--db", path: db }], [{ flag: "--out", path: join(db, "o.jsonl") }])).toThrow(`--out ${join(db, "o.jsonl")} is under --db ${db}, which is a file, not a folder`);
    expect(() => checkOutputPaths([{ flag: "--db", path: join(dir, "runs", "x.db") }], [{ flag: "--out", path: join(dir, "runs") }])).toThrow(`--db ${join(dir, "runs", "x.db")} is under --out ${join(dir, "runs")}, which is a file, not a folder`);
    // Side by side, or a name that only starts alike, is no folder of the other.
    expect(() => checkOutputPaths([{ flag: "--db", path: join(dir, "runs.db") }], [{ flag: "--out", path: join(dir, "runs.db.jsonl") }, { flag: "--summary", path: join(dir, "runs", "s.json") }])).not.toThrow();
    expect(existsSync(out) || existsSync(db)).toBe(false);
  });

  it("refuses, before the run, an output that cannot be written: under a file, or in a read-only folder", () => {
    const file = writeIn(dir, "plain.txt", "x");
    expect(() => checkOutputPaths([], [{ flag: "--summary", path: join(file, "summary.json") }])).toThrow(`--summary ${join(file, "summary.json")}: cannot write (${file} is a file, not a folder)`);
    expect(() => checkOutputPaths([], [{ flag: "--report", path: join(file, "a", "b", "r.html") }])).toThrow(`cannot write (${file} is a file, not a folder)`);
    expect(() => checkOutputPaths([], [{ flag: "--report", path: join(dir, "new", "deeper", "r.html") }])).not.toThrow();
    // Permissions do not hold back root.
    if (process.getuid?.() !== 0) {
      const locked = join(dir, "locked");
      mkdirSync(locked);
      chmodSync(locked, 0o555);
      expect(() => checkOutputPaths([], [{ flag: "--junit", path: join(locked, "j.xml") }])).toThrow(`--junit ${join(locked, "j.xml")}: cannot write (EACCES`);
      // A file that can be written, in that folder: written whole, it is replaced by a file written beside it, which
      // the folder refuses; streamed (--out), it is written as it is.
      chmodSync(locked, 0o755);
      const kept = writeIn(locked, "s.json", "{}");
      chmodSync(locked, 0o555);
      expect(() => checkOutputPaths([], [{ flag: "--summary", path: kept }])).toThrow(
        `--summary ${kept}: cannot write (EACCES: permission denied, access '${locked}': the file is replaced by one written beside it, in a folder that must be writable)`,
      );
      expect(() => checkOutputPaths([], [{ flag: "--out", path: kept, streamed: true }])).not.toThrow();
    }
  });

  it("refuses, before the run, an output through a \"..\" after a folder that is not there or is a file, which the system cannot step out of", () => {
    const file = writeIn(dir, "not-a-folder.txt", "x");
    // Written as text, not joined: join would take "missing/.." away, as resolve does.
    for (const flag of ["--out", "--summary", "--report", "--junit"]) {
      const path = `${dir}/missing/../kept.json`;
      expect(() => checkOutputPaths([], [{ flag, path, streamed: flag === "--out" }])).toThrow(
        `${flag} ${path}: cannot write (ENOENT: no such file or directory, realpath '${dir}/missing/..': a ".." steps out of the folder before it, which must be a folder that is there); give a path where a file can be written`,
      );
    }
    expect(() => checkOutputPaths([], [{ flag: "--out", path: `${file}/../kept.json` }])).toThrow(`--out ${file}/../kept.json: cannot write (ENOTDIR: not a directory, realpath '${file}/..'`);
    // A missing folder before a later "..", after one the system can step out of, is refused as well.
    expect(() => checkOutputPaths([], [{ flag: "--out", path: `${dir}/../${basename(dir)}/missing/../kept.json` }])).toThrow(`realpath '${dir}/../${basename(dir)}/missing/..'`);
    expect(existsSync(join(dir, "kept.json"))).toBe(false);
    // Through a folder that is there, or a link to one (beside the folder it leads to), the output is written as asked.
    mkdirSync(join(dir, "there", "inner"), { recursive: true });
    symlinkSync(join(dir, "there", "inner"), join(dir, "to-inner"));
    expect(() => checkOutputPaths([], [{ flag: "--out", path: `${dir}/there/../kept.json` }, { flag: "--summary", path: `${dir}/to-inner/../../s.json` }])).not.toThrow();
  });

  it("refuses an output that is a folder, before the run rather than after it", () => {
    expect(() => checkOutputPaths([], [{ flag: "--junit", path: dir }])).toThrow(`--junit ${dir} is a folder; give the path of a file to write, such as ${join(dir, "junit.xml")}`);
    expect(() => checkOutputPaths([], [{ flag: "--report", path: dir }])).toThrow(`such as ${join(dir, "report.html")}`);
  });
});

describe("writeOutput", () => {
  it("replaces an earlier file whole, keeping its permissions, and the file a symlink names, keeping the link; nothing is left beside it", async () => {
    const folder = join(dir, "whole");
    mkdirSync(folder);
    const path = writeIn(folder, "s.json", "earlier");
    chmodSync(path, 0o600);
    await writeOutput("--summary", path, "{}\n");
    expect(readFileSync(path, "utf8")).toBe("{}\n");
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const link = join(folder, "link.json");
    symlinkSync(path, link);
    await writeOutput("--summary", link, "[]\n");
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readFileSync(path, "utf8")).toBe("[]\n");
    expect(readdirSync(folder).sort()).toEqual(["link.json", "s.json"]);
  });

  it.each(["SIGINT", "SIGTERM"] as const)("a second %s while a file is written stops the process at once, leaving the earlier file and nothing beside it", (signal) => {
    const folder = join(dir, `stopped-${signal}`);
    mkdirSync(folder);
    const path = writeIn(folder, "junit.xml", "earlier");
    // A real process and real signals: the first is heard (a run's files are then finished), the second stops it
    // at once, as Node's default action does, half-way through the temporary file and with a scratch file open.
    const script = [
      `import { writeSync, openSync } from "node:fs";`,
      `import { writeWhole } from ${JSON.stringify(new URL("./output-file.ts", import.meta.url).href)};`,
      `import { watchInterrupts } from ${JSON.stringify(new URL("./stop-signals.ts", import.meta.url).href)};`,
      `const stop = watchInterrupts();`,
      `setInterval(() => {}, 1000);`,
      `await writeWhole("--junit", process.argv[1], async (file) => {`,
      `  writeSync(openSync(file.scratch("part0"), "w"), "rows");`,
      `  writeSync(file.open(), "<testsuites>");`,
      `  process.kill(process.pid, "${signal}");`,
      `  while (!stop.signal.aborted) await new Promise((r) => setTimeout(r, 1));`,
      `  process.kill(process.pid, "${signal}");`,
      `  await new Promise(() => {});`,
      `});`,
    ].join("\n");
    const p = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script, path], { encoding: "utf8" });
    expect(p.stderr).toBe("");
    expect(p.signal).toBe(signal);
    expect(readdirSync(folder)).toEqual(["junit.xml"]);
    expect(readFileSync(path, "utf8")).toBe("earlier");
  });
});

describe("notingEarlierFiles", () => {
  it("notes an earlier file on a runtime failure only, not on a bad argument", () => {
    const earlier = writeIn(dir, "earlier-summary.json", "{}");
    const usage = new EvalError("USAGE", "--seed takes a whole number");
    expect(notingEarlierFiles(usage, [earlier])).toBe(usage);
    const failed = notingEarlierFiles(new EvalError("STORE_FAILED", "disk I/O error"), [earlier, undefined]) as EvalError;
    expect(failed.message).toBe(`disk I/O error; the file at ${earlier} is from an earlier run, left as it was`);
  });
});

describe("openTextFile", () => {
  // /dev/full opens like any file and fails every write with ENOSPC: a disk that fills during a run.
  const full = "/dev/full";
  const maybe = process.platform === "linux" ? it : it.skip;

  maybe("a write that fails (disk full) is an error naming the flag and the path, from write or close, and never hangs", async () => {
    const file = await openTextFile("--out", full);
    const settled = (async () => {
      // Each write settles once written, so the first fails; the error is kept for close too (see below).
      for (let i = 0; i < 100; i++) {
        await file.write("x".repeat(100) + "\n");
        await new Promise((r) => setImmediate(r));
      }
      await file.close();
    })();
    const timeout = new Promise((_, reject) => setTimeout(() => reject(new Error("hung")), 5000));
    await expect(Promise.race([settled, timeout])).rejects.toThrow("--out /dev/full: cannot write (ENOSPC");
  });

  maybe("a failure while a write larger than the stream's buffer is written is the same error", async () => {
    const file = await openTextFile("--out", full);
    const timeout = new Promise((_, reject) => setTimeout(() => reject(new Error("hung")), 5000));
    const run = (async () => {
      await file.write("x".repeat(1 << 20));
      await file.close();
    })();
    await expect(Promise.race([run, timeout])).rejects.toThrow("--out /dev/full: cannot write (ENOSPC");
  });

  it("settles a write once it is written, so that its bytes may be written over then (runDataset hands them back to be reused)", async () => {
    const path = join(dir, "lent.jsonl");
    const file = await openTextFile("--out", path);
    for (let i = 0; i < 50; i++) {
      const bytes = Buffer.from(`{"row":${i + 1}}\n`);
      await file.write(bytes);
      bytes.fill(0x78);
    }
    await file.close();
    expect(readFileSync(path, "utf8")).toBe(Array.from({ length: 50 }, (_, i) => `{"row":${i + 1}}\n`).join(""));
  });

  it("leaves a file that is there as it was until the first write (or begin), then writes it from its start", async () => {
    const path = join(dir, "earlier.jsonl");
    const earlier = '{"row":1,"earlier":true}\n'.repeat(20);
    writeFileSync(path, earlier);
    // Opened and closed without a write: a run refused before its first row.
    await (await openTextFile("--out", path)).close();
    expect(readFileSync(path, "utf8")).toBe(earlier);
    const written = await openTextFile("--out", path);
    expect(readFileSync(path, "utf8")).toBe(earlier);
    expect(written.earlier).toBe(true);
    await written.write('{"row":1}\n');
    expect(written.earlier).toBe(false);
    await written.close();
    expect(readFileSync(path, "utf8")).toBe('{"row":1}\n');
    writeFileSync(path, earlier);
    const none = await openTextFile("--out", path);
    none.begin();
    await none.close();
    expect(readFileSync(path, "utf8")).toBe("");
    expect(none.earlier).toBe(false);
    // A file that was empty, or that opening created, holds nothing earlier.
    const created = await openTextFile("--out", join(dir, "created.jsonl"));
    expect(created.earlier).toBe(false);
    await created.close();
  });

  // /dev/ptmx opens the controlling side of a new pseudo-terminal: a terminal, as --out /dev/stdout is on one.
  it.skipIf(!existsSync("/dev/ptmx"))("tells whether the file is a terminal, whose lines show on screen (the run then draws no progress line among them)", async () => {
    const tty = await openTextFile("--out", "/dev/ptmx");
    expect(tty.terminal).toBe(true);
    await tty.close();
    for (const path of [join(dir, "results.jsonl"), "/dev/null"]) {
      const file = await openTextFile("--out", path);
      expect(file.terminal).toBe(false);
      await file.close();
    }
  });

  maybe("close after a failed write settles (the run's cleanup awaits it) rather than waiting for a finish that never comes", async () => {
    const file = await openTextFile("--out", full);
    await expect(file.write("x".repeat(1 << 20))).rejects.toThrow("ENOSPC");
    const timeout = new Promise((_, reject) => setTimeout(() => reject(new Error("hung")), 5000));
    await expect(Promise.race([file.close(), timeout])).rejects.toThrow("--out /dev/full: cannot write (ENOSPC");
  });
});

describe("openTextFile close", () => {
  const maybe = process.platform === "linux" ? it : it.skip;

  maybe("a failure to close the file (after every write succeeded) is an error naming the flag and the path", () => {
    // In a process of its own: the file's descriptor, found under /proc/self/fd, is closed behind the stream, whose own close then fails (EBADF).
    const script = [
      `import { closeSync, readdirSync, readlinkSync } from "node:fs";`,
      `import { openTextFile } from ${JSON.stringify(new URL("./output-file.ts", import.meta.url).href)};`,
      `const path = process.argv[1];`,
      `const file = await openTextFile("--out", path);`,
      `closeSync(readdirSync("/proc/self/fd").map(Number).find((fd) => { try { return readlinkSync(\`/proc/self/fd/\${fd}\`) === path; } catch { return false; } }));`,
      `await file.close().then(() => console.log("closed"), (e) => console.log(e.message));`,
    ].join("\n");
    const path = join(dir, "closed-behind.jsonl");
    const p = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script, path], { encoding: "utf8" });
    expect(p.stderr).toBe("");
    expect(p.stdout).toContain(`--out ${path}: cannot write (EBADF`);
  });
});

describe("write failures", () => {
  const maybe = process.platform === "linux" ? it : it.skip;
  const caught = async (fn: () => unknown): Promise<EvalError> => {
    try {
      await fn();
    } catch (error) {
      if (error instanceof EvalError) return error;
      throw error;
    }
    throw new Error("did not throw");
  };

  maybe("a full disk is a runtime failure (exit 3) naming the flag and the path, for every output", async () => {
    const failures = [
      await caught(() => writeOutput("--summary", "/dev/full", "{}\n")),
      await caught(() => writeOutput("--report", "/dev/full", "<html>")),
      await caught(async () => {
        const file = await openTextFile("--out", "/dev/full");
        await file.write("x".repeat(1 << 20));
        await file.close();
      }),
      await caught(() => writeJUnitFile("/dev/full", { name: "r", timestamp: "2024-01-01T00:00:00Z", evaluators: ["em"], skippedAsFailed: [] }, [], [])),
    ];
    expect(failures.map((e) => e.message.replace(/ \(.*/, ""))).toEqual(["--summary /dev/full: cannot write", "--report /dev/full: cannot write", "--out /dev/full: cannot write", "--junit /dev/full: cannot write"]);
    for (const e of failures) {
      expect(e.message).toContain("ENOSPC");
      expect(e.code).toBe("OUTPUT_FAILED");
      expect(exitCodeFor(e.code)).toBe(3);
    }
  });

  it("a path that cannot be written (a file where a folder should be) stays a bad argument (exit 2)", async () => {
    const file = writeIn(dir, "not-a-folder.txt", "x");
    const e = await caught(() => writeOutput("--summary", join(file, "s.json"), "{}"));
    expect(e.message).toContain(`--summary ${join(file, "s.json")}: cannot write (ENOTDIR`);
    expect(exitCodeFor(e.code)).toBe(2);
    const folder = await caught(() => openTextFile("--out", dir));
    expect(folder.message).toContain(`--out ${dir}: cannot write (EISDIR`);
    expect(exitCodeFor(folder.code)).toBe(2);
  });
});

describe("namesOwnDescriptor", () => {
  it.skipIf(process.platform === "win32")("knows this process's descriptors however their path is spelled, and nothing else", () => {
    for (const path of ["/dev/stdout", "/dev/stderr", "/dev/fd/3", "/proc/self/fd/1", "/dev/./stdout", "/dev//fd/1", "/tmp/../dev/stderr", "/proc/self/fd/../fd/2"]) {
      expect([path, namesOwnDescriptor(path)]).toEqual([path, true]);
    }
    for (const path of ["/dev/null", "/dev/tty", "/dev/fd", "/dev/stdout/x", "stdout", "/proc/1/fd/1"]) expect([path, namesOwnDescriptor(path)]).toEqual([path, false]);
  });
});
