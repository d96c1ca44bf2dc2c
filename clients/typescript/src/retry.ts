/**
 * The retry policy every call and stream shares: backoff from 50 ms doubling to 1 s, within an
 * outage window (30 s by default) that starts at the first failure and closes when anything
 * succeeds again.
 */
import {
  CalabresellaError,
  ConnectionLostError,
  callFailure,
  retryable,
  toCalabresellaError,
} from "./errors.js";

/** How long an outage may last, from its first failure, before the client gives up (ms). */
export const RECONNECT_FOR_MS = 30_000;

/** How many refused answers to one decision before the play loop plays the first legal action. */
export const MAX_REFUSALS = 3;

/** The wait before the `n`th retry (0-based): 50 ms doubling up to 1 s. */
export function backoffDelay(n: number): number {
  return Math.min(50 * 2 ** Math.min(n, 5), 1000);
}

/**
 * One outage window, shared by everything that retries for one purpose (the play loop shares
 * one between its stream and its calls, so an outage is measured once, from its first failure).
 */
export class Outage {
  /** When the current outage began (ms on `now`'s clock); undefined while all is well. */
  private since: number | undefined;

  constructor(
    /** The longest outage tolerated, in milliseconds. */
    readonly windowMs: number = RECONNECT_FOR_MS,
    /** The clock, replaceable in tests. */
    private readonly now: () => number = () => Date.now(),
  ) {}

  /** Records a failure: starts the window if none is running, and returns its end. */
  fail(): number {
    this.since ??= this.now();
    return this.since + this.windowMs;
  }

  /** Milliseconds left in the running window (the whole window when none runs). */
  left(): number {
    if (this.since === undefined) return this.windowMs;
    return Math.max(0, this.since + this.windowMs - this.now());
  }

  /** Ends the outage: something succeeded. */
  clear(): void {
    this.since = undefined;
  }

  /** Whether an outage is running. */
  get running(): boolean {
    return this.since !== undefined;
  }
}

/** Resolves after `ms`, or rejects with the signal's reason when it aborts first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
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

/** Options of a retried call. */
export interface RetryOptions {
  /** Cancels the call and its retries; the promise then rejects with the signal's reason. */
  signal?: AbortSignal;
  /** The outage window to count in (a fresh {@link RECONNECT_FOR_MS} window by default). */
  outage?: Outage;
  /** Says what failed, in the {@link ConnectionLostError}'s message. */
  what?: string;
  /** Which failures to retry ({@link retryable} by default). */
  retryIf?: (e: CalabresellaError) => boolean;
}

/**
 * Runs `call` until it succeeds or fails for good, retrying failures `retryIf` allows with the
 * backoff, never waiting past the end of the outage window. Each attempt gets the time left in
 * the window as its timeout, so a call that hangs counts as a failure. Rejects with a
 * {@link CalabresellaError}, a {@link ConnectionLostError} when the window closes, or the
 * signal's reason when aborted; any other error `call` throws (a program's error, not a call's
 * failure: see {@link callFailure}) is passed on at once, unchanged and never retried.
 */
export async function withRetry<T>(
  call: (timeoutMs: number) => Promise<T>,
  options: RetryOptions = {},
): Promise<T> {
  const outage = options.outage ?? new Outage();
  const retryIf = options.retryIf ?? retryable;
  for (let n = 0; ; n++) {
    options.signal?.throwIfAborted();
    try {
      const r = await call(Math.max(1, outage.left()));
      outage.clear();
      return r;
    } catch (err) {
      if (options.signal?.aborted) throw options.signal.reason;
      // Only a call's failure may be the connection's; a program's error (a TypeError, a bad
      // option, the client closed) would fail the same way again: it goes out at once.
      if (!callFailure(err)) throw err;
      const e = toCalabresellaError(err);
      if (!retryIf(e)) throw e;
      outage.fail();
      const left = outage.left();
      if (left <= 0) {
        throw new ConnectionLostError(
          `${options.what ?? "the call failed"} for ${outage.windowMs / 1000} s: ${e.message}`,
          { cause: e },
        );
      }
      await sleep(Math.min(backoffDelay(n), left), options.signal);
    }
  }
}
