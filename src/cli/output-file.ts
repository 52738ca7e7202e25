import { createWriteStream, mkdirSync, writeFileSync, type WriteStream } from "node:fs";
import { dirname } from "node:path";
import { once } from "node:events";
import { EvalError } from "../errors.js";

/** Writes a whole file, creating its folder; a failure names the path and the flag it came from. */
export function writeOutput(flag: string, path: string, text: string): void {
  try {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
  } catch (error) {
    throw new EvalError("USAGE", `${flag} ${path}: cannot write (${(error as Error).message})`);
  }
}

/** A file written as a stream that honours back-pressure, so that a million rows never pile up in memory. */
export interface TextFile {
  write(chunk: string | Uint8Array): void | Promise<void>;
  close(): Promise<void>;
}

export async function openTextFile(flag: string, path: string): Promise<TextFile> {
  let stream: WriteStream;
  try {
    mkdirSync(dirname(path), { recursive: true });
    stream = createWriteStream(path);
    await once(stream, "open");
  } catch (error) {
    throw new EvalError("USAGE", `${flag} ${path}: cannot write (${(error as Error).message})`);
  }
  return {
    write(chunk) {
      if (!stream.write(chunk)) return once(stream, "drain").then(() => undefined);
    },
    async close() {
      stream.end();
      await once(stream, "finish");
    },
  };
}
