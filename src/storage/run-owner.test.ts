import { afterEach, describe, expect, it, vi } from "vitest";
import { THIS_HOST, writerMayBeAlive } from "./run-owner.js";

describe("writerMayBeAlive", () => {
  afterEach(() => vi.restoreAllMocks());
  const processStart = Date.now() - process.uptime() * 1000;
  const owned = (pid: number, startedAt: number) => ({ id: "r", pid, host: THIS_HOST, started_at: new Date(startedAt).toISOString() });

  it("takes our own pid on a run begun since this process started as another thread's (alive), even one begun before this module loaded", () => {
    // A worker thread may begin a run before the thread that reads it first loads the store: its start is the process's.
    expect(writerMayBeAlive(owned(process.pid, processStart + 20))).toBe(true);
    // Begun before this process started: an earlier process that had our pid (in a container, pid 1 every time), dead.
    expect(writerMayBeAlive(owned(process.pid, processStart - 1000))).toBe(false);
  });

  it("takes a pid that exists but is another user's (EPERM) as alive, and one that does not (ESRCH) as dead", () => {
    const kill = vi.spyOn(process, "kill");
    kill.mockImplementation(() => {
      throw Object.assign(new Error("kill EPERM"), { code: "EPERM" });
    });
    expect(writerMayBeAlive(owned(424242, Date.now()))).toBe(true);
    kill.mockImplementation(() => {
      throw Object.assign(new Error("kill ESRCH"), { code: "ESRCH" });
    });
    expect(writerMayBeAlive(owned(424242, Date.now()))).toBe(false);
    expect(kill).toHaveBeenCalledWith(424242, 0);
  });
});
