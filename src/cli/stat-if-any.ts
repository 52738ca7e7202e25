import { statSync, type Stats } from "node:fs";

/**
 * What `path` is (following symlinks), or undefined when nothing can be found there: missing, under a file, or not
 * looked up (no permission on a folder, a symlink loop). For the questions a command asks of a path it was given
 * (a file? a folder?), where any of these means "no".
 */
export function statIfAny(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}
