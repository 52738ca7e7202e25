import { spawnSync } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import type { Progress } from "./progress.js";
import { sayInterrupted, STOPPED_EXIT, watchInterrupts, watchStopSignals, type StopSignals } from "./stop-signals.js";

describe("watchStopSignals", () => {
  let watching: StopSignals | undefined;
  afterEach(() => watching?.dispose());

  it.each(["SIGINT", "SIGTERM"] as const)("%s while rows are scored aborts the run and says that the rows in flight are finished", (name) => {
    const said: [string, string][] = [];
    watching = watchStopSignals((m, signal) => said.push([m, signal]));
    process.emit(name);
    expect(watching.signal.aborted).toBe(true);
    expect(watching.signal.reason).toBe(name); // the run's stop reason names it
    expect(watching.stoppedBy).toBe(name);
    // The line itself: where it starts (after the ^C a terminal echoed) is for `say`, which is given the signal.
    expect(said).toEqual([[expect.stringMatching(new RegExp(`^simeval: interrupted \\(${name}\\); finishing the rows in flight and recording the run as incomplete`)), name]]);
    expect(STOPPED_EXIT[name]).toBe(name === "SIGINT" ? 130 : 143);
  });

  it("once every row is read, says that the run is recorded complete, as it is", () => {
    const said: string[] = [];
    watching = watchStopSignals((m) => said.push(m));
    watching.read();
    process.emit("SIGINT");
    expect(said).toEqual([expect.stringMatching(/^simeval: interrupted \(SIGINT\) once every row was read; finishing the rows in flight and recording the run as complete… \(Ctrl-C again to stop at once\)$/)]);
  });

  it("says nothing of recording the run when it is not recorded (--no-db)", () => {
    const said: string[] = [];
    watching = watchStopSignals((m) => said.push(m), false);
    process.emit("SIGINT");
    watching.dispose();
    watching = watchStopSignals((m) => said.push(m), false);
    watching.read();
    process.emit("SIGTERM");
    expect(said).toEqual([
      "simeval: interrupted (SIGINT); finishing the rows in flight (the figures will cover the rows read so far)… (Ctrl-C again to stop at once)",
      "simeval: interrupted (SIGTERM) once every row was read; finishing the rows in flight… (SIGTERM again to stop at once)",
    ]);
  });

  it("once every row is scored, says that the files are finished", () => {
    const said: string[] = [];
    watching = watchStopSignals((m) => said.push(m));
    watching.scored();
    process.emit("SIGTERM");
    expect(said).toEqual([expect.stringContaining("interrupted (SIGTERM) once every row was scored; finishing the run's files")]);
  });

  it("a read() after scored() leaves it saying that the files are finished", () => {
    const said: string[] = [];
    watching = watchStopSignals((m) => said.push(m));
    watching.scored();
    watching.read();
    process.emit("SIGINT");
    expect(said).toEqual([expect.stringMatching(/^simeval: interrupted \(SIGINT\) once every row was scored; finishing the run's files…/)]);
  });

  it("listens once per signal, the first signal sticks, and dispose gives both back to Node", () => {
    const before = { SIGINT: process.listenerCount("SIGINT"), SIGTERM: process.listenerCount("SIGTERM") };
    watching = watchStopSignals(() => {});
    expect(process.listenerCount("SIGINT")).toBe(before.SIGINT + 1);
    process.emit("SIGTERM");
    // A second SIGTERM stops the process at once: the listener kept for it only removes unfinished files first.
    expect(process.listenerCount("SIGTERM")).toBe(before.SIGTERM + 1);
    process.emit("SIGINT");
    expect(watching.stoppedBy).toBe("SIGTERM");
    watching.dispose();
    expect(process.listenerCount("SIGINT")).toBe(before.SIGINT);
    expect(process.listenerCount("SIGTERM")).toBe(before.SIGTERM);
  });

  it.each(["SIGINT", "SIGTERM"] as const)("a second %s that comes before the first is heard (the main thread busy) still stops the process at once", (signal) => {
    // A real process: both signals are sent before its loop turns, as when it is busy writing a run's files.
    const script = [
      `import { watchStopSignals } from ${JSON.stringify(new URL("./stop-signals.ts", import.meta.url).href)};`,
      `watchStopSignals((m) => console.log(m));`,
      `process.kill(process.pid, "${signal}");`,
      `process.kill(process.pid, "${signal}");`,
      `setTimeout(() => console.log("still running"), 2000);`,
    ].join("\n");
    const p = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { encoding: "utf8" });
    expect(p.stdout).not.toContain("still running");
    expect(p.signal).toBe(signal);
  });
});

describe("sayInterrupted", () => {
  it("names the signal that stopped the command, exits with its code, and starts the line clear of an echoed ^C only for SIGINT", () => {
    const notes: [string, boolean | undefined][] = [];
    let done = 0;
    const progress: Progress = { update: () => {}, step: () => {}, done: () => void done++, note: (line, typed) => void notes.push([line, typed]) };
    const stop = watchInterrupts();
    try {
      process.emit("SIGTERM");
      expect(sayInterrupted(stop, progress, "nothing written")).toBe(143);
    } finally {
      stop.dispose();
    }
    expect(done).toBe(1);
    expect(notes).toEqual([["simeval: interrupted (SIGTERM); nothing written", false]]);
  });
});
