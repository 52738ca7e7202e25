/**
 * Whether the process that began a "running" run may still be recording it: the host and pid namespace this
 * process records as a run's owner ({@link THIS_HOST}), and the runs this process began and has not finished.
 */
import { readlinkSync } from "node:fs";
import { hostname } from "node:os";

/**
 * Runs begun by this thread and not yet finished, over every store instance. A run whose recorded pid is our
 * own pid, not in here, and begun before this process started was begun by an earlier process that had the same
 * pid (in a container the CLI is often pid 1 every time), so it is dead; one begun since is another thread's
 * (each worker thread has a set of its own), alive.
 */
export const RUNS_OF_THIS_PROCESS = new Set<string>();

/** When this process started, in milliseconds since the epoch (`process.uptime()` is the process's in a worker thread too). */
const PROCESS_STARTED_AT = Date.now() - process.uptime() * 1000;

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
 * look alive (the safe direction: it stays "running"). See {@link isThisHost}.
 */
export function writerMayBeAlive(r: { id: string; pid: number | null; host: string | null; started_at: string }): boolean {
  if (r.pid === null || !isThisHost(r.host)) return true;
  // Another thread of this process (a service's worker) keeps its runs in a set of its own: begun since we started, alive.
  if (r.pid === process.pid) return RUNS_OF_THIS_PROCESS.has(r.id) || Date.parse(r.started_at) >= PROCESS_STARTED_AT;
  try {
    process.kill(r.pid, 0); // signal 0: checks existence and permission, sends nothing
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM"; // exists, owned by another user
  }
}

/**
 * Whether `host`, a run's recorded host ({@link THIS_HOST} of the process that began it), is this host and pid
 * namespace, where its pid can be looked up. A host name alone was recorded before the pid namespace was, and is
 * taken as this host.
 */
export function isThisHost(host: string | null): boolean {
  return host === THIS_HOST || host === hostname();
}
