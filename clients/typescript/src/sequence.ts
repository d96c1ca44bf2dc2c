/**
 * Sequence continuity of a stream: each update must carry the number after the last one,
 * except a `Snapshot`, which replaces everything held and whose number becomes the last. The
 * position (last number and its `stream_epoch`) is what a resumed stream quotes.
 */
import type { Update } from "./gen/calabresella/v1/table_service_pb.js";
import { StreamOrderError } from "./errors.js";

/** Where a stream stands: what to quote in `resume_after` and `stream_epoch`. */
export interface ResumePoint {
  /** The last sequence number received; undefined before the first update. */
  resumeAfter?: bigint;
  /** The `stream_epoch` of that update ("" before the first). */
  streamEpoch: string;
}

/** Checks a stream's sequence numbers and remembers its position across reconnects. */
export class SequenceTracker {
  /** The last sequence number accepted (0n: none yet). */
  lastSeq: bigint;
  /** The epoch of `lastSeq` ("" before the first update). */
  epoch: string;

  /**
   * Starts fresh, or at a position kept from before (after a program restart, say).
   * @param what names the stream in error messages.
   */
  constructor(
    start: ResumePoint = { streamEpoch: "" },
    readonly what: string = "stream",
  ) {
    this.lastSeq = start.resumeAfter ?? 0n;
    this.epoch = start.streamEpoch;
  }

  /**
   * Checks `update`'s number against the last one and records it; throws
   * {@link StreamOrderError} (recording nothing) when it skips or repeats a number.
   */
  accept(update: Update): void {
    const snapshot = update.kind.case === "snapshot";
    if (!snapshot && this.lastSeq > 0n && update.seq !== this.lastSeq + 1n) {
      throw new StreamOrderError(this.what, this.lastSeq, update.seq);
    }
    this.lastSeq = update.seq;
    this.epoch = update.streamEpoch;
  }

  /** The resume point to open the stream with: none before the first update. */
  resumePoint(): ResumePoint {
    return this.lastSeq > 0n
      ? { resumeAfter: this.lastSeq, streamEpoch: this.epoch }
      : { streamEpoch: this.epoch };
  }
}
