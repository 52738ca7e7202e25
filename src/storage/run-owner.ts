/**
 * Whether the process that began a "running" run may still be recording it: the host and pid namespace this
 * process records as a run's owner ({@link THIS_HOST}), and the runs this process began and has not finished.
 */
import { readlinkSync } from "node:fs";
import { hostname } from "node:os";

/**
 * Runs begun by this process and not yet finished, over every store instance. A run whose recorded pid
 * is our own pid but which is not in here was begun by an earlier process that had the same pid (in a
 * container the CLI is often pid 1 every time), so it is dead.
 */
export const RUNS_OF_THIS_PROCESS = new Set<string>();

/**
 * Where this process's pids mean something, as `runs.host` records it: the host name and, on Linux, the
 * pid namespace (`build-7 pid:[4026531836]`). Containers may share a host name (Docker's `--network host`,
 * Kubernetes' `hostNetwork`) while each has pids of its own: a writer's pid is looked up only where it
 * was recorded, since in another namespace it names no process, and a live run would be taken as dead.
 */
export const THIS_HOST = hostIdentity();

function hostIdentity(): string {
  try {
    return `${hostname()} ${readlinkSync("/proc/self/ns/pid")}`;
  } catch {
    return hostname(); // not Linux, or no /proc
  }
}

/**
 * Whether the process that began a run may still be running. Only a process on this host, in this pid
 * namespace ({@link THIS_HOST}), can be checked; a pid reused by an unrelated process makes a dead run
 * look alive (the safe direction: it stays "running"). A host name alone was recorded before the pid
 * namespace was, and is still taken as this host.
 */
export function writerMayBeAlive(r: { id: string; pid: number | null; host: string | null }): boolean {
  if (r.pid === null || (r.host !== THIS_HOST && r.host !== hostname())) return true;
  if (r.pid === process.pid) return RUNS_OF_THIS_PROCESS.has(r.id);
  try {
    process.kill(r.pid, 0); // signal 0: checks existence and permission, sends nothing
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM"; // exists, owned by another user
  }
}
