/**
 * Following a stream (a seat's or the public one) in order to its end: every update is checked
 * for continuity, and a dropped stream (a broken connection, a server restart, a slow consumer
 * cut off) is reopened with the last position, within the outage window.
 */
import { create } from "@bufbuild/protobuf";
import {
  UpdateSchema,
  type Update,
} from "./gen/calabresella/v1/table_service_pb.js";
import {
  ConnectionLostError,
  callFailure,
  toCalabresellaError,
  transient,
} from "./errors.js";
import { backoffDelay, Outage, sleep } from "./retry.js";
import type { ResumePoint, SequenceTracker } from "./sequence.js";

/** Opens the stream once, from `from`; the responses each carry one update. */
export type OpenStream = (
  from: ResumePoint,
  signal: AbortSignal,
) => AsyncIterable<{ update?: Update }>;

/** Options of a followed stream. */
export interface FollowOptions {
  /** Stops the stream; the iteration then rejects with the signal's reason. */
  signal?: AbortSignal;
  /**
   * The outage window for reopening (a fresh 30 s window by default). The play loop passes
   * the one it shares with its calls.
   */
  outage?: Outage;
  /** Called once each time the stream is open again after a drop, before its first update. */
  onReconnect?: () => void;
}

/**
 * The updates of a stream in order, from the tracker's position to `MatchEnded` (the last
 * update yielded). Breaking out of the loop cancels the stream; the tracker keeps the position,
 * so following again resumes right after the last update seen.
 */
export async function* followUpdates(
  open: OpenStream,
  tracker: SequenceTracker,
  options: FollowOptions = {},
): AsyncGenerator<Update, void, undefined> {
  const { signal } = options;
  const outage = options.outage ?? new Outage();
  const stop = new AbortController();
  const onAbort = () => stop.abort(signal?.reason);
  signal?.addEventListener("abort", onAbort, { once: true });
  let dropped = false;
  let n = 0;
  let last: unknown;
  try {
    for (;;) {
      signal?.throwIfAborted();
      try {
        for await (const r of open(tracker.resumePoint(), stop.signal)) {
          const update = r.update ?? create(UpdateSchema);
          tracker.accept(update);
          outage.clear();
          n = 0;
          if (dropped) {
            dropped = false;
            options.onReconnect?.();
          }
          yield update;
          if (update.kind.case === "matchEnded") return;
        }
        // Closed without MatchEnded (the server went away cleanly): resume like a drop.
      } catch (err) {
        if (signal?.aborted) throw signal.reason;
        // A broken order, the consumer's callback failing, a program's error: not the
        // connection's, so never resumed.
        if (!callFailure(err)) throw err;
        const e = toCalabresellaError(err);
        if (!transient(e)) throw e;
        last = e;
      }
      dropped = true;
      outage.fail();
      const left = outage.left();
      if (left <= 0) {
        throw new ConnectionLostError(
          `${tracker.what}: the stream could not be reopened for ${outage.windowMs / 1000} s`,
          { cause: last },
        );
      }
      await sleep(Math.min(backoffDelay(n), left), signal);
      n++;
    }
  } finally {
    signal?.removeEventListener("abort", onAbort);
    // Ends the call when the consumer stops early.
    stop.abort();
  }
}
