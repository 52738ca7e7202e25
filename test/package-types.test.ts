import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { afterAll, describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("..", import.meta.url));

/**
 * The types of the documented signatures, as a TypeScript user imports them from the built package
 * ("The types in these signatures are exported too"): compiled with tsc, strict, nodenext.
 */
describe("the package's types", () => {
  // Inside the package, so that `simeval` resolves to itself through its exports.
  const dir = mkdtempSync(join(root, "test", ".types-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** Writes `source` to `file` in {@link dir} and compiles it with tsc as a strict nodenext user would: no error. */
  function expectCompiles(file: string, source: string, opts: { exactOptionalPropertyTypes?: boolean } = {}): void {
    writeFileSync(join(dir, file), source);
    const strictness = opts.exactOptionalPropertyTypes ? ["--strict", "--exactOptionalPropertyTypes"] : ["--strict"];
    const args = ["--noEmit", ...strictness, "--module", "nodenext", "--moduleResolution", "nodenext", "--target", "es2022", "--types", "node", join(dir, file)];
    const p = spawnSync(process.execPath, [join(root, "node_modules", "typescript", "bin", "tsc"), ...args], { cwd: root, encoding: "utf8" });
    expect(p.stdout + p.stderr).toBe("");
    expect(p.status).toBe(0);
  }

  it("export the inputs of the report renderers, verdictNow's result, the embedding cache and a provider factory's hooks", () => {
    expectCompiles("consumer.ts", `import type { EvalVerdict, EmbeddingCache, EmbeddingProviderHooks, EvaluatorEnv, Evaluator } from "simeval";
import type { RunReportInput, ComparisonReportInput, TrendReportInput, JUnitInput } from "simeval/node";
import { renderRunReport, renderComparisonReport, renderTrendReport, renderJUnit } from "simeval/node";
import { levenshteinDistance } from "simeval/metrics";
// "an option left out or \`undefined\` takes its default", with exactOptionalPropertyTypes too.
export const distance = levenshteinDistance("kitten", "sitting", { maxDistance: undefined, unit: undefined });
export const verdict = (e: Evaluator): EvalVerdict | undefined => e.verdictNow?.({ output: "a", expected: "a" });
export const cache: EvaluatorEnv["embeddingCache"] = undefined as EmbeddingCache | undefined;
export const hooks: EmbeddingProviderHooks = { notice: () => {} };
export const renderers: [(i: RunReportInput) => string, (i: ComparisonReportInput) => string, (i: TrendReportInput) => string, (i: JUnitInput) => string] =
  [renderRunReport, renderComparisonReport, renderTrendReport, renderJUnit];
`, { exactOptionalPropertyTypes: true });
  }, 60_000);

  it("give a service all it names from simeval/node alone: the record scoreRecord scores, its result, the EvalError it tells apart, and an embedding provider of its own", () => {
    expectCompiles("service.ts", `import { createEvaluators, scoreRecord, EvalError, type EvalRecord, type EvalResult, type Direction, type EmbeddingProviderFactory, type EvaluatorEnv } from "simeval/node";
export const env = (own: EmbeddingProviderFactory): EvaluatorEnv => ({ embeddingProviders: { own } });
export async function score(record: EvalRecord): Promise<unknown> {
  try {
    return await scoreRecord(record, createEvaluators([{ type: "exact_match" }]));
  } catch (e) {
    return e instanceof EvalError ? e.code : e;
  }
}
export const shown = (r: EvalResult, d: Direction): string => \`\${r.name} \${d}\`;
`);
  }, 60_000);

  it("give a service its paged reads and result types from simeval/node: getRun, listRuns and rows pages, isResultError, RowVerdict, InputSource", () => {
    expectCompiles("reads.ts", `import { isResultError, type InputSource, type ListRunsOptions, type RowsOptions, type RowVerdict, type RunInfo, type RunStore } from "simeval/node";
export const firstPage: ListRunsOptions = { limit: 50 };
export const rowsPage: RowsOptions = { after: 100, limit: 100, records: false };
export const source: InputSource = { literal: "x" };
export async function runOf(store: RunStore, id: string): Promise<RunInfo | undefined> {
  return (await store.getRun(id)) ?? (await store.listRuns(firstPage))[0];
}
export const failed = (v: RowVerdict): string | null => (isResultError(v) ? v.error.code : null);
`, { exactOptionalPropertyTypes: true });
  }, 60_000);

  it("give a service the evaluator registry's values and types from simeval/node: the types it accepts, a run's directions, their config fields", () => {
    expectCompiles("registry.ts", `import { evaluators, evaluatorTypes, findEvaluator, describeEvaluators, type Direction, type EvaluatorDefinition, type EvaluatorDescription, type ConfigFieldDescription, type RunInfo } from "simeval/node";
export const accepted: readonly string[] = evaluatorTypes;
export const all: readonly EvaluatorDefinition[] = evaluators;
export function directions(run: RunInfo): Record<string, Direction> {
  const found = (type: string): EvaluatorDefinition | undefined => findEvaluator(type);
  return Object.fromEntries(run.evaluators.flatMap((s) => { const d = found(s.type); return d ? [[s.name ?? s.type, d.direction]] : []; }));
}
export const fields: ConfigFieldDescription[] = describeEvaluators().flatMap((e: EvaluatorDescription) => e.config);
`);
  }, 60_000);

  it("name what the run store's methods take and give, so that a service can write them down, and a store of its own implement RunStore", () => {
    expectCompiles("store.ts", `import type { BeginRunOptions, DeletedRun, DeleteRunOptions, FinishRunOptions, RunMeta, RunStore, RunSummary, StoredRows } from "simeval/node";
export function begin(store: RunStore, name: string): Promise<string> {
  const meta: RunMeta = { name, dataset_path: null, dataset_hash: null, evaluators: [{ type: "exact_match" }] };
  const opts: BeginRunOptions = { owner: "none" };
  return store.beginRun(meta, opts);
}
export function finish(store: RunStore, id: string, summary: RunSummary): Promise<boolean> {
  const opts: FinishRunOptions = { rows: summary.rows };
  return store.finishRun(id, summary, opts);
}
export async function remove(store: RunStore, id: string): Promise<number> {
  const opts: DeleteRunOptions = { force: true, onProgress: () => {}, signal: AbortSignal.timeout(1000) };
  const deleted: DeletedRun = await store.deleteRun(id, opts);
  return deleted.rows - (deleted.left ?? 0);
}
// When a run's last row came, as show prints it: on any RunStore, not only SQLite's.
export async function lastStored(store: RunStore, id: string): Promise<number | null> {
  const stored: StoredRows = await store.storedRows(id);
  return stored.last_stored_at;
}
`, { exactOptionalPropertyTypes: true });
  }, 60_000);

  it("let a caller under exactOptionalPropertyTypes pass the store's options and a row's key and record as possibly undefined, as the store takes them", () => {
    expectCompiles("optional.ts", `import { summarizeStoredRun, type RunStore, type RowOutcome, type UnnumberedRow } from "simeval/node";
// A row read from one run and appended to another: its key and record are optional there.
export const again = (r: RowOutcome): UnnumberedRow => ({ id: r.id, key: r.key, record: r.record, results: r.results });
export async function copy(store: RunStore, from: string, to: string, owner?: "none", withRecords?: boolean, rows?: number, force?: boolean, countSkippedAsZero?: boolean): Promise<void> {
  const id = await store.beginRun({ name: "copy", dataset_path: null, dataset_hash: null, evaluators: [] }, { owner });
  for await (const r of store.rows(from, { records: withRecords })) await store.appendRows(to, [again(r)]);
  await store.finishRun(id, await summarizeStoredRun(store, to, { countSkippedAsZero }), { rows });
  await store.deleteRun(from, { force, signal: undefined, onProgress: undefined });
}
`, { exactOptionalPropertyTypes: true });
  }, 60_000);

  it("export every type that an exported signature names, so that a caller can write its arguments down", () => {
    writeFileSync(join(dir, "all.ts"), `export * as root from "simeval";\nexport * as metrics from "simeval/metrics";\nexport * as node from "simeval/node";\n`);
    const program = ts.createProgram([join(dir, "all.ts")], { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, strict: true, types: ["node"], noEmit: true });
    const checker = program.getTypeChecker();
    const entries = ["simeval", "simeval/metrics", "simeval/node"].map((name) => {
      const resolved = ts.resolveModuleName(name, join(dir, "all.ts"), program.getCompilerOptions(), ts.sys).resolvedModule;
      const module = checker.getSymbolAtLocation(program.getSourceFile(resolved!.resolvedFileName)!)!;
      return { name, symbols: checker.getExportsOfModule(module).map((s) => (s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s)) };
    });
    const exported = new Set(entries.flatMap((e) => e.symbols.flatMap((s) => s.declarations ?? [])));
    // The runner's own plumbing on SummaryBuilder (addPacked, scores()), not for callers.
    const internal = new Set(["PackedScores", "ScoreSet", "Histogram"]);
    const missing = new Set<string>();
    const seen = new Set<ts.Type>();
    const visit = (type: ts.Type, from: string, depth: number): void => {
      if (seen.has(type) || depth > 6) return;
      seen.add(type);
      const symbol = type.aliasSymbol ?? type.getSymbol();
      for (const d of symbol?.declarations ?? []) {
        const named = ts.isInterfaceDeclaration(d) || ts.isTypeAliasDeclaration(d) || ts.isClassDeclaration(d);
        if (named && d.getSourceFile().fileName.startsWith(join(root, "dist")) && !exported.has(d) && !internal.has(symbol!.name)) missing.add(`${symbol!.name} (${from})`);
      }
      for (const t of type.aliasTypeArguments ?? []) visit(t, from, depth + 1);
      if (type.isUnionOrIntersection()) for (const t of type.types) visit(t, from, depth + 1);
      if (type.flags & ts.TypeFlags.Object && (type as ts.ObjectType).objectFlags & ts.ObjectFlags.Reference) for (const t of checker.getTypeArguments(type as ts.TypeReference)) visit(t, from, depth + 1);
      for (const signature of [...type.getCallSignatures(), ...type.getConstructSignatures()]) {
        for (const parameter of signature.getParameters()) visit(checker.getTypeOfSymbol(parameter), from, depth + 1);
        visit(signature.getReturnType(), from, depth + 1);
      }
      if (type.flags & ts.TypeFlags.Object) {
        for (const property of type.getProperties()) {
          const d = property.valueDeclaration;
          if (d && ts.getCombinedModifierFlags(d) & ts.ModifierFlags.Private) continue;
          visit(checker.getTypeOfSymbol(property), from, depth + 1);
        }
      }
    };
    for (const { name, symbols } of entries) {
      for (const s of symbols) {
        if (s.flags & ts.SymbolFlags.Value) visit(checker.getTypeOfSymbol(s), `${name}: ${s.name}`, 0);
        if (s.flags & ts.SymbolFlags.Type) visit(checker.getDeclaredTypeOfSymbol(s), `${name}: ${s.name}`, 0);
      }
    }
    expect([...missing]).toEqual([]);
  }, 60_000);
});
