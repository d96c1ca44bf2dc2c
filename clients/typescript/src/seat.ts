/**
 * {@link Seat}: a joined seat's calls. Its ordered, self-resuming stream; its observation; the
 * idempotent `act`, retried through outages; and `play`, the whole match with a bot.
 */
import type {
  ActResponse,
  GetObservationResponse,
  Update,
} from "./gen/calabresella/v1/table_service_pb.js";
import type { CallOpts, Client } from "./client.js";
import { callOnce } from "./client.js";
import { play, type Bot, type PlayOptions, type PlaySummary } from "./play.js";
import { withRetry, type RetryOptions } from "./retry.js";
import { SequenceTracker, type ResumePoint } from "./sequence.js";
import { followUpdates, type FollowOptions } from "./stream.js";
import { toAction, type ActionInput } from "./turns.js";

/** A seat joined at a table: its number and secret token, and its stream's position. */
export class Seat {
  /** The seat's stream position: the continuity check and the resume point. */
  readonly position: SequenceTracker;

  /** A handle from what {@link Client.join} returned (or was kept from it). */
  constructor(
    /** The client the calls go through. */
    readonly client: Client,
    /** The table's id. */
    readonly tableId: string,
    /** The seat number, 0-based in play order. */
    readonly seat: number,
    /** The secret seat token: the only proof of the seat. */
    readonly token: string,
    from?: ResumePoint,
  ) {
    this.position = new SequenceTracker(from, `table ${tableId} seat ${seat}`);
  }

  /**
   * The seat's updates in order, to `MatchEnded` (the last one yielded). Every number is
   * checked (`StreamOrderError` when one skips or repeats); a dropped stream or a restarted
   * server is resumed by itself with `resume_after` and `stream_epoch`, within the outage
   * window (`ConnectionLostError` after it). Breaking out of the loop ends the stream; calling
   * again resumes right after the last update seen.
   */
  updates(opts?: FollowOptions): AsyncGenerator<Update, void, undefined> {
    return followUpdates(
      (from, signal) =>
        this.client.rpc.observe(
          { tableId: this.tableId, seatToken: this.token, ...from },
          { signal },
        ),
      this.position,
      opts,
    );
  }

  /** The seat's full observation now, with the number of the decision due. */
  observation(opts?: CallOpts): Promise<GetObservationResponse> {
    return callOnce(
      (o) =>
        this.client.rpc.getObservation(
          { tableId: this.tableId, seatToken: this.token },
          o,
        ),
      opts,
    );
  }

  /** Answers `decision` with `action`, once, with no retry. */
  actOnce(
    decision: bigint | number,
    action: ActionInput,
    opts?: CallOpts,
  ): Promise<ActResponse> {
    const a = toAction(action);
    if (a === undefined) {
      throw new TypeError(
        "an action is an Action message or a notation string",
      );
    }
    return callOnce(
      (o) =>
        this.client.rpc.act(
          {
            tableId: this.tableId,
            seatToken: this.token,
            decision: BigInt(decision),
            action: a,
          },
          o,
        ),
      opts,
    );
  }

  /**
   * Answers `decision` (a `Turn.decision`) with `action` (an `Action` or its notation, e.g.
   * `"play 4c"`). The call is idempotent, so it is sent again unchanged on transient failures
   * (UNAVAILABLE, a broken connection, RESOURCE_EXHAUSTED with reason RATE_LIMITED): backoff
   * 50 ms doubling to 1 s, giving up with `ConnectionLostError` after an outage of 30 s. A
   * repeated answer returns OK with `duplicate` set. Refusals throw `CalabresellaError`.
   */
  act(
    decision: bigint | number,
    action: ActionInput,
    opts: RetryOptions = {},
  ): Promise<ActResponse> {
    return withRetry(
      (timeoutMs) =>
        this.actOnce(decision, action, { signal: opts.signal, timeoutMs }),
      { what: "the answer could not be delivered", ...opts },
    );
  }

  /**
   * Plays the match to its end with `bot` (the one play loop, see {@link play}) and returns
   * the summary: how it ended, decisions made, faults, reconnects.
   */
  play(bot: Bot, opts?: PlayOptions): Promise<PlaySummary> {
    return play(this, bot, opts);
  }
}
