/**
 * Retry timing for HTTP providers: exponential backoff with full jitter, and the server's own
 * `Retry-After`. Pure functions plus an abortable sleep; runtime-agnostic.
 */

export interface BackoffOptions {
  /** Ceiling of the first retry's delay, ms (default 500). */
  baseMs: number;
  /** Largest ceiling, ms (default 8000). */
  maxMs: number;
  /** Uniform random in [0, 1) (default Math.random); injectable for tests. */
  random: () => number;
}

export const DEFAULT_BACKOFF: BackoffOptions = { baseMs: 500, maxMs: 8000, random: Math.random };

/**
 * "Full jitter" backoff (AWS Architecture Blog, "Exponential Backoff And Jitter", 2015): a delay drawn
 * uniformly from [0, min(maxMs, baseMs · 2^retry)), where `retry` counts from 0. Spreading clients
 * over the whole interval avoids the synchronised retry waves that plain exponential backoff causes.
 */
export function backoffDelay(retry: number, opts: BackoffOptions = DEFAULT_BACKOFF): number {
  const ceiling = Math.min(opts.maxMs, opts.baseMs * 2 ** retry);
  return Math.floor(opts.random() * ceiling);
}

/**
 * The wait a response asks for, in ms, or undefined when it asks for none it can be held to:
 * `retry-after-ms` (OpenAI's, milliseconds) first, then `Retry-After` as delay-seconds (fractions
 * accepted) or as an HTTP date (RFC 9110 §10.2.3) relative to `now`. A date in the past gives 0.
 */
export function retryAfterMs(headers: Headers, now: number = Date.now()): number | undefined {
  const ms = headers.get("retry-after-ms");
  if (ms !== null && /^\s*\d+(\.\d+)?\s*$/.test(ms)) return Math.ceil(Number(ms));
  const value = headers.get("retry-after");
  if (value === null) return undefined;
  if (/^\s*\d+(\.\d+)?\s*$/.test(value)) return Math.ceil(Number(value) * 1000);
  // Every HTTP date format begins with a day name; checking that keeps Date.parse's leniency ("-1" is a year) out.
  if (!/^\s*[A-Za-z]{3}/.test(value)) return undefined;
  const date = Date.parse(value);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/** Resolves after `ms`, or rejects with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/**
 * A signal that aborts when any of `signals` does, with that signal's reason: `AbortSignal.any`, which
 * Node has from 20.3 only (simeval supports Node >= 20), with a listener-based fallback.
 */
export function anySignal(signals: readonly AbortSignal[]): AbortSignal {
  const native = (AbortSignal as { any?: (s: AbortSignal[]) => AbortSignal }).any;
  if (native) return native.call(AbortSignal, [...signals]);
  const ac = new AbortController();
  for (const s of signals) {
    if (s.aborted) {
      ac.abort(s.reason);
      break;
    }
    s.addEventListener("abort", () => ac.abort(s.reason), { once: true, signal: ac.signal });
  }
  return ac.signal;
}
