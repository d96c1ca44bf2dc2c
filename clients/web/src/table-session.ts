/**
 * A table followed live: the stream (a seat's, resumed with the token kept in session
 * storage, or the public one), the seat's observation fetched again after changes, the deal of
 * each finished hand, answers to decisions, and the connection's state. The view subscribes
 * and is redrawn at most once per animation frame, however fast a table of bots plays.
 */
import {
  EventKind,
  Game,
  followUpdates,
  type Client,
  type SequenceTracker,
  type Update,
} from "@calabresella/client";
import { errorText, getReplay, isRefusal } from "./api.js";
import { forgetSeat, type StoredSeat } from "./session.js";
import {
  applyUpdate,
  initialModel,
  notations,
  type Revealed,
  type TableModel,
} from "./state.js";

/** The connection's state, as `[data-connection]` shows it. */
export type ConnectionStatus =
  "connecting" | "live" | "reconnecting" | "closed";

/** What the table view draws: the model and the session's own state. */
export interface SessionView {
  /** The table's model. */
  model: TableModel;
  /** The stream's connection. */
  connection: ConnectionStatus;
  /** An error to show (a refused answer, a lost connection, an unknown table). */
  error?: string;
  /** The table does not exist. */
  notFound: boolean;
  /** The seat's token was refused: the view fell back to watching. */
  tokenRefused: boolean;
  /** An answer is on its way. */
  sending: boolean;
}

/**
 * Calls `fn` once soon: on the next animation frame, or after 100 ms when frames do not come
 * (a hidden tab), so a burst of updates costs one redraw.
 */
export function coalesce(fn: () => void): () => void {
  let queued = false;
  return () => {
    if (queued) return;
    queued = true;
    let done = false;
    const run = () => {
      if (done) return;
      done = true;
      queued = false;
      fn();
    };
    if (typeof requestAnimationFrame === "function") requestAnimationFrame(run);
    setTimeout(run, 100);
  };
}

/** A live table: start it, subscribe to it, stop it. */
export class TableSession {
  #view: SessionView;
  readonly #listeners = new Set<(v: SessionView) => void>();
  readonly #stop = new AbortController();
  readonly #notify = coalesce(() => {
    for (const l of this.#listeners) l(this.#view);
  });
  #stored: StoredSeat | undefined;
  #obsBusy = false;
  #obsAgain = false;
  #tableBusy = false;
  #opens = 0;

  /**
   * A session on table `tableId`: as the seat `stored` when given (its token), else as a
   * spectator.
   */
  constructor(
    readonly client: Client,
    readonly tableId: string,
    stored: StoredSeat | undefined,
  ) {
    this.#stored = stored;
    this.#view = {
      model: initialModel(tableId, stored ? "seat" : "public", stored?.seat),
      connection: "connecting",
      notFound: false,
      tokenRefused: false,
      sending: false,
    };
  }

  /** The current view. */
  get view(): SessionView {
    return this.#view;
  }

  /** Calls `fn` with each new view (coalesced); returns the unsubscribe function. */
  subscribe(fn: (v: SessionView) => void): () => void {
    this.#listeners.add(fn);
    return () => this.#listeners.delete(fn);
  }

  /** Stops the stream and every call in flight. */
  stop(): void {
    this.#stop.abort();
  }

  #set(patch: Partial<SessionView>): void {
    this.#view = { ...this.#view, ...patch };
    this.#notify();
  }

  #setModel(fn: (m: TableModel) => TableModel): void {
    this.#set({ model: fn(this.#view.model) });
  }

  /** Follows the table until its match ends, the session stops, or the stream fails for good. */
  async run(): Promise<void> {
    const signal = this.#stop.signal;
    try {
      // The table's public state first: it names the seats, and a wrong id shows at once.
      await this.#refreshTable();
      if (this.#view.notFound) return;
      for (;;) {
        const stored = this.#stored;
        try {
          await this.#follow(stored);
          this.#set({ connection: "closed" });
          return;
        } catch (e) {
          if (signal.aborted) return;
          if (
            stored &&
            (isRefusal(e, "PERMISSION_DENIED") ||
              isRefusal(e, "UNAUTHENTICATED"))
          ) {
            // The token is no longer good (another server, a wiped store): watch instead.
            forgetSeat(this.tableId);
            this.#stored = undefined;
            this.#opens = 0;
            this.#set({
              tokenRefused: true,
              model: initialModel(this.tableId, "public"),
            });
            continue;
          }
          if (isRefusal(e, "NOT_FOUND")) {
            this.#set({ notFound: true, connection: "closed" });
            return;
          }
          this.#set({ connection: "closed", error: errorText(e) });
          return;
        }
      }
    } catch (e) {
      if (!signal.aborted) {
        this.#set({ connection: "closed", error: errorText(e) });
      }
    }
  }

  /** The stream, to its end, applied update by update. */
  async #follow(stored: StoredSeat | undefined): Promise<void> {
    const signal = this.#stop.signal;
    const rpc = this.client.rpc;
    const tableId = this.tableId;
    let position: SequenceTracker;
    let open: Parameters<typeof followUpdates>[0];
    if (stored) {
      const seat = this.client.seat(tableId, stored.seat, stored.token);
      position = seat.position;
      open = (from, s) => {
        this.#opened();
        return rpc.observe(
          { tableId, seatToken: stored.token, ...from },
          { signal: s },
        );
      };
    } else {
      const spectator = this.client.spectator(tableId);
      position = spectator.position;
      open = (from, s) => {
        this.#opened();
        return rpc.spectate({ tableId, ...from }, { signal: s });
      };
    }
    // followUpdates is what `seat.updates()` and `spectator.updates()` run: the same ordered,
    // self-resuming stream; called directly so that each (re)opening can be shown.
    for await (const u of followUpdates(open, position, { signal })) {
      this.#apply(u);
    }
  }

  /** A stream is being opened: the first time "connecting", later "reconnecting". */
  #opened(): void {
    this.#opens++;
    this.#set({ connection: this.#opens > 1 ? "reconnecting" : "connecting" });
  }

  #apply(u: Update): void {
    const seatMode = this.#view.model.mode === "seat";
    const model = applyUpdate(this.#view.model, u, Date.now());
    this.#set({ model, connection: "live" });
    const kind = u.kind.case;
    if (seatMode && kind !== "seatChanged" && kind !== "timedOut") {
      this.#fetchObservation();
    }
    if (
      kind === "handStarted" ||
      kind === "matchEnded" ||
      kind === "timedOut"
    ) {
      void this.#refreshTable();
    }
    if (kind === "snapshot" && !this.#view.model.revealed) {
      // A stream opened mid-match (or after it) misses the last hand's reveal: fetch it.
      const obs = model.obs;
      const finished = obs
        ? obs.outcome
          ? obs.handNumber
          : obs.handNumber - 1
        : (model.table?.handsCompleted ?? 0) - 1;
      if (finished >= 0) void this.#fetchDeal(finished);
    }
    if (
      seatMode &&
      kind === "event" &&
      u.kind.value.kind === EventKind.HAND_SCORED &&
      u.kind.value.result
    ) {
      void this.#fetchDeal(u.kind.value.result.handNumber);
    }
  }

  /**
   * Fetches the seat's observation; one call at a time, and one more after it when updates
   * came meanwhile. The result is "fresh" (its legal actions may be shown) only when no update
   * arrived after it was asked for.
   */
  #fetchObservation(): void {
    const stored = this.#stored;
    if (!stored) return;
    if (this.#obsBusy) {
      this.#obsAgain = true;
      return;
    }
    this.#obsBusy = true;
    const asked = this.#view.model.updates;
    const seat = this.client.seat(this.tableId, stored.seat, stored.token);
    seat
      .observation({ signal: this.#stop.signal })
      .then((r) => {
        if (this.#stored !== stored) return;
        this.#setModel((m) => ({
          ...m,
          obs: r.observation ?? m.obs,
          obsDecision: r.decision,
          obsFresh: m.updates === asked,
        }));
      })
      .catch((e: unknown) => {
        // NOT_STARTED before the first deal is expected; other failures show on the next
        // update, which asks again.
        if (
          !this.#stop.signal.aborted &&
          !isRefusal(e, "FAILED_PRECONDITION")
        ) {
          this.#set({ error: errorText(e) });
        }
      })
      .finally(() => {
        this.#obsBusy = false;
        if (this.#obsAgain && !this.#stop.signal.aborted) {
          this.#obsAgain = false;
          this.#fetchObservation();
        }
      });
  }

  /** Refreshes the table's public state (seats' banks, totals, state). */
  async #refreshTable(): Promise<void> {
    if (this.#tableBusy) return;
    this.#tableBusy = true;
    try {
      const table = await this.client.getTable(this.tableId, {
        signal: this.#stop.signal,
      });
      this.#setModel((m) => ({
        ...m,
        // The stream knows better when the match ended meanwhile.
        table: m.ended && m.table ? { ...table, state: m.table.state } : table,
      }));
    } catch (e) {
      if (isRefusal(e, "NOT_FOUND")) this.#set({ notFound: true });
      // Other failures: the stream's snapshot carries the table too.
    } finally {
      this.#tableBusy = false;
    }
  }

  /**
   * The deal of a hand this seat just finished, from the record (`GetReplay` shows finished
   * hands of a live table): the seat's stream does not carry `HandRevealed`, which is the
   * spectators'.
   */
  async #fetchDeal(handNumber: number): Promise<void> {
    const signal = this.#stop.signal;
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        const first = await getReplay(this.tableId, 0, signal);
        // A newer reveal may have come meanwhile (the public stream's own): keep it.
        if ((this.#view.model.revealed?.handNumber ?? -1) >= handNumber) return;
        const start = first.handStarts[handNumber];
        if (start === undefined) throw new Error("hand not in the record yet");
        const r =
          start === first.step
            ? first
            : await getReplay(this.tableId, start, signal);
        // The rest of the deck: the stock in Tressette in Due, else the monte.
        const due = r.observation?.options?.game === Game.TRESSETTE_IN_DUE;
        const revealed: Revealed = {
          handNumber,
          hands: r.deal.map((s) => ({
            seat: s.seat,
            cards: notations(s.cards),
          })),
          monte: due ? [] : notations(r.rest),
          stock: due ? notations(r.rest) : [],
        };
        this.#setModel((m) =>
          (m.revealed?.handNumber ?? -1) > handNumber ? m : { ...m, revealed },
        );
        return;
      } catch (e) {
        if (signal.aborted || isRefusal(e, "UNIMPLEMENTED")) return;
        await new Promise((res) => setTimeout(res, 300 * (attempt + 1)));
      }
    }
  }

  /**
   * Answers the decision due with `notation`. The actions shown disappear at once (the answer
   * is on its way); a refusal is shown and the observation fetched again.
   */
  async act(notation: string): Promise<void> {
    const stored = this.#stored;
    const m = this.#view.model;
    const decision = m.obsDecision;
    if (!stored || decision === undefined || this.#view.sending) return;
    const previous = m.answered;
    this.#set({
      sending: true,
      error: undefined,
      model: { ...m, answered: decision },
    });
    const seat = this.client.seat(this.tableId, stored.seat, stored.token);
    try {
      await seat.act(decision, notation, { signal: this.#stop.signal });
      this.#set({ sending: false });
    } catch (e) {
      if (this.#stop.signal.aborted) return;
      this.#set({ sending: false, error: errorText(e) });
      this.#setModel((x) => ({ ...x, answered: previous }));
      this.#fetchObservation();
    }
  }

  /** Reconnects after the stream gave up (the button under "closed"). */
  retry(): void {
    this.#opens = 0;
    this.#set({ error: undefined, connection: "connecting" });
    void this.run();
  }
}
