import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("..", import.meta.url));
const bin = join(root, "dist", "cli", "bin.js");
const readme = readFileSync(join(root, "README.md"), "utf8");

/** README.md's "In CI" section: from its heading to the next heading of its level or above (outside code blocks, whose `# ` lines are comments). */
function ciSection(): string {
  const lines = readme.split("\n");
  const start = lines.indexOf("### In CI");
  if (start < 0) throw new Error('README.md has no "### In CI" section');
  let fenced = false;
  let end = start + 1;
  for (; end < lines.length; end++) {
    const line = lines[end] as string;
    if (line.startsWith("```")) fenced = !fenced;
    else if (!fenced && /^#{1,3} /.test(line)) break;
  }
  return lines.slice(start, end).join("\n");
}

/** The fenced blocks of a language in `text`, in order. */
function blocks(text: string, lang: string): string[] {
  return [...text.matchAll(new RegExp("```" + lang + "\\n([\\s\\S]*?)```", "g"))].map((m) => m[1] as string);
}

/** A shell block's commands as a user types them: comment lines dropped, `\`-continued lines joined, spaces collapsed. */
function commands(block: string): string[] {
  return block
    .replace(/\\\n\s*/g, " ")
    .split("\n")
    .map((line) => line.replace(/\s+/g, " ").trim())
    .filter((line) => line !== "" && !line.startsWith("#"));
}

/** The `run:` commands of a GitHub Actions workflow, a folded (`>-`) value joined as YAML joins it. */
function workflowRuns(yaml: string): string[] {
  const runs: string[] = [];
  const lines = yaml.split("\n");
  lines.forEach((line, i) => {
    const m = /^(\s*)(?:- )?run: (.*)$/.exec(line);
    if (!m) return;
    if (!/^[>|]-?$/.test(m[2] as string)) return void runs.push((m[2] as string).trim());
    const body: string[] = [];
    for (let j = i + 1; j < lines.length && /^\s+\S/.test(lines[j] as string) && (lines[j] as string).search(/\S/) > (m[1] as string).length + 2; j++) body.push((lines[j] as string).trim());
    runs.push(body.join(" "));
  });
  return runs.map((r) => r.replace(/\s+/g, " "));
}

interface Ran {
  code: number | null;
  out: string;
  err: string;
}

/** Runs one of the section's commands through the shell in `cwd`, `npx simeval` being the build (what npx runs in the clone). */
function sh(cwd: string, command: string): Ran {
  const line = command.replace(/^npx simeval /, `${JSON.stringify(process.execPath)} ${JSON.stringify(bin)} `);
  const p = spawnSync("/bin/sh", ["-c", line], { cwd, encoding: "utf8", env: { ...process.env, FORCE_COLOR: "0" } });
  return { code: p.status, out: p.stdout, err: p.stderr };
}

/** A folder holding the bundled example, as a user's clone does. */
function exampleFolder(dirs: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), "simeval-readme-ci-"));
  dirs.push(dir);
  cpSync(join(root, "examples"), join(dir, "examples"), { recursive: true, filter: (src) => !src.includes(`${join("examples", "out")}`) });
  return dir;
}

/** Prompt A (the worse variant) in place of prompt B in a command. */
const worse = (command: string) => command.replaceAll("support-prompt-b.jsonl", "support-prompt-a.jsonl");

/** What a CI log shows: nothing drawn for a terminal (a progress line's carriage returns, escape sequences). */
function expectPlainLog(r: Ran, command: string): void {
  expect(r.out + r.err, command).not.toMatch(/[\r\u001b]/);
}

describe('README "In CI" section', () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));
  const section = ciSection();
  const sh1 = blocks(section, "sh");

  it("has the workflow, the shell lines with a committed known-good file, and the kept database's", () => {
    expect(existsSync(bin), "dist/cli/bin.js: run `npm run build` first").toBe(true);
    expect(blocks(section, "yaml")).toHaveLength(1);
    expect(sh1).toHaveLength(2);
  });

  it("runs the workflow's simeval steps as the shell lines give them, on Node 20 after npm ci", () => {
    const yaml = blocks(section, "yaml")[0] as string;
    expect(yaml).toMatch(/node-version: 20\b/);
    const runs = workflowRuns(yaml);
    expect(runs[0]).toBe("npm ci");
    const simeval = runs.filter((r) => r.startsWith("npx simeval "));
    expect(simeval.length).toBeGreaterThanOrEqual(2);
    const shell = commands(sh1[0] as string);
    for (const r of simeval) expect(shell, r).toContain(r);
  });

  it("with a known-good results.jsonl: passes on prompt B, and exits 1 on prompt A, from the gates, the regression check and the JSON verdict", () => {
    const dir = exampleFolder(dirs);
    const all = commands(sh1[0] as string);
    const compares = all.filter((c) => /^npx simeval compare .*--fail-on-regression/.test(c));
    expect(compares.length, "a compare --fail-on-regression").toBe(1);
    const knownGood = (compares[0] as string).split(" ")[3] as string;
    const verdict = all.find((c) => c.startsWith("node "));
    expect(verdict, "a node line reading --json's verdict").toBeDefined();
    // Prompt B, as written: every command exits 0, and the verdict names no evaluator.
    for (const command of all) {
      const r = sh(dir, command);
      expect(r.code, `${command}\n${r.err}`).toBe(0);
      expectPlainLog(r, command);
      if (command === verdict) expect(JSON.parse(r.out.replace(/'/g, '"'))).toEqual([]);
    }
    for (const file of [knownGood, "out/results.jsonl", "out/summary.json", "out/junit.xml", "out/compare.json"]) expect(existsSync(join(dir, file)), file).toBe(true);
    // Prompt A in every job (the known-good file kept): the gates fail, and so does the regression check; the verdict names the evaluators.
    for (const command of all.filter((c) => !c.includes(`--out ${knownGood}`))) {
      const r = sh(dir, worse(command));
      if (command.startsWith("npx simeval run ")) {
        expect(r.code, command).toBe(1);
        expect(r.err).toMatch(/gates? not met/);
      } else if (command === compares[0]) {
        expect(r.code, command).toBe(1);
        expect(r.err).toMatch(/is significantly worse than/);
        // The gate's failure as the README's "Command line" quotes it, B and A named as this section's command gives them.
        const quoted = /`(--fail-on-regression: failed, [^`]*?) …`/.exec(readme)?.[1];
        expect(quoted, "README quotes compare's --fail-on-regression failure").toBeDefined();
        expect(r.err).toContain(quoted as string);
      } else if (command === verdict) {
        expect(r.code).toBe(0);
        expect(r.out).toContain("levenshtein");
      } else expect(r.code, command).toBe(0); // compare --json, without the gate
    }
  }, 30_000);

  it("with a kept database: refuses the gate (exit 2) where none was restored, passes on prompt B after the baseline is set, exits 1 on prompt A", () => {
    const dir = exampleFolder(dirs);
    const all = commands(sh1[1] as string);
    const gated = all.filter((c) => c.includes("--baseline") && c.includes("--fail-on-regression"));
    expect(gated.length, "a run --baseline --fail-on-regression").toBe(1);
    const job = gated[0] as string;
    const fresh = sh(dir, job);
    expect(fresh.code).toBe(2);
    expect(fresh.err).toContain("there is no run database at .simeval/simeval.db, so no baseline to gate on");
    for (const command of all) {
      const r = sh(dir, command);
      expect(r.code, `${command}\n${r.err}`).toBe(0);
      expectPlainLog(r, command);
    }
    const r = sh(dir, worse(job));
    expect(r.code).toBe(1);
    expect(r.err).toContain("--fail-on-regression: failed, this run is significantly worse than the baseline");
  }, 30_000);
});
