/**
 * The table's view model and the reducer that applies the server's `Update`s to it.
 *
 * Two sources feed it. A seat's own view comes whole from `GetObservation` (fetched again,
 * coalesced, after the updates that change it: see `table-session.ts`), because only the
 * server knows the cards a seat holds after a monte exchange and which actions are legal; so in
 * `seat` mode the reducer leaves the observation alone and keeps only the public parts (table,
 * turn, clock, match end). A spectator has no `GetObservation`: in `public` mode the reducer
 * builds the public observation itself from the stream's snapshot and then event by event.
 *
 * Everything here is pure (no DOM, no network), so the unit tests drive it with scripted
 * updates.
 */
import {
  Contract,
  EventKind,
  Game,
  Phase,
  TableState,
  type Card,
  type Event,
  type GameOptions,
  type HandResult,
  type MatchEnded,
  type Observation,
  type PlayedCard,
  type SeatCards,
  type Table,
  type Turn,
  type Update,
} from "@calabresella/client";
import { parseCard } from "./cards.js";
import { dealtCards, gameName, isCalling, type GameName } from "./games.js";

/** The decision due, as the stream announced it. */
export interface TurnInfo {
  /** The decision's number, to quote when answering. */
  decision: bigint;
  /** The seat whose decision it is. */
  actor: number;
  /** The seat that answers it. */
  decider: number;
  /** The legal actions' notations (only on the decider's own stream). */
  legal: string[];
  /** Milliseconds left when the update was received (0: no clock, a bot). */
  remainingMs: number;
  /** When it was received, by the browser's clock (`Date.now()`). */
  receivedAt: number;
}

/** A finished hand's full deal. */
export interface Revealed {
  /** 0-based hand number. */
  handNumber: number;
  /** Every seat's cards as dealt. */
  hands: { seat: number; cards: string[] }[];
  /** Calabresella: the monte as dealt. */
  monte: string[];
  /** Tressette in Due: the stock in draw order. */
  stock: string[];
}

/** A seat's clock ran out. */
export interface Timeout {
  /** The seat. */
  seat: number;
  /** The decision that timed out. */
  decision: bigint;
}

/** Everything the table view draws. */
export interface TableModel {
  /** The table's id. */
  tableId: string;
  /** `seat`: the viewer holds a seat (its view is fetched); `public`: a spectator. */
  mode: "seat" | "public";
  /** The viewer's seat in `seat` mode. */
  seat?: number;
  /** The table's public state (seats, rules, clock, state, totals). */
  table?: Table;
  /** The current hand as the viewer sees it; unset before the first deal. */
  obs?: Observation;
  /** `seat` mode: the decision number the fetched observation's legal actions answer. */
  obsDecision?: bigint;
  /** `seat` mode: no update has arrived since the observation was asked for. */
  obsFresh: boolean;
  /** `seat` mode: the last decision this viewer answered (its actions are no longer shown). */
  answered?: bigint;
  /** The decision due, from the stream. */
  turn?: TurnInfo;
  /** The last finished hand's deal. */
  revealed?: Revealed;
  /** The match's end, once the stream says so. */
  ended?: MatchEnded;
  /** The last clock that ran out. */
  timeout?: Timeout;
  /** How many updates the stream has delivered. */
  updates: number;
}

/** A fresh model for a table. */
export function initialModel(
  tableId: string,
  mode: "seat" | "public",
  seat?: number,
): TableModel {
  return { tableId, mode, seat, obsFresh: false, updates: 0 };
}

/** The game of a model's table or observation. */
export function modelGame(m: TableModel): GameName {
  return gameName(
    m.table?.options?.game ?? m.obs?.options?.game ?? Game.UNSPECIFIED,
  );
}

/** A turn from the wire. */
export function turnInfo(turn: Turn, now: number): TurnInfo {
  return {
    decision: turn.decision,
    actor: turn.actor,
    decider: turn.decider,
    legal: turn.legalActions.map((a) => a.notation),
    remainingMs: turn.remainingMs,
    receivedAt: now,
  };
}

/**
 * Applies one update of the stream. `now` is the browser's clock (for the countdown).
 * A snapshot replaces what was held (except the last revealed deal, which it does not carry).
 */
export function applyUpdate(m: TableModel, u: Update, now: number): TableModel {
  let next: TableModel = { ...m, updates: m.updates + 1 };
  switch (u.kind.case) {
    case "snapshot": {
      const s = u.kind.value;
      next = {
        ...next,
        table: s.table ?? next.table,
        obs: s.observation,
        obsFresh: false,
        obsDecision: undefined,
        turn: s.turn ? turnInfo(s.turn, now) : undefined,
        ended: undefined,
      };
      break;
    }
    case "handStarted": {
      const hs = u.kind.value;
      next.turn = undefined;
      next.timeout = undefined;
      next.obsFresh = false;
      if (next.table && next.table.state === TableState.WAITING) {
        next.table = { ...next.table, state: TableState.PLAYING };
      }
      if (m.mode === "public") {
        next.obs = newHand(next, hs.handNumber, hs.dealer);
      }
      break;
    }
    case "event": {
      const e = u.kind.value;
      next.turn = undefined;
      next.obsFresh = false;
      if (m.mode === "public" && next.obs) {
        next.obs = applyEvent(next.obs, e);
      }
      break;
    }
    case "turn":
      next.turn = turnInfo(u.kind.value, now);
      break;
    case "timedOut":
      next.timeout = {
        seat: u.kind.value.seat,
        decision: u.kind.value.decision,
      };
      next.turn = undefined;
      break;
    case "handRevealed": {
      const r = u.kind.value;
      next.revealed = {
        handNumber: r.handNumber,
        hands: r.hands.map(seatCards),
        monte: notations(r.monte),
        stock: notations(r.stock),
      };
      break;
    }
    case "seatChanged": {
      const s = u.kind.value.seat;
      if (s && next.table) {
        const seats = [...next.table.seats];
        seats[s.seat] = s;
        next.table = { ...next.table, seats };
      }
      break;
    }
    case "matchEnded": {
      const e = u.kind.value;
      next.ended = e;
      next.turn = undefined;
      if (next.table) {
        next.table = {
          ...next.table,
          state: e.result ? TableState.FINISHED : TableState.ABANDONED,
          result: e.result ?? next.table.result,
        };
      }
      if (m.mode === "public" && next.obs) {
        next.obs = { ...next.obs, actor: undefined, decider: undefined };
      }
      break;
    }
    default:
      break;
  }
  if (u.nextTurn) next.turn = turnInfo(u.nextTurn, now);
  if (m.mode === "public" && next.obs && u.kind.case !== "snapshot") {
    // The public view's decider is the stream's: set by turns, cleared by everything else.
    next.obs = {
      ...next.obs,
      actor: next.turn?.actor,
      decider: next.turn?.decider,
    };
  }
  return next;
}

/** A seat's cards as notations. */
function seatCards(s: SeatCards): { seat: number; cards: string[] } {
  return { seat: s.seat, cards: notations(s.cards) };
}

/** Cards as notations. */
export function notations(cards: readonly Card[]): string[] {
  return cards.map((c) => c.notation);
}

/** The phase a new hand starts in. */
export function firstPhase(game: GameName, seats: number): Phase {
  switch (game) {
    case "tressette":
    case "tressette-in-due":
      return Phase.PLAY;
    case "tressette-chiamata":
      // With four players there is no auction: the eldest must call (TC-D15).
      return seats === 4 ? Phase.CALL : Phase.AUCTION;
    default:
      return Phase.AUCTION;
  }
}

/** How many seats the rules give a table (from its options). */
export function seatsOf(options: GameOptions | undefined): number {
  const game = gameName(options?.game ?? Game.UNSPECIFIED);
  switch (options?.rules.case) {
    case "calabresella":
      return options.rules.value.players === 4 ? 4 : 3;
    case "chiamata":
      return options.rules.value.players === 4 ? 4 : 5;
    default:
      return game === "tressette-in-due" ? 2 : game === "tressette" ? 4 : 3;
  }
}

/**
 * The public observation at the start of hand `handNumber` dealt by `dealer`: the previous
 * hand's result moves to `previous`, totals carry over, and every hand holds its dealt count.
 */
export function newHand(
  m: TableModel,
  handNumber: number,
  dealer: number,
): Observation {
  const prev = m.obs;
  const options = prev?.options ?? m.table?.options;
  const game = gameName(options?.game ?? Game.UNSPECIFIED);
  const n = seatsOf(options);
  const previous: HandResult[] = prev
    ? prev.outcome && !prev.previous.includes(prev.outcome)
      ? [...prev.previous, prev.outcome]
      : prev.previous
    : [];
  const obs: Observation = {
    $typeName: "calabresella.v1.Observation",
    viewer: undefined,
    options,
    handNumber,
    dealer,
    idle: game === "calabresella" && n === 4 ? dealer : undefined,
    totals: prev?.totals ?? m.table?.totals ?? [],
    phase: firstPhase(game, n),
    actor: undefined,
    decider: undefined,
    highestBidder: undefined,
    highestBid: Contract.UNSPECIFIED,
    soloist: undefined,
    contract: Contract.UNSPECIFIED,
    called: undefined,
    hand: [],
    visibleHands: [],
    handSizes: dealtCards(game, n, dealer),
    trick: [],
    tricksDone: 0,
    sideTricks: [],
    stockLeft: game === "tressette-in-due" ? 20 : 0,
    events: [],
    legalActions: [],
    outcome: undefined,
    previous,
    caller: undefined,
    bid: undefined,
    highest: undefined,
    trump: 0,
    target: undefined,
    partner: undefined,
    alone: false,
    role: 0,
    seatPoints: isCalling(game) ? Array.from({ length: n }, () => 0) : [],
    signedTotals: prev?.signedTotals ?? m.table?.signedTotals ?? [],
  };
  return obs;
}

/**
 * The hands shown, with cards added to and removed from `seat`'s (when it is shown: the a
 * due dummy; a spectator learns only the cards that events name).
 */
function withCards(
  hands: readonly SeatCards[],
  seat: number | undefined,
  add: readonly Card[],
  remove: readonly Card[],
): SeatCards[] {
  const gone = new Set(remove.map((c) => c.notation));
  return hands.map((v) =>
    v.seat === seat
      ? {
          ...v,
          cards: [...v.cards.filter((c) => !gone.has(c.notation)), ...add],
        }
      : v,
  );
}

/** Card points of a trick's cards in a calling game (thirds in TC, points in BC). */
function trickPoints(game: GameName, cards: readonly Card[]): number {
  let sum = 0;
  for (const card of cards) {
    const c = parseCard(card.notation);
    if (!c) continue;
    if (game === "briscola-chiamata") {
      sum += { A: 11, "3": 10, K: 4, C: 3, F: 2 }[c.rank as string] ?? 0;
    } else {
      sum += c.rank === "A" ? 3 : "32KCF".includes(c.rank) ? 1 : 0;
    }
  }
  return sum;
}

/** `list` with `delta` added at `i` (grown with zeros when short). */
function bump(list: readonly number[], i: number | undefined, delta: number) {
  if (i === undefined) return [...list];
  const out = [...list];
  while (out.length <= i) out.push(0);
  out[i] = Math.max(0, out[i]! + delta);
  return out;
}

/** Adds per-seat (or per-side) amounts to `size` totals. */
function addTotals(
  totals: readonly number[],
  award: readonly number[],
  size: number,
): number[] {
  return Array.from(
    { length: size },
    (_, i) => (totals[i] ?? 0) + (award[i] ?? 0),
  );
}

/**
 * The phase after an event, for the public view (which has no phase of its own after the
 * snapshot): the auction's result and the monte's steps decide it in Calabresella; a call
 * leads to play in the calling games.
 */
export function phaseAfter(obs: Observation, e: Event): Phase {
  const game = gameName(obs.options?.game ?? Game.UNSPECIFIED);
  switch (e.kind) {
    case EventKind.AUCTION_WON:
      if (game !== "calabresella") return Phase.CALL;
      switch (e.contract) {
        case Contract.CHIAMO:
          return Phase.CALL;
        case Contract.SOLISSIMO:
          return Phase.PLAY;
        case Contract.SCEGLIETE:
          return Phase.TAKE;
        default:
          // Solo and dividete: the monte is taken (or divided) next, then discards.
          return Phase.DISCARD;
      }
    case EventKind.CALLED:
      return game === "calabresella" ? Phase.CALL : Phase.PLAY;
    case EventKind.HANDED_OVER:
      return Phase.RETURN;
    case EventKind.CALLED_IN_MONTE:
    case EventKind.RETURNED:
    case EventKind.MONTE_TAKEN:
    case EventKind.MONTE_RECEIVED:
    case EventKind.MONTE_SPLIT:
      return Phase.DISCARD;
    case EventKind.MONTE_SHOWN:
      return Phase.TAKE;
    case EventKind.DISCARDED: {
      // Every Calabresella exchange ends with four cards set aside.
      const discards = obs.events.filter(
        (x) => x.kind === EventKind.DISCARDED,
      ).length;
      return discards >= 4 ? Phase.PLAY : Phase.DISCARD;
    }
    case EventKind.PLAYED:
    case EventKind.TRICK_WON:
    case EventKind.DREW:
    case EventKind.PARTNER_KNOWN:
    case EventKind.HAND_SHOWN:
      return obs.phase === Phase.OVER ? Phase.OVER : Phase.PLAY;
    case EventKind.ALL_PASSED:
    case EventKind.MONTE_REVEALED:
    case EventKind.HAND_SCORED:
      return Phase.OVER;
    default:
      return obs.phase;
  }
}

/**
 * Applies one event to a public observation: the trick, hand sizes, the auction, the call,
 * the partnership, the score; the event is appended to the hand's list.
 */
export function applyEvent(obs: Observation, e: Event): Observation {
  const game = gameName(obs.options?.game ?? Game.UNSPECIFIED);
  const o: Observation = { ...obs, events: [...obs.events, e] };
  o.phase = phaseAfter(o, e);
  const seat = e.seat;
  switch (e.kind) {
    case EventKind.BID:
      if (
        e.action &&
        e.action.notation !== "pass" &&
        e.action.notation !== ""
      ) {
        o.highest = e.action;
        o.highestBidder = seat;
      }
      if (e.contract) {
        o.highestBid = e.contract;
        o.highestBidder = seat;
      }
      break;
    case EventKind.AUCTION_WON:
      if (game === "calabresella") {
        o.soloist = seat;
        o.contract = e.contract;
      } else {
        o.caller = seat;
        o.bid = e.action;
        if (e.contract) o.contract = e.contract;
        if (e.action?.notation === "bid solo") o.alone = true;
      }
      break;
    case EventKind.CALLED:
      o.called = e.card;
      if (game === "briscola-chiamata" && e.card) o.trump = e.card.suit;
      if (game !== "calabresella" && o.caller === undefined) o.caller = seat;
      break;
    case EventKind.HANDED_OVER:
      o.handSizes = bump(bump(o.handSizes, seat, -1), o.soloist, 1);
      break;
    case EventKind.RETURNED:
      o.handSizes = bump(bump(o.handSizes, seat, -1), e.toSeat, 1);
      break;
    case EventKind.MONTE_TAKEN:
      o.handSizes = bump(o.handSizes, seat, 4);
      o.visibleHands = withCards(o.visibleHands, seat, e.cards, []);
      break;
    case EventKind.MONTE_RECEIVED:
      o.handSizes = bump(o.handSizes, seat, 2);
      o.visibleHands = withCards(o.visibleHands, seat, e.cards, []);
      break;
    case EventKind.MONTE_SPLIT:
      o.handSizes = bump(
        bump(o.handSizes, seat, e.cards.length),
        e.toSeat,
        e.otherCards.length,
      );
      o.visibleHands = withCards(
        withCards(o.visibleHands, seat, e.cards, []),
        e.toSeat,
        e.otherCards,
        [],
      );
      break;
    case EventKind.DISCARDED:
      o.handSizes = bump(o.handSizes, seat, -1);
      if (e.card)
        o.visibleHands = withCards(o.visibleHands, seat, [], [e.card]);
      break;
    case EventKind.DUMMY_EXPOSED:
      if (seat !== undefined) {
        o.visibleHands = [
          ...o.visibleHands.filter((v) => v.seat !== seat),
          { $typeName: "calabresella.v1.SeatCards", seat, cards: e.cards },
        ];
      }
      break;
    case EventKind.PLAYED:
      if (seat !== undefined && e.card) {
        const played: PlayedCard = {
          $typeName: "calabresella.v1.PlayedCard",
          seat,
          card: e.card,
          signal: e.signal,
        };
        o.trick = [...o.trick, played];
        o.handSizes = bump(o.handSizes, seat, -1);
        o.visibleHands = withCards(o.visibleHands, seat, [], [e.card]);
      }
      break;
    case EventKind.TRICK_WON:
      o.trick = [];
      o.tricksDone = Math.max(o.tricksDone, e.number);
      if (isCalling(game) && seat !== undefined) {
        o.seatPoints = bump(o.seatPoints, seat, trickPoints(game, e.cards));
      }
      break;
    case EventKind.DREW:
      o.handSizes = bump(o.handSizes, seat, 1);
      o.stockLeft = Math.max(0, o.stockLeft - 1);
      break;
    case EventKind.PARTNER_KNOWN:
      o.partner = seat;
      o.alone = seat === undefined;
      break;
    case EventKind.HAND_SCORED:
      if (e.result) {
        o.outcome = e.result;
        const n = o.handSizes.length;
        if (isCalling(game)) {
          o.signedTotals = addTotals(o.signedTotals, e.result.signedAward, n);
        } else {
          // Per seat in Calabresella and Tressette in Due, per partnership in Tressette.
          const sides = game === "tressette" ? 2 : n;
          o.totals = addTotals(o.totals, e.result.award, sides);
          o.signedTotals = [...o.totals];
        }
      }
      break;
    default:
      break;
  }
  return o;
}

/** The cards of one completed trick, with who played each. */
export interface TrickSeen {
  /** 1-based trick number. */
  number: number;
  /** Who won it. */
  winner: number | undefined;
  /** Its cards in play order. */
  cards: { seat: number; card: string }[];
}

/** The last completed trick of the hand, from its events (the trick area shows it). */
export function lastTrick(events: readonly Event[]): TrickSeen | undefined {
  let current: { seat: number; card: string }[] = [];
  let last: TrickSeen | undefined;
  for (const e of events) {
    if (e.kind === EventKind.PLAYED && e.card && e.seat !== undefined) {
      current.push({ seat: e.seat, card: e.card.notation });
    } else if (e.kind === EventKind.TRICK_WON) {
      last = { number: e.number, winner: e.seat, cards: current };
      current = [];
    }
  }
  return last;
}

/**
 * The legal actions to show now: in `seat` mode those of a fresh observation for a decision
 * not yet answered; never in `public` mode.
 */
export function shownActions(m: TableModel): string[] {
  if (m.mode !== "seat" || !m.obs || !m.obsFresh) return [];
  if (m.ended) return [];
  if (
    m.answered !== undefined &&
    m.obsDecision !== undefined &&
    m.obsDecision <= m.answered
  ) {
    return [];
  }
  return m.obs.legalActions.map((a) => a.notation);
}

/** Who decides now: a fresh seat observation's decider, else the stream's turn. */
export function deciderOf(m: TableModel): number | undefined {
  if (m.ended) return undefined;
  if (m.mode === "seat" && m.obs && m.obsFresh) return m.obs.decider;
  if (m.turn) return m.turn.decider;
  return m.obs?.decider;
}
