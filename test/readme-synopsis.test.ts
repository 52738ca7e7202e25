import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { main } from "../src/cli/main.js";

const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");

/** The `## Command line` block of README.md: the synopsis a user reads first. */
function synopsis(): string {
  const section = readme.slice(readme.indexOf("## Command line"));
  const block = /```sh\n([\s\S]*?)```/.exec(section);
  if (!block) throw new Error("README.md has no ```sh block under ## Command line");
  return block[1] as string;
}

async function run(...argv: string[]) {
  let out = "";
  let err = "";
  const code = await main(argv, { stdout: (s) => void (out += s), stderr: (s) => void (err += s) });
  return { code, out, err };
}

async function help(...argv: string[]): Promise<string> {
  return (await run(...argv, "--help")).out;
}

describe("README command synopsis", () => {
  it("names every command and every option that commander defines", async () => {
    const block = synopsis();
    const commands = [...(await help()).matchAll(/^ {2}([a-z]+)(?:\|[a-z]+)? /gm)].map((m) => m[1] as string);
    expect(commands).toContain("run");
    expect(commands).toContain("help");
    for (const command of commands) {
      expect(block, `command ${command}`).toMatch(new RegExp(`\\b${command}\\b`));
      if (command === "help") continue;
      const flags = [...(await help(command)).matchAll(/(?:^|[ ,])(--[a-z][a-z-]*)/gm)].map((m) => m[1] as string).filter((f) => f !== "--help");
      for (const flag of flags) expect(block, `${command} ${flag}`).toMatch(new RegExp(`${flag}(?![a-z-])`));
    }
  });
});

describe("run --help", () => {
  it("gives --workers' default as the run takes it: 0 (the main thread) for a small file or an embedding service", async () => {
    const text = (await help("run")).replace(/\s+/g, " ");
    expect(text).toContain("default: one per core, one fewer when the run is recorded, 0 for a file under 1 MiB or an evaluator that calls an embedding service");
    expect(readme.replace(/\s+/g, " ")).toContain("files under 1 MiB, and runs with an evaluator that calls an embedding service, are scored on the main thread");
  });
});

describe("--count-skipped-as-zero's help", () => {
  it("says that a distance leaves such rows out of its mean, as the README does", async () => {
    for (const command of ["run", "finish"]) expect((await help(command)).replace(/\s+/g, " "), command).toContain("for a distance, left out of its mean and, with a threshold, failed)");
    expect(readme.replace(/\s+/g, " ")).toContain("a distance (`levenshtein_distance`), whose 0 would say \"identical\", keeps them out of its mean and, with a threshold, counts them failed");
  });
});

describe("--fail-on-regression's help", () => {
  it("gives both exit codes, 1 for a regression or no verdict and 2 for runs that cannot be judged, as the README does", async () => {
    for (const command of ["run", "compare"]) expect((await help(command)).replace(/\s+/g, " "), command).toMatch(/\(no verdict\); exit 2 when the runs cannot be judged \(their ids disagree, /);
    expect(readme.replace(/\s+/g, " ")).toContain("why it gives no verdict at all (exit 2: ids that disagree, a recorded run still being recorded or incomplete, a results.jsonl file cut short)");
  });
});

describe("README on run's files", () => {
  const dir = mkdtempSync(join(tmpdir(), "simeval-readme-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  // The README's text with its line breaks as spaces, as it reads.
  const prose = readme.replace(/\s+/g, " ");
  const keys = (o: object) => `{${Object.keys(o).join(", ")}`;

  it("gives summary.json's keys as the run writes them", async () => {
    const data = join(dir, "rows.jsonl");
    writeFileSync(data, '{"output":"a","expected":"a"}\n');
    writeFileSync(join(dir, "evals.json"), '{"evaluators":[{"type":"exact_match"}]}');
    expect((await run("run", data, "--config", join(dir, "evals.json"), "--no-db", "--summary", join(dir, "s.json"))).code).toBe(0);
    const json = JSON.parse(readFileSync(join(dir, "s.json"), "utf8"));
    expect(prose).toContain(`\`--summary\` as \`${keys(json)}}\``);
    expect(prose).toContain(`\`summary\` is \`${keys(json.summary).replace(/evaluators$/, "evaluators: [")}${keys(json.summary.evaluators[0])}}]}\``);
  });

  it("quotes the error for an output path that cannot be written as the run says it", async () => {
    const data = join(dir, "rows.jsonl");
    writeFileSync(join(dir, "file"), "");
    const r = await run("run", data, "--config", join(dir, "evals.json"), "--no-db", "--report", join(dir, "file", "r.html"));
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^simeval: --report \S+: cannot write \(.+\); give a path where a file can be written\n?$/);
    expect(prose).toContain("simeval: --report out/r.html: cannot write (EACCES: permission denied, access '/work/out'); give a path where a file can be written");
    const folder = await run("run", data, "--config", join(dir, "evals.json"), "--no-db", "--out", dir);
    expect(folder.err).toContain(`--out ${dir} is a folder; give the path of a file to write, such as ${join(dir, "out.jsonl")}`);
    expect(prose).toContain("--out DIR is a folder; give the path of a file to write, such as DIR/out.jsonl");
  });
});
