/**
 * {@link Seat}: a joined seat's calls. Its ordered, self-resuming stream; its observation; the
 * idempotent `act`, retried through outages; and `play`, the whole match with a bot.
 */
import { create } from "@bufbuild/protobuf";
import {
  ActRequestSchema,
  type ActRequest,
  type ActResponse,
  type GetObservationResponse,
  type Update,
} from "./gen/calabresella/v1/table_service_pb.js";
import type { CallOpts, Connection } from "./connection.js";
import {
  play,
  type Bot,
  type PlayingSeat,
  type PlayOptions,
  type PlaySummary,
} from "./play.js";
import { withRetry, type RetryOptions } from "./retry.js";
import { SequenceTracker, type ResumePoint } from "./sequence.js";
import { followUpdates, type FollowOptions } from "./stream.js";
import { describe, toAction, toDecision, type ActionInput } from "./turns.js";

/**
 * The key Node's `util.inspect` (so `console.log`) looks a custom view up by. `Symbol.for`
 * gives the same symbol as `util.inspect.custom` without importing a Node module here.
 */
export const inspectCustom: unique symbol = Symbol.for(
  "nodejs.util.inspect.custom",
);

/**
 * A seat joined at a table: its number and secret token, and its stream's position. The token
 * is kept in a private field, so that logging the seat (or a bot's context, which holds it)
 * with `console.log`, `util.inspect` or `JSON.stringify` shows the table and seat but never
 * the token.
 */
export class Seat implements PlayingSeat {
  /** The seat's stream position: the continuity check and the resume point. */
  readonly position: SequenceTracker;
  readonly #token: string;

  /**
   * A handle from what {@link Client.join} returned (or was kept from it). Throws `TypeError`
   * for a table id or token that is not a string, or a seat that is not a non-negative integer.
   */
  constructor(
    /** The connection the calls go through (a `Client`). */
    readonly client: Connection,
    /** The table's id. */
    readonly tableId: string,
    /** The seat number, 0-based in play order. */
    readonly seat: number,
    token: string,
    from?: ResumePoint,
  ) {
    // Checked here, as a wrong type would only fail when encoded, inside the calls.
    if (typeof tableId !== "string") {
      throw new TypeError(`a table id is a string, not ${describe(tableId)}`);
    }
    if (!Number.isSafeInteger(seat) || seat < 0) {
      throw new TypeError(
        `a seat is a non-negative integer, not ${describe(seat)}`,
      );
    }
    if (typeof token !== "string") {
      throw new TypeError(`a seat token is a string, not ${describe(token)}`);
    }
    this.#token = token;
    this.position = new SequenceTracker(from, `table ${tableId} seat ${seat}`);
  }

  /** The secret seat token: the only proof of the seat. Keep it to resume after a restart. */
  get token(): string {
    return this.#token;
  }

  /** What `JSON.stringify` shows: the table and the seat, not the token. */
  toJSON(): { tableId: string; seat: number } {
    return { tableId: this.tableId, seat: this.seat };
  }

  /** What `console.log` and `util.inspect` show on Node: the table and the seat, not the token. */
  [inspectCustom](): string {
    return `Seat { tableId: ${JSON.stringify(this.tableId)}, seat: ${this.seat} }`;
  }

  /**
   * The seat's updates in order, to `MatchEnded` (the last one yielded). Every number is
   * checked (`StreamOrderError` when one skips or repeats); a dropped stream or a restarted
   * server is resumed by itself with `resume_after` and `stream_epoch`, within the outage
   * window (`ConnectionLostError` after it). Breaking out of the loop ends the stream; calling
   * again resumes right after the last update seen. `ClientClosedError` once the client is
   * closed.
   */
  async *updates(
    opts: FollowOptions = {},
  ): AsyncGenerator<Update, void, undefined> {
    const link = this.client.link(opts.signal);
    try {
      yield* followUpdates(
        (from, signal) =>
          this.client.rpc.observe(
            { tableId: this.tableId, seatToken: this.#token, ...from },
            { signal },
          ),
        this.position,
        { ...opts, signal: link.signal },
      );
    } finally {
      link.dispose();
    }
  }

  /** The seat's full observation now, with the number of the decision due. */
  observation(opts?: CallOpts): Promise<GetObservationResponse> {
    return this.client.call(
      (o) =>
        this.client.rpc.getObservation(
          { tableId: this.tableId, seatToken: this.#token },
          o,
        ),
      opts,
    );
  }

  /**
   * Answers `decision` with `action`, once, with no retry. Rejects with `TypeError`, before
   * any call, when the decision or the action is not one (see {@link Seat.act}).
   */
  async actOnce(
    decision: bigint | number,
    action: ActionInput,
    opts?: CallOpts,
  ): Promise<ActResponse> {
    const req = this.actRequest(decision, action);
    return this.client.call((o) => this.client.rpc.act(req, o), opts);
  }

  /**
   * Answers `decision` (a `Turn.decision`: a `bigint`, or a non-negative safe integer) with
   * `action` (an `Action`, its notation such as `"play 4c"`, or `{ notation }`). The call is
   * idempotent, so it is sent again unchanged on transient failures (UNAVAILABLE, a broken
   * connection, RESOURCE_EXHAUSTED with reason RATE_LIMITED): backoff 50 ms doubling to 1 s,
   * giving up with `ConnectionLostError` after an outage of 30 s. A repeated answer returns OK
   * with `duplicate` set. Refusals throw `CalabresellaError`; a decision or an action that is
   * not one rejects at once with `TypeError` (nothing is sent, nothing retried).
   */
  async act(
    decision: bigint | number,
    action: ActionInput,
    opts: RetryOptions = {},
  ): Promise<ActResponse> {
    const req = this.actRequest(decision, action);
    // The client's close wakes the backoff too, not only the call in flight.
    const link = this.client.link(opts.signal);
    try {
      return await withRetry(
        (timeoutMs) =>
          this.client.call((o) => this.client.rpc.act(req, o), {
            signal: link.signal,
            timeoutMs,
          }),
        {
          what: "the answer could not be delivered",
          ...opts,
          signal: link.signal,
        },
      );
    } finally {
      link.dispose();
    }
  }

  /**
   * Plays the match to its end with `bot` (the one play loop, see {@link play}) and returns
   * the summary: how it ended, decisions made, faults, reconnects.
   */
  play(bot: Bot, opts?: PlayOptions): Promise<PlaySummary> {
    return play(this, bot, opts);
  }

  /** The `ActRequest` of an answer, checked: a program's mistake must not reach the retries. */
  private actRequest(decision: unknown, action: unknown): ActRequest {
    const d = toDecision(decision);
    const a = toAction(action);
    if (a === undefined) {
      throw new TypeError(
        `an action is an Action message, a notation string such as "play 4c", or { notation }, not ${describe(action)}`,
      );
    }
    return create(ActRequestSchema, {
      tableId: this.tableId,
      seatToken: this.#token,
      decision: d,
      action: a,
    });
  }
}
