/**
 * The play loop: follow the seat's stream in order (resuming after drops), answer each
 * decision due to the seat once through a bot, and report how the match went. It mirrors the
 * Rust client's loop: one outage window shared by the stream and the calls; a refused answer
 * (INVALID_ARGUMENT, or FAILED_PRECONDITION with ILLEGAL_ACTION) asks the bot again, and after
 * {@link MAX_REFUSALS} refusals the first legal action is played and counted as a fault; any
 * other refusal (NOT_YOUR_TURN, MATCH_OVER, ABORTED STALE_DECISION...) means the stream will
 * say what happened instead.
 */
import { Code } from "@connectrpc/connect";
import type { Action } from "./gen/calabresella/v1/cards_pb.js";
import type { Observation } from "./gen/calabresella/v1/game_pb.js";
import type {
  ActResponse,
  GetObservationResponse,
  MatchEnded,
  Turn,
  Update,
} from "./gen/calabresella/v1/table_service_pb.js";
import type { CallOpts, Connection } from "./connection.js";
import { CalabresellaError, ConnectionLostError, refusal } from "./errors.js";
import {
  MAX_REFUSALS,
  Outage,
  RECONNECT_FOR_MS,
  withRetry,
  type RetryOptions,
} from "./retry.js";
import type { SequenceTracker } from "./sequence.js";
import type { FollowOptions } from "./stream.js";
import { dueTurn, toAction, type ActionInput } from "./turns.js";

/**
 * What play needs of a seat, and what a bot's context shows of it: `Seat` is the one
 * implementation (declared here, so that this module does not import the seat's back).
 */
export interface PlayingSeat {
  /** The connection the calls go through. */
  readonly client: Connection;
  /** The table's id. */
  readonly tableId: string;
  /** The seat number, 0-based in play order. */
  readonly seat: number;
  /** The seat's stream position: the continuity check and the resume point. */
  readonly position: SequenceTracker;
  /** The seat's updates in order, resumed after drops, to `MatchEnded`. */
  updates(opts?: FollowOptions): AsyncGenerator<Update, void, undefined>;
  /** The seat's full observation now, with the number of the decision due. */
  observation(opts?: CallOpts): Promise<GetObservationResponse>;
  /** Answers `decision` with `action`, retried through transient failures. */
  act(
    decision: bigint | number,
    action: ActionInput,
    opts?: RetryOptions,
  ): Promise<ActResponse>;
}

/** What the bot is given besides the turn. */
export interface TurnContext {
  /** The seat playing. */
  seat: PlayingSeat;
  /** The update that made the turn due. */
  update: Update;
  /**
   * The seat's full observation for this decision, fetched with `GetObservation` on the first
   * call and kept for the decision's later calls (bots that only need the turn's legal
   * actions cost no extra call).
   */
  observation(): Promise<Observation>;
  /** The server's refusal of the previous answer to the same decision, if any. */
  refused?: CalabresellaError;
  /** Refused answers to this decision so far. */
  refusals: number;
  /** Aborts when play is cancelled (its `signal` aborts, or the client is closed). */
  signal: AbortSignal;
}

/**
 * A bot: the answer to a turn (its `legalActions` each carry a `notation`, like `"play 4c"`),
 * as an `Action`, a notation string, or a plain object with the notation (`{ notation: "pass"
 * }`). Throwing stops play with that error; returning anything else plays the turn's first
 * legal action and counts a fault.
 */
export type Bot = (
  turn: Turn,
  context: TurnContext,
) => ActionInput | Promise<ActionInput>;

/** Options of {@link play}. */
export interface PlayOptions {
  /** Cancels play: it then rejects with the signal's reason. */
  signal?: AbortSignal;
  /** The longest outage tolerated, in milliseconds (default 30 s). */
  reconnectForMs?: number;
  /**
   * Refused answers to one decision before its first legal action is played (default 3);
   * `null`: ask the bot again until the clock decides.
   */
  maxRefusals?: number | null;
  /** Sees every update, in order, before any turn it makes due is answered. */
  onUpdate?: (update: Update) => void;
}

/** How a played match went. */
export interface PlaySummary {
  /** How the match ended. */
  ended: MatchEnded;
  /** Decisions this seat answered (the clock's answers not counted). */
  decisions: number;
  /** Answers replaced by the first legal action (refused too often, or not an action). */
  faults: number;
  /** Streams reopened after a drop. */
  reconnects: number;
}

/** Thrown inside {@link TurnContext.observation} when the decision is no longer due. */
class DecisionGone extends Error {}

/** One match's play: the seat, the bot and the counters. */
class Play {
  decisions = 0;
  faults = 0;
  reconnects = 0;
  readonly outage: Outage;
  readonly maxRefusals: number | null;
  /** Aborts when play is cancelled or the client closed: everything play does follows it. */
  readonly signal: AbortSignal;

  constructor(
    readonly seat: PlayingSeat,
    readonly bot: Bot,
    readonly opts: PlayOptions,
    signal: AbortSignal,
  ) {
    this.outage = new Outage(opts.reconnectForMs ?? RECONNECT_FOR_MS);
    this.maxRefusals =
      opts.maxRefusals === undefined ? MAX_REFUSALS : opts.maxRefusals;
    this.signal = signal;
  }

  async run(): Promise<PlaySummary> {
    let answered: bigint | undefined;
    const updates = this.seat.updates({
      signal: this.signal,
      outage: this.outage,
      onReconnect: () => this.reconnects++,
    });
    for await (const update of updates) {
      this.opts.onUpdate?.(update);
      if (update.kind.case === "matchEnded") {
        return {
          ended: update.kind.value,
          decisions: this.decisions,
          faults: this.faults,
          reconnects: this.reconnects,
        };
      }
      const turn = dueTurn(update, this.seat.seat);
      if (turn === undefined || turn.decision === answered) continue;
      await this.answer(turn, update);
      answered = turn.decision;
      this.outage.clear();
    }
    // The stream only ends after MatchEnded; anything else is a broken promise.
    throw new ConnectionLostError("the stream ended before the match did");
  }

  /** The observation of `turn`'s decision, retried within the outage window. */
  async observe(turn: Turn): Promise<Observation> {
    const o = await withRetry(
      (timeoutMs) => this.seat.observation({ signal: this.signal, timeoutMs }),
      {
        signal: this.signal,
        outage: this.outage,
        what: "the observation could not be fetched",
      },
    );
    // The clock answered first: the stream will say so.
    if (o.decision !== turn.decision || o.observation === undefined) {
      throw new DecisionGone();
    }
    return o.observation;
  }

  /** Sends `action` for `turn` until the server answers for good; the refusal, if any. */
  async send(
    turn: Turn,
    action: Action,
  ): Promise<CalabresellaError | undefined> {
    try {
      await this.seat.act(turn.decision, action, {
        signal: this.signal,
        outage: this.outage,
      });
      return undefined;
    } catch (e) {
      if (e instanceof CalabresellaError) return e;
      throw e;
    }
  }

  /** Answers `turn` until it is settled: accepted, refused for good, or taken by the clock. */
  async answer(turn: Turn, update: Update): Promise<void> {
    let refused: CalabresellaError | undefined;
    let refusals = 0;
    let observation: Promise<Observation> | undefined;
    const first = turn.legalActions[0];
    for (;;) {
      const gaveUp = this.maxRefusals !== null && refusals >= this.maxRefusals;
      let action: Action | undefined;
      if (gaveUp) {
        this.faults++;
        action = first;
      } else {
        let answer: unknown;
        try {
          answer = await this.bot(turn, {
            seat: this.seat,
            update,
            observation: () => (observation ??= this.observe(turn)),
            refused,
            refusals,
            signal: this.signal,
          });
        } catch (e) {
          if (e instanceof DecisionGone) return;
          throw e;
        }
        this.signal.throwIfAborted();
        action = toAction(answer);
        if (action === undefined) {
          this.faults++;
          action = first;
        }
      }
      if (action === undefined) return;
      const e = await this.send(turn, action);
      if (e === undefined) {
        this.decisions++;
        return;
      }
      if (refusal(e)) {
        // Even the first legal action was refused: the clock decides.
        if (gaveUp) return;
        refusals++;
        refused = e;
        continue;
      }
      // The clock ran out first (ABORTED), or the match moved on (the match is over, the
      // turn passed): the stream says what happened instead.
      if (e.code === Code.Aborted || e.code === Code.FailedPrecondition) return;
      throw e;
    }
  }
}

/**
 * Plays `seat` to the end of its match with `bot` and returns the summary. Rejects with a
 * `CalabresellaError` when the server refuses a call for good (a bad token, say), a
 * `StreamOrderError` when the stream breaks its ordering promise, a `ConnectionLostError`
 * after an outage longer than the window, the bot's own error, the signal's reason when
 * cancelled, or `ClientClosedError` when the client is closed (play never reconnects then).
 */
export async function play(
  seat: PlayingSeat,
  bot: Bot,
  opts: PlayOptions = {},
): Promise<PlaySummary> {
  const link = seat.client.link(opts.signal);
  try {
    return await new Play(seat, bot, opts, link.signal).run();
  } finally {
    link.dispose();
  }
}
