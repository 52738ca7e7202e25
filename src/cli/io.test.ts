import { Writable } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { lineWriter, outputFailure } from "./io.js";

/** A stream whose every write fails with `code`, as standard output does on a full disk (ENOSPC). */
function failing(code: string): Writable {
  return new Writable({ write: (_chunk, _enc, cb) => cb(Object.assign(new Error(`${code}: failed, write`), { code })) });
}

function sink(): Writable & { text: string } {
  const s = new Writable({ write: (chunk, _enc, cb) => ((s.text += String(chunk)), cb()) }) as Writable & { text: string };
  s.text = "";
  return s;
}

const tick = () => new Promise((r) => setTimeout(r, 10));

describe("lineWriter", () => {
  const before = process.exitCode;
  afterEach(() => {
    process.exitCode = before;
  });

  it("a reader that went away (EPIPE) stops the printing quietly", async () => {
    const report = sink();
    const write = lineWriter(failing("EPIPE"), "output", report);
    write("a");
    await tick();
    write("b");
    await tick();
    expect(report.text).toBe("");
    expect(process.exitCode).toBe(before);
  });

  it("any other failure (a full disk) stops the printing, is said on the other stream and makes the exit code 3, without throwing", async () => {
    const report = sink();
    const write = lineWriter(failing("ENOSPC"), "output", report);
    write("a");
    await tick();
    write("b");
    await tick();
    expect(report.text).toBe("simeval: cannot write to standard output (ENOSPC: failed, write)\n");
    expect(outputFailure()).toBe("cannot write to standard output (ENOSPC: failed, write)");
    expect(process.exitCode).toBe(3);
  });
});
