import { spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { main } from "../src/cli/main.js";

const root = fileURLToPath(new URL("..", import.meta.url));

async function run(...argv: string[]) {
  let out = "";
  let err = "";
  const code = await main(argv, { stdout: (s) => void (out += s), stderr: (s) => void (err += s) });
  return { code, out, err };
}

describe("simeval score", () => {
  it("prints the result as JSON and exits 0 on pass", async () => {
    const r = await run("score", "--type", "levenshtein", "--expected", "Hello World", "--output", "Hello World!", "--config", '{"threshold":0.9,"case_sensitive":true}');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({ name: "levenshtein", score: 0.92, passed: true, label: "pass" });
  });

  it("says a provider's warning as run does: a word_vectors cache that cannot be written", async () => {
    const dir = mkdtempSync(join(tmpdir(), "simeval-score-"));
    try {
      const vectors = join(dir, "v.txt");
      writeFileSync(vectors, "cat 1 0 0\ndog 0.9 0.1 0\n");
      writeFileSync(join(dir, "blocker"), "a file where the cache folder should be");
      const config = JSON.stringify({ provider: "word_vectors", path: vectors, cache_dir: join(dir, "blocker", "vectors"), remove_components: 0 });
      const r = await run("score", "-t", "semantic_similarity", "-e", "a dog", "-o", "a cat", "-c", config);
      expect(r.code).toBe(0);
      expect(r.err).toMatch(/^simeval: warning: word_vectors: could not write the vectors cache .*Set "cache_dir" to a writable folder\.$/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("exits 1 on fail", async () => {
    const r = await run("score", "-t", "exact_match", "-e", "OK", "-o", "ok", "-c", '{"case_sensitive":true}');
    expect(r.code).toBe(1);
    expect(JSON.parse(r.out).passed).toBe(false);
  });

  it("exits 0 when there is no verdict", async () => {
    const r = await run("score", "-t", "levenshtein_distance", "-e", "abc", "-o", "abd");
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({ score: 1, passed: null });
  });

  it("exits 2 with every problem named for a bad config", async () => {
    const r = await run("score", "-t", "levenshtein", "-e", "a", "-o", "b", "-c", '{"threshold":2,"foo":1}');
    expect(r.code).toBe(2);
    expect(r.err).toContain("invalid config.threshold: expected a number in [0, 1], received number 2");
    expect(r.err).toContain('unknown config key "foo"');
    expect(r.out).toBe("");
  });

  it("exits 2 for malformed JSON, unknown types and missing options", async () => {
    expect((await run("score", "-t", "levenshtein", "-c", "{threshold:1}")).err).toContain("--config is not valid JSON at line 1, column 2 (");
    expect((await run("score", "-t", "levenshtein", "-c", '{"threshold":1,}')).err).toContain("--config is not valid JSON at line 1, column 15 (a trailing comma");
    expect((await run("score", "-t", "levenshtien")).err).toContain('Did you mean "levenshtein"?');
    // A flag's value, said as one, where it was an evaluator spec's "evaluator (): unknown type" with a JSON path.
    const types = "expected exact_match, levenshtein, levenshtein_distance, jaccard_similarity, tfidf_similarity or semantic_similarity (`simeval list` describes each).";
    expect(await run("score", "--type=", "-o", "a", "-e", "a")).toMatchObject({ code: 2, out: "", err: `simeval: --type "" is not an evaluator type; ${types}` });
    expect(await run("score", "-t", "jaccard", "-o", "a", "-e", "a")).toMatchObject({ code: 2, out: "", err: `simeval: --type "jaccard" is not an evaluator type; ${types} Did you mean "jaccard_similarity"?` });
    // A type of only an invisible character is quoted with it escaped, not as what reads as an empty one.
    expect((await run("score", "-t", "\u200d", "-o", "a", "-e", "a")).err).toBe(`simeval: --type "\\u200d" is not an evaluator type; ${types}`);
    // A file named where score takes JSON text (run's --config takes a file): said so, not just "Unexpected token".
    const evals = `${root}examples/evals.json`;
    const file = await run("score", "-t", "levenshtein", "-o", "a", "-e", "a", "-c", evals);
    expect(file).toMatchObject({ code: 2, out: "" });
    expect(file.err).toContain(`--config ${evals}: score's --config takes JSON text, not a file: the evaluator's config itself, such as '{"threshold":0.9}'; run's --config takes an EVALS.json file`);
    expect((await run("score", "-t", "levenshtein", "-o", "a", "-e", "a", "--inputs", evals)).err).toContain("score's --inputs takes JSON text, not a file");
    // What run's config file holds, or one spec, given as score's --config: said so, not only as unknown config keys.
    const whole = await run("score", "-t", "levenshtein", "-o", "a", "-e", "a", "-c", '{"evaluators":[{"type":"levenshtein"}]}');
    expect(whole).toMatchObject({ code: 2, out: "" });
    expect(whole.err).toContain(`--config holds {"evaluators": [...]}, which run's --config file holds; score's --config takes one evaluator's config itself, such as '{"threshold":0.9}', with the type as --type`);
    const spec = await run("score", "-t", "levenshtein", "-o", "a", "-e", "a", "-c", '{"type":"levenshtein","config":{"threshold":0.5}}');
    expect(spec).toMatchObject({ code: 2, out: "" });
    expect(spec.err).toContain(`--config holds an evaluator spec ({"type": ..., "config": {...}}); score's --config takes only its "config" object, such as '{"threshold":0.9}', with the type as --type (and its "inputs" as --inputs)`);
    // A spec's "type" or "config" alone is one too.
    for (const config of ['{"type":"levenshtein"}', '{"config":{"threshold":0.5}}']) {
      expect((await run("score", "-t", "levenshtein", "-o", "a", "-e", "a", "-c", config)).err, config).toContain("--config holds an evaluator spec");
    }
    const missing = await run("score", "-o", "x");
    expect(missing.code).toBe(2);
    expect(missing.err).toContain("--type");
    // A forgotten text is a usage error, not a failed check.
    expect(await run("score", "-t", "levenshtein", "-o", "b")).toMatchObject({ code: 2, err: expect.stringContaining("score needs --expected (or --record") });
    expect(await run("score", "-t", "levenshtein")).toMatchObject({ code: 2, err: expect.stringContaining("score needs --output and --expected") });
    expect(await run("score", "-t", "exact_match", "-o", "a", "--inputs", '{"expected":{"literal":"a"}}')).toMatchObject({ code: 0 });
    expect((await run("frobnicate")).code).toBe(2);
    // run asks for the dataset first, then for --config.
    expect(await run("run")).toMatchObject({ code: 2, err: expect.stringContaining("simeval: run needs its <dataset> argument: simeval run [options] <dataset>\n") });
    expect(await run("run", "rows.jsonl")).toMatchObject({ code: 2, err: expect.stringContaining("run needs --config EVALS.json") });
    // The evaluators file given without --config, or several datasets: each said as such, not "too many arguments".
    const slip = await run("run", "rows.jsonl", "evals.json");
    expect(slip).toMatchObject({ code: 2, out: "" });
    expect(slip.err).toContain('run takes one dataset, received 2: "rows.jsonl", "evals.json"; the evaluators file is given with --config: simeval run DATASET --config EVALS.json');
    const several = await run("run", "a.jsonl", "b.jsonl", "--config", "evals.json");
    expect(several).toMatchObject({ code: 2, err: expect.stringContaining('run takes one dataset, received 2: "a.jsonl", "b.jsonl"; a run scores one dataset file') });
    // A gate written as two words: the figure left over is said as the gate's, not as a second dataset.
    const twoWords = await run("run", "rows.jsonl", "--config", "evals.json", "--fail-under", "lev", "0.9");
    expect(twoWords).toMatchObject({ code: 2, err: expect.stringContaining('run takes one dataset, received 2: "rows.jsonl", "0.9"; --fail-under took "lev" as its value, and "0.9" was left as a word: a gate is one word, --fail-under lev=0.9') });
    expect((await run("run", "rows.jsonl", "--config", "evals.json", "--min-pass-rate", "exact", "0.5")).err).toContain("a gate is one word, --min-pass-rate exact=0.5");
    // A percentage is said as the fraction the gate takes, not as exact=95%, which it refuses.
    expect((await run("run", "rows.jsonl", "--config", "evals.json", "--min-pass-rate", "exact", "95%")).err).toContain('and "95%" was left as a word: a gate is one word, --min-pass-rate exact=0.95');
    expect((await run("run", "rows.jsonl", "--config", "evals.json", "--fail-under", "lev", "80%")).err).toContain("a gate is one word, --fail-under lev=0.8");
    expect((await run("run", "rows.jsonl", "--config", "evals.json", "--fail-over", "dist", "5%")).err).not.toContain("a gate is one word");
    // The option took a figure (a gate without a name): no gate is 0.9=2.
    expect((await run("run", "rows.jsonl", "--config", "evals.json", "--fail-under", "0.9", "2")).err).not.toContain("a gate is one word");
    expect((await run("run", "--", "a.jsonl", "--config", "evals.json")).err).toContain("; after --, every word is read as a file name, options too: give the options before --");
    // runs and trend take no argument: a run's name given bare is said, with how to give it.
    expect(await run("trend", "prompt-b", "--db", "nowhere.db")).toMatchObject({ code: 2, out: "", err: 'simeval: trend takes no arguments, received "prompt-b"; to follow only the runs of one name, give it as --name NAME (or a dataset as --dataset FILE)' });
    expect((await run("runs", "a", "b", "--db", "nowhere.db")).err).toBe('simeval: runs takes no arguments, received 2: "a", "b"; to list only the runs of one name, give it as --name NAME (or a dataset as --dataset FILE); to see one run, simeval show RUN');
    expect(await run("list", "levenshtein")).toMatchObject({ code: 2, out: "", err: 'simeval: list takes no arguments, received "levenshtein"; it lists every evaluator type, each with its config keys and defaults' });
    // The other commands' arguments too many: the words given and the usage, not commander's "too many arguments for 'show'. Expected 1 argument but got 2."
    expect(await run("show", "a", "b")).toMatchObject({ code: 2, out: "", err: 'simeval: show takes 1 argument, received 2: "a", "b"; usage: simeval show [options] <run>\n(run with --help for usage)\n' });
    expect((await run("compare", "a", "b", "c")).err).toContain('simeval: compare takes 2 arguments, received 3: "a", "b", "c"; usage: simeval compare [options] <run_a> <run_b>\n');
    // `simeval baseline` alone takes none of its two: at most two.
    expect((await run("baseline", "set", "a", "b", "--db", "nowhere.db")).err).toContain('simeval: baseline takes at most 2 arguments, received 3: "set", "a", "b"; usage: simeval baseline [options] [action] [run]\n');
    expect((await run("score", "-t", "exact_match", "-e", "a", "-o", "b", "--", "-n", "x")).err).toContain('simeval: score takes no arguments, received 2: "-n", "x"; after --');
    // One word is quoted without its count, as runs', trend's and list's refusals say it.
    expect((await run("score", "-t", "exact_match", "-e", "a", "-o", "b", "--", "x")).err).toContain('simeval: score takes no arguments, received "x"; usage: simeval score [options]\n');
    expect(await run("score", "--", "-t", "exact_match", "-e", "a", "-o", "b")).toMatchObject({ code: 2, err: expect.stringContaining("simeval: --type is required: --type <type>; it was given after --, where every word is read as an argument: give the options before --\n") });
  });

  it("scores a text that reads like the program's -V / --version option, rather than printing the version", async () => {
    for (const text of ["-V", "--version"]) {
      const r = await run("score", "-t", "exact_match", "-e", text, "-o", "something else");
      expect(r.code).toBe(1);
      expect(JSON.parse(r.out)).toMatchObject({ score: 0, passed: false });
    }
    expect(await run("--version")).toMatchObject({ code: 0, out: expect.stringMatching(/^\d+\.\d+\.\d+/) });
  });

  it("refuses --output / --expected for a parameter that --inputs maps, which would never read them", async () => {
    const r = await run("score", "-t", "exact_match", "-o", "yes", "-e", "no", "--inputs", '{"expected":{"literal":"YES"}}');
    expect(r).toMatchObject({ code: 2, out: "", err: expect.stringContaining(`--expected and --inputs' "expected" both give the expected output`) });
    const a = await run("score", "-t", "exact_match", "-o", "a", "-e", "a", "--inputs", '{"actual":"$.answer"}');
    expect(a).toMatchObject({ code: 2, err: expect.stringContaining(`--output and --inputs' "output"`) });
  });

  it("refuses --output / --expected beside a --record that has that field, where the flag won without a word", async () => {
    const r = await run("score", "-t", "levenshtein", "--record", '{"output":"a","expected":"a"}', "--expected", "c");
    expect(r).toMatchObject({ code: 2, out: "", err: `simeval: --expected and --record's "expected" both give the expected output: give one of them` });
    // A field the record lacks is the flag's to give.
    const filled = await run("score", "-t", "levenshtein", "--record", '{"output":"a","metadata":{}}', "--expected", "a");
    expect(filled).toMatchObject({ code: 0 });
    expect(JSON.parse(filled.out)).toMatchObject({ score: 1 });
  });

  it("warns of a --record field that is a slip for expected, which left the record skipped", async () => {
    for (const field of ["expectd", "Expected"]) {
      const r = await run("score", "-t", "levenshtein", "--record", JSON.stringify({ output: "a", [field]: "a" }));
      expect(r).toMatchObject({ code: 1, err: `simeval: warning: --record has no "expected", so the evaluator skipped it; it has "${field}". Did you mean "expected"?` });
      expect(JSON.parse(r.out)).toMatchObject({ skipped: true });
    }
    // A field that is no slip for it, or an expected given, or one mapped from another field: nothing to say.
    for (const argv of [["--record", '{"output":"a","reference":"a"}'], ["--record", '{"output":"a","expectd":"a"}', "--expected", "b"], ["--record", '{"output":"a","expectd":"a"}', "--inputs", '{"expected":"$.expectd"}'],
      // Skipped all the same, but not for the slip: expected mapped from another field, or given as null.
      ["--record", '{"output":"a","expectd":"a"}', "--inputs", '{"expected":"$.ref"}'], ["--record", '{"output":"a","expected":null,"expectd":"a"}']]) {
      expect((await run("score", "-t", "levenshtein", ...argv)).err).toBe("");
    }
  });

  it("reads a record with an input mapping", async () => {
    const r = await run("score", "-t", "exact_match", "--record", '{"answer":{"text":"Paris"},"ref":"paris"}', "--inputs", '{"output":"$.answer.text","expected":"$.ref"}');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out).passed).toBe(true);
    // The Levenshtein distance document's own names: actual and expected, a path or a literal.
    const doc = await run("score", "-t", "levenshtein_distance", "--record", '{"model_response":{"text":"kitten"}}', "--inputs", '{"actual":"$.model_response.text","expected":{"literal":"sitting"}}');
    expect(doc.code).toBe(0);
    expect(JSON.parse(doc.out).score).toBe(3);
  });
});

describe("simeval list", () => {
  it("shows every evaluator with its config and defaults", async () => {
    const r = await run("list");
    expect(r.code).toBe(0);
    for (const type of ["exact_match", "levenshtein", "levenshtein_distance", "jaccard_similarity", "tfidf_similarity", "semantic_similarity"]) {
      expect(r.out).toContain(type);
    }
    expect(r.out).toMatch(/threshold\s+a number in \[0, 1\]\s+0\.7/);
    expect(r.out).toContain("alias: similarity_threshold -> threshold");
  });

  it("--json is machine-readable", async () => {
    const r = await run("list", "--json");
    const list = JSON.parse(r.out) as { type: string; config: { key: string; default?: unknown }[] }[];
    expect(list.find((e) => e.type === "exact_match")?.config.find((f) => f.key === "trim")?.default).toBe(true);
  });
});

describe("the bin, as a real process", () => {
  it("scores the seed example and sets the exit code", () => {
    const p = spawnSync(process.execPath, ["--import", "tsx", "src/cli/bin.ts", "score", "--type", "levenshtein", "--expected", "Hello World", "--output", "hello world", "--config", '{"threshold":0.9,"case_sensitive":true}'], { cwd: root, encoding: "utf8" });
    expect(p.status).toBe(1);
    expect(JSON.parse(p.stdout)).toMatchObject({ score: 0.82, label: "fail" });
  });

  it("says that the working folder no longer exists, where runs printed a stack trace from process.cwd()", () => {
    const gone = mkdtempSync(join(tmpdir(), "simeval-gone-"));
    // The shell enters the folder, which is then removed under it.
    // The build (`npm run build`): `--import tsx` is looked up from the working folder, which is gone.
    const p = spawnSync("sh", ["-c", `cd "${gone}" && rmdir "${gone}" && "${process.execPath}" "${join(root, "dist/cli/bin.js")}" runs`], { cwd: root, encoding: "utf8" });
    expect(p.stderr).toBe("simeval: the working folder no longer exists (deleted or moved since the shell entered it), so no relative path can be read; cd to a folder that exists\n");
    expect(p.status).toBe(2);
  });

  it("loads a command's modules only when that command runs: --version, score and list do not load SQLite, runs does", () => {
    // better-sqlite3 is CommonJS: loaded, it is in require's cache. Each command is run in a process of its own.
    const loadsSqlite = (...argv: string[]) => {
      const script = `import { main } from "./src/cli/main.ts"; import { createRequire } from "node:module";
        await main(${JSON.stringify(argv)}, { stdout: () => {}, stderr: () => {} });
        console.log(Object.keys(createRequire(import.meta.url).cache).some((k) => k.includes("better-sqlite3")));`;
      const p = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { cwd: root, encoding: "utf8" });
      expect(p.stderr).toBe("");
      return JSON.parse(p.stdout.trim()) as boolean;
    };
    expect([loadsSqlite("--version"), loadsSqlite("score", "-t", "exact_match", "-e", "a", "-o", "a"), loadsSqlite("list")]).toEqual([false, false, false]);
    expect(loadsSqlite("runs", "--db", join(root, "no-such-folder", "x.db"))).toBe(true);
  });

  it("a reader that goes away (`simeval … | head -1`) causes no stack trace: the exit code is as usual", async () => {
    const child = spawn(process.execPath, ["--import", "tsx", "src/cli/bin.ts", "score", "-t", "exact_match", "-e", "a", "-o", "b"], { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
    child.stdout.destroy(); // closed before the command prints: its first write meets EPIPE
    let err = "";
    child.stderr.on("data", (d: Buffer) => void (err += d.toString()));
    const [code] = (await once(child, "close")) as [number];
    expect(err).toBe("");
    expect(code).toBe(1); // the verdict (fail), not a crash
  });

});

describe("simeval help COMMAND", () => {
  it("prints the command's help, and names an unknown command rather than printing the general help alone (exit 2)", async () => {
    expect(await run("help", "run")).toMatchObject({ code: 0, out: expect.stringContaining("Usage: simeval run") });
    expect(await run("help", "rm")).toMatchObject({ code: 0, out: expect.stringContaining("Usage: simeval delete|rm") });
    expect(await run("help", "help")).toMatchObject({ code: 0, out: expect.stringContaining("Usage: simeval [options] [command]"), err: "" });
    // help's own --help: commander printed the general help on stderr and exited 1 (taken for exit 2).
    for (const flag of ["-h", "--help"]) {
      expect(await run("help", flag), flag).toMatchObject({ code: 0, out: expect.stringContaining("Usage: simeval [options] [command]"), err: "" });
    }
    // More than one word after help: said, not dropped (commander showed score's help and ignored "extra").
    expect(await run("help", "score", "extra")).toMatchObject({
      code: 2,
      out: "",
      err: 'simeval: help takes one command, received 2: "score", "extra"; for a command\'s own help: simeval help COMMAND (or simeval COMMAND --help)',
    });
    expect(await run("help", "--bogus")).toMatchObject({ code: 2, out: "", err: expect.stringContaining('simeval: help --bogus: help takes a command, not the option "--bogus"; the commands are score, run') });
    // As the README says: compare takes two prompt variants' files of the same questions (the example's), and trend leaves incomplete runs out.
    expect((await run("help", "compare")).out.replace(/\s+/g, " ")).toContain("compare two runs of the same questions and references (each may be a file of its own)");
    expect((await run("help", "trend")).out.replace(/\s+/g, " ")).toContain("each evaluator's mean over the recorded complete runs");
    const r = await run("help", "bogus");
    expect(r).toMatchObject({ code: 2, out: "" });
    expect(r.err).toContain('simeval: help bogus: unknown command "bogus"; the commands are score, run, compare');
    // A slip of a command's name is answered as it is without help: with the command it likely meant.
    expect(await run("help", "rnu")).toMatchObject({ code: 2, out: "", err: expect.stringMatching(/^simeval: help rnu: unknown command "rnu"; the commands are score, run, .*\. Did you mean "run"\?/) });
  });
});

describe("--fail-on-regression's help", () => {
  it("says that an evaluator with no row scored in both runs fails it too, as compare and run do", async () => {
    for (const command of ["compare", "run"]) {
      const flag = (await run(command, "--help")).out.replace(/\s+/g, " ");
      expect(flag, command).toMatch(/--fail-on-regression [^()]*significantly worse[^()]*no row scored in both runs \(no verdict\)/);
    }
  });
});

describe("compare's arguments", () => {
  it("are named run_a and run_b, as the README's RUN_A RUN_B, where a forgotten one was \"missing required argument 'b'\"", async () => {
    expect(await run("compare", "prompt-a")).toMatchObject({ code: 2, out: "", err: expect.stringContaining("simeval: compare needs its <run_b> argument: simeval compare [options] <run_a> <run_b>\n") });
    expect((await run("compare", "--help")).out).toContain("Usage: simeval compare [options] <run_a> <run_b>");
  });
});

describe("--seed's help", () => {
  it("shows its default as the number the README gives, where it showed the string \"1\"", async () => {
    expect((await run("compare", "--help")).out.replace(/\s+/g, " ")).toContain("seed of the bootstrap and permutation test (default: 1)");
  });
});

describe("compare --json's help", () => {
  it("says the warnings go to stderr too, where the text prints them on stdout: it said they stay on stderr", async () => {
    const help = (await run("compare", "--help")).out.replace(/\s+/g, " ");
    expect(help).toContain("--json print the comparison as one JSON document on stdout (its warnings on stderr too; gate failures stay there)");
  });
});

describe("the gate options' help", () => {
  it("shows no empty default, where it printed \"(default: [])\"", async () => {
    const help = (await run("run", "--help")).out;
    expect(help).toContain("--min-pass-rate <name=rate>");
    expect(help).not.toContain("(default: [])");
  });
});

describe("--db", () => {
  it("refuses \"\" and \":memory:\", where SQLite would keep the runs only until simeval exits", async () => {
    for (const db of ["", ":memory:"]) {
      for (const argv of [["run", "rows.jsonl", "--config", "evals.json", "--db", db], ["runs", "--db", db], [`--db=${db}`, "runs"].reverse()]) {
        const r = await run(...argv);
        expect(r).toMatchObject({ code: 2, out: "" });
        expect(r.err).toContain(`--db ${JSON.stringify(db)} names no file (SQLite would keep the runs in memory, and lose them when simeval exits)`);
      }
    }
  });
});

describe("file options", () => {
  it("refuse an empty path (an unset shell variable), which was taken as the option not given and the file silently not written", async () => {
    for (const argv of [
      ["run", "rows.jsonl", "--config", "evals.json", "--out", ""],
      ["run", "rows.jsonl", "--config", "evals.json", "--summary="],
      ["run", "rows.jsonl", "--config", "evals.json", "--report", ""],
      ["run", "rows.jsonl", "--config", "evals.json", "--junit", ""],
      ["run", "rows.jsonl", "--config", ""],
      ["compare", "a", "b", "--report", ""],
      ["trend", "--report", ""],
      ["trend", "--dataset", ""],
    ]) {
      const flag = (argv.find((_, i) => i > 0 && argv[i + 1] === "") ?? argv.find((a) => a.endsWith("=")))!.replace(/=$/, "");
      const r = await run(...argv);
      expect(r).toMatchObject({ code: 2, out: "" });
      expect(r.err).toContain(`${flag} was given an empty path ("" names no file)`);
    }
  });

  it("refuse an empty dataset path, where run said \": no such file\"", async () => {
    const r = await run("run", "", "--config", "evals.json");
    expect(r).toMatchObject({ code: 2, out: "" });
    expect(r.err).toContain('simeval: the dataset was given an empty path ("" names no file); give the path of a dataset file');
  });

  it("refuse an output given as \"-\" (standard output to many tools), which wrote a file named \"-\"", async () => {
    for (const [flag, argv] of [
      ["--out", ["run", "rows.jsonl", "--config", "evals.json", "--out", "-"]],
      ["--summary", ["run", "rows.jsonl", "--config", "evals.json", "--summary=-"]],
      ["--report", ["run", "rows.jsonl", "--config", "evals.json", "--report", "-"]],
      ["--junit", ["run", "rows.jsonl", "--config", "evals.json", "--junit", "-"]],
      ["--report", ["compare", "a", "b", "--report", "-"]],
      ["--report", ["trend", "--report", "-"]],
    ] as const) {
      const r = await run(...argv);
      expect(r).toMatchObject({ code: 2, out: "" });
      expect(r.err).toContain(`${flag} -: simeval does not write its files to standard output`);
    }
  });
});

describe("option words commander let through", () => {
  it("an option whose value is missing, followed by another of the command's options, is refused rather than given that option as its value", async () => {
    for (const [argv, flag, next] of [
      [["run", "rows.jsonl", "--config", "evals.json", "--name", "--no-db"], "--name", "--no-db"],
      [["run", "rows.jsonl", "--config", "--no-db"], "--config", "--no-db"],
      [["run", "rows.jsonl", "--config", "evals.json", "--out", "--db=x.db"], "--out", "--db=x.db"],
      [["runs", "--db", "--json"], "--db", "--json"],
      [["trend", "-n", "-h"], "-n", "-h"],
      [["score", "-t", "exact_match", "-e", "--output", "x"], "-e", "--output"],
    ] as const) {
      const r = await run(...argv);
      expect(r, argv.join(" ")).toMatchObject({ code: 2, out: "" });
      expect(r.err, argv.join(" ")).toContain(`simeval: ${flag} was given no value: the word after it, ${JSON.stringify(next)}, is one of ${argv[0]}'s options; give ${flag} a value`);
    }
    // A value that only looks like an option of another command, or given with "=", is taken as it is.
    expect(await run("score", "-t", "exact_match", "-e", "-V", "-o", "-V")).toMatchObject({ code: 0 });
    expect(await run("score", "-t", "exact_match", "--expected=--output", "--output=--output")).toMatchObject({ code: 0 });
    // A value is skipped, not read as a word of its own: "-t=x" is -e's value, not a short option joined by "=".
    expect(await run("score", "-t", "exact_match", "-e", "-t=x", "-o", "-t=x")).toMatchObject({ code: 0 });
    // Words after "--" are not options: a dataset named like one is not checked.
    const after = await run("run", "--config", "evals.json", "--", "--no-db=1");
    expect(after.err).not.toContain("takes no value");
  });

  it("commander's own messages begin \"simeval:\" as every other one does, where they began \"error:\"; an unknown command lists the commands", async () => {
    for (const [argv, message] of [
      [["frob"], 'simeval: unknown command "frob"; the commands are score, run, compare, runs, show, baseline, delete, finish, abort, trend, list.'],
      [["rnu"], 'simeval: unknown command "rnu"; the commands are score, run, compare, runs, show, baseline, delete, finish, abort, trend, list. Did you mean "run"?'],
      [["score", "-e", "a", "-o", "b"], "simeval: --type is required: --type <type>"],
      [["compare", "a", "b", "--seed"], "simeval: --seed needs a value: --seed <n>"],
    ] as const) {
      const r = await run(...argv);
      expect(r, message).toMatchObject({ code: 2, out: "" });
      expect(r.err.split("\n")[0], message).toBe(message);
    }
    // A command after "--" is run: it is no unknown command.
    const listed = await run("--", "list");
    expect(listed).toMatchObject({ code: 0, err: "" });
    expect(listed.out).toContain("exact_match  (Exact Match; higher is better)");
    // A word after "--" that is no command is said as any unknown command is, where commander said it its own way.
    expect(await run("--", "frob")).toMatchObject({ code: 2, out: "", err: expect.stringMatching(/^simeval: unknown command "frob"; the commands are score, run, /) });
  });

  it("simeval with no command prints the usage on stderr and exits 2, as the README says; --help prints it on stdout and exits 0", async () => {
    const bare = await run();
    expect(bare).toMatchObject({ code: 2, out: "" });
    expect(bare.err).toMatch(/^Usage: simeval \[options\] \[command\]\n/);
    const help = await run("--help");
    expect(help).toMatchObject({ code: 0, err: "", out: bare.err });
  });

  it("a command's option given before the command is named as the unknown option, not its value as an unknown command", async () => {
    for (const [argv, message] of [
      [["--db", "x.db", "runs"], "simeval: unknown option '--db': it is an option of runs, given after the command: simeval runs --db …"],
      [["--db=x.db", "runs"], "simeval: unknown option '--db': it is an option of runs, given after the command: simeval runs --db …"],
      [["-t", "exact_match", "score", "-e", "a", "-o", "a"], "simeval: unknown option '-t': it is an option of score, given after the command: simeval score -t …"],
      [["--json", "rm", "x"], "simeval: unknown option '--json': simeval takes only --help and --version before a command"],
      [["--frob", "rnu"], "simeval: unknown option '--frob': simeval takes only --help and --version before a command"],
      [["-V", "rnu"], 'simeval: unknown command "rnu"; the commands are score, run, compare, runs, show, baseline, delete, finish, abort, trend, list. Did you mean "run"?'],
    ] as const) {
      const r = await run(...argv);
      expect(r, message).toMatchObject({ code: 2, out: "" });
      expect(r.err.split("\n")[0], message).toBe(message);
    }
  });

  it("a switch given a value (--json=yes) says it takes none, where commander called it an unknown option", async () => {
    for (const [argv, word] of [
      [["runs", "--json=yes"], "--json=yes"],
      [["run", "rows.jsonl", "--config", "evals.json", "--no-db=1"], "--no-db=1"],
      [["delete", "--vacuum=true"], "--vacuum=true"],
    ] as const) {
      const r = await run(...argv);
      expect(r, word).toMatchObject({ code: 2, out: "" });
      expect(r.err, word).toContain(`simeval: ${word.split("=")[0]} takes no value (it is a switch: give it alone), received ${JSON.stringify(word)}`);
    }
  });

  it("a short option joined to its value by = (-n=foo) is refused, where the value was taken as \"=foo\" (a run named \"=foo\")", async () => {
    for (const [argv, word, long] of [
      [["run", "rows.jsonl", "-c=evals.json"], "-c=evals.json", "--config"],
      [["trend", "-n=prompt-a"], "-n=prompt-a", "--name"],
      [["score", "-t=exact_match", "-e", "a", "-o", "a"], "-t=exact_match", "--type"],
    ] as const) {
      const r = await run(...argv);
      expect(r, word).toMatchObject({ code: 2, out: "" });
      const [short, value] = [word.slice(0, 2), word.slice(3)];
      expect(r.err, word).toContain(`simeval: ${word}: ${short} would take ${JSON.stringify(`=${value}`)} as its value; write ${short} ${value} or ${long}=${value}`);
    }
    // A value that starts with "-" only as --name=VALUE: the "-n --no-db" it also offered is refused as a value forgotten.
    const dashed = await run("run", "rows.jsonl", "-c", "evals.json", "-n=--no-db");
    expect(dashed).toMatchObject({ code: 2, out: "" });
    expect(dashed.err.trimEnd()).toBe('simeval: -n=--no-db: -n would take "=--no-db" as its value; write --name=--no-db');
  });

  it("a short option the command lacks (run -o, as score has) names the long options it likely meant, where commander only called it unknown", async () => {
    for (const [argv, message] of [
      [["run", "rows.jsonl", "-c", "evals.json", "-o", "out.jsonl"], "simeval: unknown option '-o': run has no -o; did you mean --out?"],
      [["run", "rows.jsonl", "-f", "lev=0.8"], "simeval: unknown option '-f': run has no -f; did you mean --fail-under, --fail-over or --fail-on-regression?"],
      [["compare", "a", "b", "-J"], "simeval: unknown option '-J': compare has no -J; did you mean --json?"],
    ] as const) {
      const r = await run(...argv);
      expect(r, message).toMatchObject({ code: 2, out: "" });
      expect(r.err.trim(), message).toBe(message);
    }
    // A short option with no long one to suggest is left to commander; one the command has is taken.
    expect((await run("runs", "-x")).err).toContain("simeval: unknown option '-x': runs has no -x\n");
    // commander's suggestion, on a line of its own in its voice ("(Did you mean --config?)"), said as checkOptionWords says its own.
    expect((await run("run", "rows.jsonl", "--confg", "evals.json")).err).toBe("simeval: unknown option '--confg': run has no --confg; did you mean --config?\n(run with --help for usage)\n");
    expect((await run("run", "rows.jsonl", "-n", "-o")).err).not.toContain("unknown option");
  });
});

describe("simeval baseline ACTION", () => {
  it("names an action that is neither set nor show, suggesting the closest, before the database is opened", async () => {
    const db = "/nonexistent-simeval-dir/simeval.db";
    const r = await run("baseline", "sett", "a", "--db", db);
    expect(r).toMatchObject({ code: 2, out: "" });
    expect(r.err).toContain('simeval: baseline: unknown action "sett"; expected set RUN or show. Did you mean "set"?');
    expect(await run("baseline", "foo", "--db", db)).toMatchObject({ code: 2, err: expect.stringContaining('baseline: unknown action "foo"; expected set RUN or show') });
    expect(await run("baseline", "set", "--db", db)).toMatchObject({ code: 2, err: expect.stringContaining("baseline set needs a RUN") });
    // "unset" is not "set", its opposite, though two edits from it: said how a baseline is unset.
    const unset = await run("baseline", "unset", "--db", db);
    expect(unset).toMatchObject({ code: 2, err: expect.stringContaining('baseline: unknown action "unset"; expected set RUN or show. No action unsets the baseline: `simeval baseline set RUN` marks another run, and deleting the baseline\'s run unsets it.') });
    expect(unset.err).not.toContain("Did you mean");
  });
});
