/**
 * The two causes of cancellation, as one `AbortSignal`: the caller's signal and the client's
 * close. The client keeps its open links in a set rather than listening on one long-lived
 * signal: a client with many seats would otherwise pile listeners on it (and Node warns past 10).
 */

/** A signal that follows a caller's signal and a close, and the way to stop following them. */
export interface LinkedSignal {
  /** Aborts, with the same reason, as soon as the caller's signal aborts or the close comes. */
  readonly signal: AbortSignal;
  /** Stops following (the caller's signal and the closer may outlive this link). */
  dispose(): void;
}

/** Something that is closed once for good, cancelling everything linked to it. */
export class Closer {
  #closed = false;
  #reason: unknown;
  readonly #links = new Set<AbortController>();

  /** Whether {@link Closer.close} was called. */
  get closed(): boolean {
    return this.#closed;
  }

  /** Closes for good: every signal linked aborts with `reason`, and every later one at once. */
  close(reason: unknown): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#reason = reason;
    const links = [...this.#links];
    this.#links.clear();
    for (const ctrl of links) ctrl.abort(reason);
  }

  /**
   * A signal that aborts when `signal` does (with its reason) or when this closes (with the
   * close's reason); already aborted when either happened. Call `dispose` once done with it.
   */
  link(signal?: AbortSignal): LinkedSignal {
    const ctrl = new AbortController();
    if (this.#closed || signal?.aborted) {
      ctrl.abort(this.#closed ? this.#reason : signal?.reason);
      return { signal: ctrl.signal, dispose: () => {} };
    }
    const onAbort = () => {
      dispose();
      ctrl.abort(signal?.reason);
    };
    const dispose = () => {
      this.#links.delete(ctrl);
      signal?.removeEventListener("abort", onAbort);
    };
    this.#links.add(ctrl);
    signal?.addEventListener("abort", onAbort, { once: true });
    return { signal: ctrl.signal, dispose };
  }
}
