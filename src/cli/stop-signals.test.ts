import { afterEach, describe, expect, it } from "vitest";
import { STOPPED_EXIT, watchStopSignals, type StopSignals } from "./stop-signals.js";

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

  it("once every row is scored, says that the files are finished", () => {
    const said: string[] = [];
    watching = watchStopSignals((m) => said.push(m));
    watching.scored();
    process.emit("SIGTERM");
    expect(said).toEqual([expect.stringContaining("interrupted (SIGTERM) once every row was scored; finishing the run's files")]);
  });

  it("listens once per signal, the first signal sticks, and dispose gives both back to Node", () => {
    const before = { SIGINT: process.listenerCount("SIGINT"), SIGTERM: process.listenerCount("SIGTERM") };
    watching = watchStopSignals(() => {});
    expect(process.listenerCount("SIGINT")).toBe(before.SIGINT + 1);
    process.emit("SIGTERM");
    // A second SIGTERM stops the process at once: the listener left for it only removes unfinished files first.
    expect(process.listenerCount("SIGTERM")).toBe(before.SIGTERM + 1);
    process.emit("SIGINT");
    expect(watching.stoppedBy).toBe("SIGTERM");
    watching.dispose();
    expect(process.listenerCount("SIGINT")).toBe(before.SIGINT);
    expect(process.listenerCount("SIGTERM")).toBe(before.SIGTERM);
  });
});
