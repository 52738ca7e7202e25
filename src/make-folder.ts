import { existsSync, mkdirSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";

/**
 * Creates a folder and its missing parents (`mkdir -p`), one level at a time. Node 20's
 * `mkdirSync(dir, { recursive: true })` loops forever where a parent exists but cannot hold folders
 * (under /proc): here the first level that cannot be made throws its error (ENOENT, EACCES), and a
 * file where a folder should be throws ENOTDIR.
 */
export function makeFolder(dir: string): void {
  const missing: string[] = [];
  let d = resolve(dir);
  for (; !existsSync(d) && dirname(d) !== d; d = dirname(d)) missing.push(d);
  if (!statSync(d).isDirectory()) throw Object.assign(new Error(`ENOTDIR: not a directory, mkdir '${dir}'`), { code: "ENOTDIR", path: dir });
  for (const level of missing.reverse()) {
    try {
      mkdirSync(level);
    } catch (error) {
      // Made meanwhile by another process, or a dangling symlink (whose child then fails).
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
  }
}
