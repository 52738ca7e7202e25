import { realpathSync } from "node:fs";
import { resolve, sep } from "node:path";

/**
 * The absolute path the system opens for `path`, or why there is none. `resolve` reads ".." as text, taking
 * the folder before it away, where the system steps out of that folder as it finds it on disk: `x/../r.json`
 * cannot be opened when there is no folder `x` (nor when `x` is a file), and `link/../r.json` is beside the
 * folder the link leads to. So the part up to the last ".." is resolved by the system (`realpath`); without a
 * "..", or on Windows, which reads ".." as text too, `resolve` gives the same path. Shared by the checks of
 * output paths (the CLI) and by the run store, which makes the database's folder before SQLite opens the path.
 */
export function systemPath(path: string): string | { error: string } {
  const parts = path.split(sep);
  const last = parts.lastIndexOf("..");
  if (last < 0 || process.platform === "win32") return resolve(path);
  const head = parts.slice(0, last + 1).join(sep);
  try {
    return resolve(realpathSync.native(head), ...parts.slice(last + 1));
  } catch (error) {
    return { error: `${(error as Error).message}: a ".." steps out of the folder before it, which must be a folder that is there` };
  }
}
