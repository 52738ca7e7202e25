import { rmSync } from "node:fs";
import type { Progress } from "./progress.js";

/** Exit code of a run stopped by a signal: the shell's convention, 128 + the signal's number. */
export const STOPPED_EXIT = { SIGINT: 130, SIGTERM: 143 } as const;
type StopSignal = keyof typeof STOPPED_EXIT;

/**
 * What `simeval run` does with Ctrl-C and SIGTERM; see {@link watchStopSignals}. Its `signal`'s reason
 * is the signal's name: the run's stop reason is then `interrupted (SIGINT)`.
 */
export interface StopSignals extends Interrupts {
  /** Every row is read: a signal from now on lets the rows in flight be scored and the run be recorded complete. */
  read(): void;
  /** Every row is scored: a signal from now on lets the run's files be finished. */
  scored(): void;
}

/**
 * Ctrl-C, or SIGTERM (`timeout`, `docker stop`, Kubernetes), while rows are read: the rows in flight are
 * finished and the run is recorded as incomplete; once every row is read, they are finished and the run is
 * recorded complete all the same; once every row is scored, the run's files are finished. `recorded` false (`--no-db`):
 * the messages say nothing of recording.
 * Each is told on `say`, with the signal (after Ctrl-C, the terminal has echoed `^C` where its cursor was: `say`
 * starts the message on a line of its own, erasing the progress line if one is shown). Once per signal: the same signal again takes Node's default action and stops the
 * process at once (the run then shows as incomplete, its writer being gone), for rows that wait on a slow provider.
 */
export function watchStopSignals(say: (message: string, signal: StopSignal) => void, recorded = true): StopSignals {
  let stage: "reading" | "read" | "scored" = "reading";
  const interrupts = watchInterrupts((name) => {
    const again = name === "SIGINT" ? "Ctrl-C again" : "SIGTERM again";
    const doing = {
      reading: recorded ? `; finishing the rows in flight and recording the run as incomplete…` : `; finishing the rows in flight (the figures will cover the rows read so far)…`,
      read: recorded ? ` once every row was read; finishing the rows in flight and recording the run as complete…` : ` once every row was read; finishing the rows in flight…`,
      scored: ` once every row was scored; finishing the run's files…`,
    }[stage];
    say(`simeval: interrupted (${name})${doing} (${again} to stop at once)`, name);
  });
  return {
    signal: interrupts.signal,
    get stoppedBy() {
      return interrupts.stoppedBy;
    },
    read: () => void (stage = stage === "reading" ? "read" : stage),
    scored: () => void (stage = "scored"),
    dispose: interrupts.dispose,
  };
}

let stopAsked = false;

/**
 * Whether a Ctrl-C or SIGTERM has asked this process to stop: the same signal again then stops it at once,
 * with no time to erase a progress line (see terminalProgress).
 */
export function stopRequested(): boolean {
  return stopAsked;
}

/** Ctrl-C and SIGTERM for a command that stops between steps; see {@link watchInterrupts}. */
export interface Interrupts {
  /** Aborted by the first Ctrl-C or SIGTERM, with the signal's name as its reason. */
  signal: AbortSignal;
  /** The signal that stopped the command, if one did. */
  readonly stoppedBy: StopSignal | undefined;
  /** Gives the signals back to Node; idempotent. */
  dispose(): void;
}

/**
 * Ctrl-C or SIGTERM while a command works through steps it can stop between (`delete`, run after run, chunk
 * after chunk): the first aborts `signal`, and the command stops at the next step and says what was done
 * (exit {@link STOPPED_EXIT}). The same signal again stops the process at once, by Node's default action,
 * once the files that would be left unfinished are removed ({@link removedIfStoppedAtOnce}).
 * `onSignal` hears the first of each signal, before `signal` is aborted.
 */
export function watchInterrupts(onSignal?: (name: StopSignal) => void): Interrupts {
  const controller = new AbortController();
  let stoppedBy: StopSignal | undefined;
  // One listener per signal, kept after the first: removed and added again in between, Node closed the signal's
  // handle and opened another, and a second signal that came before the first was heard (the main thread busy
  // writing a file) was addressed to the closed one, and lost: the process did not stop.
  const listeners = (Object.keys(STOPPED_EXIT) as StopSignal[]).map((name) => {
    let heard = false;
    const listener = () => {
      if (heard) {
        // With no listener left, raised again: the default action, as the exit status tells a shell (killed by the signal).
        process.removeListener(name, listener);
        removeUnfinished();
        process.kill(process.pid, name);
        return;
      }
      heard = true;
      stopAsked = true;
      stoppedBy ??= name;
      onSignal?.(name);
      controller.abort(name);
    };
    process.on(name, listener);
    return [name, listener] as const;
  });
  return {
    signal: controller.signal,
    get stoppedBy() {
      return stoppedBy;
    },
    dispose: () => {
      for (const [name, listener] of listeners) process.removeListener(name, listener);
    },
  };
}

/** Files and folders being written that are of no use unfinished: see {@link removedIfStoppedAtOnce}. */
const unfinished = new Set<string>();

/**
 * Registers `path`, a file (or folder) being written that is of no use unless finished, such as the temporary
 * file that writeWhole renames into place once it is whole: a second Ctrl-C or SIGTERM, which stops the process
 * at once ({@link watchInterrupts}), removes it first, where a process killed outright (SIGKILL) leaves it.
 * Returns the function that unregisters it, to call once it is finished or removed.
 */
export function removedIfStoppedAtOnce(path: string): () => void {
  unfinished.add(path);
  return () => void unfinished.delete(path);
}

function removeUnfinished(): void {
  for (const path of unfinished) {
    try {
      rmSync(path, { recursive: true, force: true });
    } catch {
      // Left behind: the process stops all the same.
    }
  }
  unfinished.clear();
}

/**
 * Says that a command stopped by `stop` did not get to `notDone`, and gives its exit code ({@link STOPPED_EXIT}):
 * the progress line is erased first, and the line does not start where Ctrl-C echoed its `^C`.
 */
export function sayInterrupted(stop: Interrupts, progress: Progress, notDone: string): number {
  const signal = stop.stoppedBy ?? "SIGINT";
  progress.done();
  progress.note(`simeval: interrupted (${signal}); ${notDone}`, signal === "SIGINT");
  return STOPPED_EXIT[signal];
}
