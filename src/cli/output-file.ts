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

/** A line writer to a file that honours back-pressure, so a million rows never pile up in memory. */
export interface LineFile {
  write(line: string): void | Promise<void>;
  close(): Promise<void>;
}

export async function openLineFile(flag: string, path: string): Promise<LineFile> {
  let stream: WriteStream;
  try {
    mkdirSync(dirname(path), { recursive: true });
    stream = createWriteStream(path);
    await once(stream, "open");
  } catch (error) {
    throw new EvalError("USAGE", `${flag} ${path}: cannot write (${(error as Error).message})`);
  }
  let buffer: string[] = [];
  let size = 0;
  const flush = async () => {
    if (!buffer.length) return;
    const chunk = buffer.join("");
    buffer = [];
    size = 0;
    if (!stream.write(chunk)) await once(stream, "drain");
  };
  return {
    write(line) {
      buffer.push(line, "\n");
      size += line.length + 1;
      if (size >= 1 << 16) return flush();
    },
    async close() {
      await flush();
      stream.end();
      await once(stream, "finish");
    },
  };
}
