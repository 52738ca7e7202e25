import { readFileSync } from "node:fs";
import { Command, CommanderError, Option } from "commander";
import { EvalError } from "../errors.js";
// The commands' modules are loaded by the command run (an import in each action): `simeval score` or `--version` need
// neither SQLite nor the reports, and loading every command took about 0.15 s of the 0.45 s a `score` took.
import type { ScoreOptions } from "./commands/score.js";
import type { RunOptions } from "./commands/run.js";
import type { CompareOptions } from "./commands/compare.js";
import { ABORT_REASON } from "./commands/abort-reason.js";
import { DEFAULT_STORE_PATH } from "../storage/default-store-path.js";
import { EXIT, exitCodeFor } from "./exit-codes.js";
import { forTerminal } from "./format.js";
import { checkOptionWords } from "./option-words.js";
import { inSimevalVoice, takesReceived } from "./commander-voice.js";
import { didYouMean } from "../evaluators/suggest.js";
import type { CliIO } from "./io.js";

function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string };
  return pkg.version;
}

/**
 * `--db`'s value: SQLite takes "" and ":memory:" for a database that lives only as long as the process, so
 * a run recorded there would be reported as recorded and then lost. Neither names a file: refused.
 */
function dbPath(value: string): string {
  if (value === "" || value === ":memory:") {
    throw new EvalError("USAGE", `--db ${JSON.stringify(value)} names no file (SQLite would keep the runs in memory, and lose them when simeval exits); give the path of a database file, or --no-db to record nothing`);
  }
  return value;
}

/**
 * A file option's value: an empty one ("" from an unset shell variable, say) names no file, and was taken
 * as the option not given, so that the file asked for was silently not written (or read). An output given
 * as "-", which many tools read as standard output, wrote a file named "-" instead: refused, as a dataset
 * "-" is (standard output holds the summary table, which would be mixed with the file).
 */
function filePath(flag: string, output = true): (value: string) => string {
  return (value) => {
    if (value === "") throw new EvalError("USAGE", `${flag} was given an empty path ("" names no file); give the path of a file`);
    if (output && value === "-") throw new EvalError("USAGE", `${flag} -: simeval does not write its files to standard output (the command prints its own text there); give the path of a file, such as ./-`);
    return value;
  };
}

/**
 * Refuses `run` given more than one dataset, saying what the extra words likely were: the evaluators file
 * without its --config (`simeval run rows.jsonl evals.json`, the most common slip), several datasets
 * from a shell pattern, or options written after `--`. commander's own message ("too many arguments for 'run'") said neither.
 */
function excessRunArguments(args: readonly string[], opts: RunOptions): void {
  if (args.length <= 1) return;
  const given = takesReceived("run", "one dataset", args);
  // A gate written as two words (`--fail-under lev 0.9`): the option took the name, and its figure was left as a word.
  const gates: readonly [string, readonly string[] | undefined][] = [["--fail-under", opts.failUnder], ["--fail-over", opts.failOver], ["--min-pass-rate", opts.minPassRate]];
  const isFigure = (word: string) => /^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?%?$/i.test(word.trim());
  // A figure the option took (`--fail-under 0.9 2`) is no evaluator's name: 0.9=2 would be no gate.
  const split = gates.flatMap(([flag, values]) => (values ?? []).filter((v) => !v.includes("=") && !isFigure(v)).map((name) => ({ flag, name })))[0];
  const figure = args.find(isFigure);
  // A percentage is written as a fraction (95% is 0.95), as the gate would say of NAME=95%; --fail-over's distance is none.
  const percent = figure === undefined ? null : /^(\d+\.?\d*|\.\d+)%$/.exec(figure.trim());
  const value = percent ? (split?.flag !== "--fail-over" && Number(percent[1]) <= 100 ? String(Number((Number(percent[1]) / 100).toPrecision(15))) : undefined) : figure?.trim();
  if (split !== undefined && figure !== undefined && value !== undefined) {
    throw new EvalError("USAGE", `${given}; ${split.flag} took ${JSON.stringify(split.name)} as its value, and ${JSON.stringify(figure)} was left as a word: a gate is one word, ${split.flag} ${split.name}=${value}`);
  }
  const why = args.slice(1).some((a) => a.startsWith("-"))
    ? "; after --, every word is read as a file name, options too: give the options before --"
    : opts.config === undefined
      ? "; the evaluators file is given with --config: simeval run DATASET --config EVALS.json"
      : "; a run scores one dataset file: run each dataset as a run of its own";
  throw new EvalError("USAGE", given + why);
}

/**
 * Refuses words after `runs`, `trend` or `list`, which take none, naming them and saying how a run's name, the likeliest
 * meaning (`simeval trend prompt-b`), is given; commander's own message ("too many arguments for 'runs'. Expected
 * 0 arguments but got 1.") named neither.
 */
function noArguments(command: "runs" | "trend" | "list", args: readonly string[]): void {
  if (args.length === 0) return;
  const given = takesReceived(command, "no arguments", args);
  if (command === "list") throw new EvalError("USAGE", `${given}; it lists every evaluator type, each with its config keys and defaults`);
  const only = command === "runs" ? "list only the runs of one name" : "follow only the runs of one name";
  throw new EvalError("USAGE", `${given}; to ${only}, give it as --name NAME (or a dataset as --dataset FILE)${command === "runs" ? "; to see one run, simeval show RUN" : ""}`);
}

/** The command `word` names, by its name or an alias (`rm`), or undefined. */
function commandNamed(commands: readonly Command[], word: string): Command | undefined {
  return commands.find((c) => c.name() === word || c.aliases().includes(word));
}

/** The options the program itself takes, before a command: help and version. */
const PROGRAM_OPTIONS: readonly string[] = ["-h", "--help", "-V", "--version"];

/**
 * The first option before the command word (up to `--`) that is no option of the program's but one of the command's:
 * `unknown option '--db': it is an option of runs, given after the command: simeval runs --db …`. Else undefined.
 */
function misplacedOption(argv: readonly string[], commands: readonly Command[]): string | undefined {
  const at = argv.findIndex((w) => w === "--" || commandNamed(commands, w) !== undefined);
  if (at < 0 || argv[at] === "--") return undefined;
  const command = commandNamed(commands, argv[at]!)!;
  for (const word of argv.slice(0, at)) {
    if (!word.startsWith("-") || PROGRAM_OPTIONS.includes(word)) continue;
    const flag = word.startsWith("--") ? word.split("=")[0]! : word.slice(0, 2);
    if (!command.options.some((o) => o.long === flag || o.short === flag)) return undefined;
    return `unknown option '${flag}': it is an option of ${command.name()}, given after the command: simeval ${command.name()} ${flag} …`;
  }
  return undefined;
}

/** `unknown command "rnu"; the commands are score, run, …. Did you mean "run"?`: commander's own said neither the commands nor, for a word far from every one, anything more. */
function unknownCommand(word: string, commands: readonly string[]): string {
  return `unknown command ${JSON.stringify(word)}; the commands are ${commands.join(", ")}.${didYouMean(word, commands)}`;
}

/**
 * Parses `argv` (without node and the script), runs the command and returns its exit code.
 * Never exits the process and never throws: errors become a message on stderr and an exit code.
 * Control and bidi characters in what is printed on stderr are escaped ({@link forTerminal}).
 */
export async function main(argv: readonly string[], cliIO: CliIO): Promise<number> {
  // Every message on stderr may quote user data (an unreadable row, a header name, a path): none of it
  // reaches the terminal as a control or bidi character (see forTerminal). Files and stdout are untouched
  // (stdout may be JSON), except the text commands print there, which escapes the data it quotes: the comparison's
  // row ids (printComparison), a table's cells (renderTable), a dataset or output path (forTerminalLine).
  const io: CliIO = {
    stdout: cliIO.stdout,
    stderr: (text) => cliIO.stderr(forTerminal(text)),
    get columns() {
      return cliIO.columns;
    },
  };
  let code: number = EXIT.ok;
  const program = new Command("simeval")
    .description("Score LLM and agent outputs against reference answers.")
    .exitOverride()
    // commander's own messages ("error: unknown command 'x'") begin "simeval:", as every other message does.
    .configureOutput({ writeOut: (s) => io.stdout(s), writeErr: (s) => io.stderr(s), outputError: (s, write) => write(inSimevalVoice(s)) })
    .showHelpAfterError("(run with --help for usage)")
    // The program's own options (-V, --version) only before the command: otherwise a text given to a
    // command's option ("score -e -V", "run … --name --version") printed the version and exited 0.
    .enablePositionalOptions()
    .version(packageVersion());

  program
    .command("score")
    .description("score one output against one expected output and print the result as JSON (exit 0 pass or no verdict, 1 fail)")
    .addOption(new Option("-t, --type <type>", "evaluator type, required (see `simeval list`)").makeOptionMandatory())
    .option("-o, --output <text>", "the output to score (required unless --record gives it)")
    .option("-e, --expected <text>", "the reference answer (required unless --record gives it)")
    .option("-c, --config <json>", "evaluator config as JSON, e.g. '{\"threshold\":0.9}'")
    .option("-n, --name <name>", "name for the result (default: the type)")
    .option("--inputs <json>", "input mapping as JSON: parameter -> JSONPath or {\"literal\": value}")
    .option("--record <json>", "a whole evaluation record as JSON (with --inputs to reach its fields)")
    .action(async (opts: ScoreOptions) => {
      const { scoreCommand } = await import("./commands/score.js");
      code = await scoreCommand(opts, io);
    });

  // No default ([] would print as "(default: [])" in --help): the first value starts the list.
  const collect = (value: string, previous: string[] | undefined) => [...(previous ?? []), value];
  const dbOption = () => new Option("--db <path>", "the run database").default(DEFAULT_STORE_PATH).argParser(dbPath);
  // The filters `runs` and `trend` share (see run-filter.ts), with one meaning and one text.
  const nameFilter = () => new Option("-n, --name <name>", "only runs with this name");
  const datasetFilter = () => new Option("--dataset <path>", "only runs on this dataset file, or on its content at another path").argParser(filePath("--dataset", false));
  const lastFilter = (runs: string) => new Option("--last <n>", `only the newest n ${runs} that the other options keep`);

  program
    .command("run")
    .description("score every row of a dataset (JSONL, JSON array or CSV) and record the run")
    .argument("<dataset>", "the dataset file")
    // Checked in the action rather than by commander, which would ask for --config before the dataset.
    .option("-c, --config <file>", 'EVALS.json: {"evaluators": [spec, ...]} (required)', filePath("--config", false))
    .option("--out <file>", "write one results line per row (JSONL), in input order", filePath("--out"))
    .option("--summary <file>", "write the summary as JSON", filePath("--summary"))
    .option("--report <file>", "write a self-contained HTML report", filePath("--report"))
    .option("--junit <file>", "write JUnit XML for CI systems", filePath("--junit"))
    .option("--fail-under <name=mean>", "exit 1 when evaluator NAME's mean is below MEAN (repeatable)", collect)
    .option("--fail-over <name=mean>", "exit 1 when distance evaluator NAME's mean is above MEAN (repeatable)", collect)
    .option("--min-pass-rate <name=rate>", "exit 1 when evaluator NAME's pass rate is below RATE, a fraction (repeatable)", collect)
    .option("--count-skipped-as-zero", "count rows without an expected output as score 0 and failed (the documents' behaviour; for a distance, left out of its mean and, with a threshold, failed)")
    .option("-n, --name <name>", "a name for the run (the commands taking a RUN accept it)")
    .addOption(dbOption())
    .option("--no-db", "do not record the run")
    .option("--baseline", "compare with the baseline run in the same step")
    .option("--fail-on-regression", "with --baseline: exit 1 when this run is significantly worse, or when an evaluator has no row scored in both runs (no verdict); exit 2 when the runs cannot be judged (their ids disagree, the baseline was deleted)")
    .option("--workers <n>", "worker threads (0 = score on the main thread); default: one per core, one fewer when the run is recorded, 0 for a file under 1 MiB or an evaluator that calls an embedding service")
    // Excess arguments are refused in the action, which can say what they likely were (see excessRunArguments).
    .allowExcessArguments()
    .action(async (dataset: string, opts: RunOptions, command: Command) => {
      excessRunArguments(command.args, opts);
      // --db and --no-db set the same option, the last one winning; given both, the user meant one of them.
      const args = argv.includes("--") ? argv.slice(0, argv.indexOf("--")) : argv;
      if (args.includes("--no-db") && args.some((a) => a === "--db" || a.startsWith("--db="))) throw new EvalError("USAGE", "--db and --no-db contradict each other: give one of them");
      const { runCommand } = await import("./commands/run.js");
      code = await runCommand(dataset, opts, io);
    });

  program
    .command("compare")
    .description("compare two runs of the same questions and references (each may be a file of its own): means, paired difference with 95% CI and p-value")
    .argument("<run_a>", "A, the known-good run compared against: an id, id prefix, name, or a results.jsonl file")
    .argument("<run_b>", "B, the candidate run (as run_a)")
    .option("--fail-on-regression", "exit 1 when B is significantly worse than A on some evaluator, or when one has no row scored in both runs (no verdict); exit 2 when the runs cannot be judged (their ids disagree, a run not complete, a results file cut short)")
    .option("--report <file>", "write an HTML comparison", filePath("--report"))
    .addOption(new Option("--seed <n>", "seed of the bootstrap and permutation test").default("1", "1"))
    .addOption(new Option("--pair-by <how>", "pair rows by row number (row), or by the keys recorded runs' rows were stored with (key: runs a service recorded from traces)").choices(["row", "key"]).default("row"))
    .option("--json", "print the comparison as one JSON document on stdout (its warnings on stderr too; gate failures stay there)")
    .addOption(dbOption())
    .action(async (a: string, b: string, opts: CompareOptions) => {
      const { compareCommand } = await import("./commands/compare.js");
      code = await compareCommand(a, b, opts, io);
    });

  program
    .command("runs")
    .description("list the recorded runs, newest first")
    .addOption(nameFilter())
    .addOption(datasetFilter())
    .addOption(lastFilter("runs"))
    .option("--json", "print as JSON")
    .addOption(dbOption())
    .allowExcessArguments()
    .action(async (opts: { db: string; json?: boolean; name?: string; dataset?: string; last?: string }, command: Command) => {
      noArguments("runs", command.args);
      const { runsCommand } = await import("./commands/runs.js");
      code = await runsCommand(opts, io);
    });

  program
    .command("show")
    .description("show one recorded run and its summary")
    .argument("<run>", "an id, id prefix or name")
    .option("--json", "print as JSON")
    .addOption(dbOption())
    .action(async (ref: string, opts: { db: string; json?: boolean }) => {
      const { showCommand } = await import("./commands/show.js");
      code = await showCommand(ref, opts, io);
    });

  program
    .command("baseline")
    .description("`baseline set RUN` marks the known-good run; `baseline` shows it")
    .argument("[action]", "set or show")
    .argument("[run]", "an id, id prefix or name")
    .addOption(dbOption())
    .action(async (action: string | undefined, ref: string | undefined, opts: { db: string }) => {
      const { baselineCommand } = await import("./commands/baseline.js");
      code = await baselineCommand(action, ref, opts, io);
    });

  program
    .command("delete")
    .alias("rm")
    .description("delete recorded runs and their rows; --vacuum gives the space back to the file system")
    .argument("[runs...]", "ids, id prefixes or names")
    .option("--vacuum", "then shrink the database file (rewrites it: takes time and free disk as large as the file)")
    .option("--force", "delete runs recorded as still running too (their process, on another host or in another container, may be gone)")
    .addOption(dbOption())
    .action(async (refs: string[], opts: { db: string; vacuum?: boolean; force?: boolean }) => {
      const { deleteCommand } = await import("./commands/delete.js");
      code = await deleteCommand(refs, opts, io);
    });

  program
    .command("finish")
    .description(`mark a running run that no process owns (owner "none", a service's) complete, with the summary of its stored rows`)
    .argument("<run>", "an id, id prefix or name")
    .option("--count-skipped-as-zero", "count rows without an expected output as score 0 and failed (for a distance, left out of its mean and, with a threshold, failed), as `simeval run` does with it")
    .addOption(dbOption())
    .action(async (ref: string, opts: { db: string; countSkippedAsZero?: boolean }) => {
      const { finishCommand } = await import("./commands/finish-abort.js");
      code = await finishCommand(ref, opts, io);
    });

  program
    .command("abort")
    .description(`mark a running run that no process owns (owner "none", a service's; --force: one a process owns) incomplete, keeping its rows`)
    .argument("<run>", "an id, id prefix or name")
    .option("--reason <text>", `why it stopped, which \`show\` prints (default: "${ABORT_REASON}")`)
    .option("--force", "abort a run that a process owns too (its process, on another host or in another container, may be gone; a live one's next rows then fail)")
    .addOption(dbOption())
    .action(async (ref: string, opts: { db: string; reason?: string; force?: boolean }) => {
      const { abortCommand } = await import("./commands/finish-abort.js");
      code = await abortCommand(ref, opts, io);
    });

  program
    .command("trend")
    .description("each evaluator's mean over the recorded complete runs; --report draws it")
    .option("--report <file>", "write an HTML chart of the means", filePath("--report"))
    .addOption(nameFilter())
    .addOption(datasetFilter())
    .addOption(lastFilter("complete runs"))
    .option("--json", "print as JSON (warnings stay on stderr too)")
    .addOption(dbOption())
    .allowExcessArguments()
    .action(async (opts: { db: string; report?: string; json?: boolean; name?: string; dataset?: string; last?: string }, command: Command) => {
      noArguments("trend", command.args);
      const { trendCommand } = await import("./commands/trend.js");
      code = await trendCommand(opts, io);
    });

  program
    .command("list")
    .description("list every evaluator with its config keys and defaults")
    .option("--json", "print as JSON")
    .allowExcessArguments()
    .action(async (opts: { json?: boolean }, command: Command) => {
      noArguments("list", command.args);
      const { listCommand } = await import("./commands/list.js");
      code = listCommand(opts, io);
    });

  // A command's missing argument, or its arguments too many (commander's own said neither which nor the usage), are said with the command's usage.
  for (const command of program.commands) {
    command.configureOutput({ outputError: (s, write) => write(inSimevalVoice(s, { name: command.name(), usage: command.usage(), args: command.args, optional: command.registeredArguments.some((a) => !a.required) })) });
  }

  // `help COMMAND` for a command that does not exist: commander prints the general help on stderr and exits
  // 1, without a word on what was wrong (where `simeval COMMAND` says "unknown command").
  // `help help`, and help's own `help --help` / `help -h`, are the general help (commander gave it on
  // stderr, with exit 1).
  const topic = argv[0] === "help" ? argv[1] : undefined;
  const general = topic === "help" || topic === "--help" || topic === "-h";
  if (topic !== undefined && !general && commandNamed(program.commands, topic) === undefined) {
    const names = program.commands.map((c) => c.name());
    const what = topic.startsWith("-") ? `help takes a command, not the option ${JSON.stringify(topic)}; the commands are ${names.join(", ")}` : unknownCommand(topic, names);
    io.stderr(`simeval: help ${topic}: ${what}`);
    return EXIT.usage;
  }
  // `help score extra`: commander showed score's help and dropped the rest unsaid.
  if (topic !== undefined && argv.length > 2) {
    io.stderr(`simeval: ${takesReceived("help", "one command", argv.slice(1))}; for a command's own help: simeval help COMMAND (or simeval COMMAND --help)`);
    return EXIT.usage;
  }

  // A command's option given before the command (`--db x.db runs`, `-t exact_match score …`): commander named it
  // an unknown option, as if the command had none such.
  const misplaced = misplacedOption(argv, program.commands);
  if (misplaced !== undefined) {
    io.stderr(`simeval: ${misplaced}`);
    return EXIT.usage;
  }

  try {
    // The command is the first word that is not an option: the program's options come before it.
    const at = argv.findIndex((w) => !w.startsWith("-"));
    const word = at < 0 ? undefined : (argv[at] as string);
    const command = word === undefined ? undefined : commandNamed(program.commands, word);
    // After "--" (`simeval -- run …`), every word is an argument: no option to check.
    if (command && !argv.slice(0, at).includes("--")) checkOptionWords(command, argv.slice(at + 1));
    // Only after the program's own options (or "--"): after another (`--db x runs`, a command's option given before the
    // command), the first word that is not an option may be its value, and commander names the option instead.
    else if (word !== undefined && command === undefined && word !== "help" && argv.slice(0, at).every((w) => w === "--" || PROGRAM_OPTIONS.includes(w))) {
      io.stderr(`simeval: ${unknownCommand(word, program.commands.map((c) => c.name()))}`);
      return EXIT.usage;
    }
    await program.parseAsync(general ? ["--help"] : [...argv], { from: "user" });
    return code;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version end with exit code 0; every other commander error is a usage error.
      return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
    }
    if (error instanceof EvalError) {
      io.stderr(`simeval: ${error.message}`);
      return exitCodeFor(error.code);
    }
    // A shell still in a folder deleted since (`rm -rf` of a checkout, a CI workspace cleaned): relative paths mean nothing.
    if ((error as NodeJS.ErrnoException | null)?.syscall === "uv_cwd") {
      io.stderr("simeval: the working folder no longer exists (deleted or moved since the shell entered it), so no relative path can be read; cd to a folder that exists");
      return EXIT.usage;
    }
    io.stderr(`simeval: unexpected error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    return EXIT.runtime;
  }
}
