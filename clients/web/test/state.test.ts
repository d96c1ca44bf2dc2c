// The view model's reducer on scripted streams: the public view built event by event, the
// seat's view left to GetObservation, and which actions may be shown.
import { create } from "@bufbuild/protobuf";
import {
  ActionSchema,
  CardSchema,
  Contract,
  EventKind,
  EventSchema,
  Game,
  GameOptionsSchema,
  HandResultSchema,
  MatchEndedSchema,
  MatchResultSchema,
  ObservationSchema,
  Phase,
  SeatInfoSchema,
  SeatKind,
  SnapshotSchema,
  TableSchema,
  TableState,
  TurnSchema,
  UpdateSchema,
  type Event,
  type Update,
} from "@calabresella/client";
import assert from "node:assert/strict";
import { test } from "node:test";
import { parseCard } from "../src/cards.js";
import {
  applyEvent,
  applyUpdate,
  deciderOf,
  initialModel,
  lastTrick,
  newHand,
  phaseAfter,
  shownActions,
  type TableModel,
} from "../src/state.js";
import { phaseName } from "../src/wire.js";

const SUIT = { b: 1, c: 2, d: 3, s: 4 } as const;
const RANK = {
  "3": 1,
  "2": 2,
  A: 3,
  K: 4,
  C: 5,
  F: 6,
  "7": 7,
  "6": 8,
  "5": 9,
  "4": 10,
} as const;

function card(n: string) {
  const c = parseCard(n)!;
  return create(CardSchema, {
    notation: c.notation,
    suit: SUIT[c.suit],
    rank: RANK[c.rank],
  });
}

function ev(
  kind: EventKind,
  fields: Partial<Omit<Event, "$typeName">> = {},
): Event {
  return create(EventSchema, { kind, ...fields });
}

let seq = 0n;
function upd(
  kind: Update["kind"],
  nextTurn?: { decider: number; legal?: string[]; decision?: number },
): Update {
  seq++;
  return create(UpdateSchema, {
    seq,
    streamEpoch: "e",
    kind,
    nextTurn: nextTurn
      ? create(TurnSchema, {
          decision: BigInt(nextTurn.decision ?? 0),
          actor: nextTurn.decider,
          decider: nextTurn.decider,
          remainingMs: 30000,
          legalActions: (nextTurn.legal ?? []).map((n) =>
            create(ActionSchema, { notation: n }),
          ),
        })
      : undefined,
  });
}

function event(
  e: Event,
  nextTurn?: { decider: number; legal?: string[] },
): Update {
  return upd({ case: "event", value: e }, nextTurn);
}

const calabresella = create(GameOptionsSchema, {
  game: Game.CALABRESELLA,
  rules: { case: "calabresella", value: { players: 3, target: 21 } },
});

function table(state: TableState) {
  return create(TableSchema, {
    tableId: "t-1",
    options: calabresella,
    state,
    seats: [0, 1, 2].map((i) =>
      create(SeatInfoSchema, {
        seat: i,
        kind: SeatKind.BOT_HEURISTIC,
        taken: true,
        playerName: "heuristic bot",
      }),
    ),
    totals: [0, 0, 0],
  });
}

function run(m: TableModel, updates: Update[]): TableModel {
  return updates.reduce((x, u) => applyUpdate(x, u, 1000), m);
}

test("a spectator follows a Calabresella solo hand from the snapshot to the match's end", () => {
  let m = initialModel("t-1", "public");
  m = run(m, [
    upd({
      case: "snapshot",
      value: create(SnapshotSchema, { table: table(TableState.WAITING) }),
    }),
    upd(
      {
        case: "handStarted",
        value: {
          $typeName: "calabresella.v1.HandStarted",
          handNumber: 0,
          dealer: 2,
        },
      },
      { decider: 0 },
    ),
  ]);
  assert.equal(m.table?.state, TableState.PLAYING);
  assert.equal(phaseName(m.obs?.phase), "auction");
  assert.deepEqual(m.obs?.handSizes, [12, 12, 12]);
  assert.equal(deciderOf(m), 0);

  m = run(m, [
    event(ev(EventKind.BID, { seat: 0, contract: Contract.SOLO }), {
      decider: 1,
    }),
    event(ev(EventKind.BID, { seat: 1 }), { decider: 2 }),
    event(ev(EventKind.BID, { seat: 2 })),
    event(ev(EventKind.AUCTION_WON, { seat: 0, contract: Contract.SOLO })),
    event(ev(EventKind.MONTE_TAKEN, { seat: 0 }), { decider: 0 }),
  ]);
  assert.equal(phaseName(m.obs?.phase), "discard");
  assert.equal(m.obs?.soloist, 0);
  assert.equal(m.obs?.contract, Contract.SOLO);
  assert.deepEqual(m.obs?.handSizes, [16, 12, 12]);
  assert.equal(deciderOf(m), 0);

  for (let i = 0; i < 4; i++)
    m = run(m, [
      event(ev(EventKind.DISCARDED, { seat: 0 }), { decider: i < 3 ? 0 : 1 }),
    ]);
  assert.equal(phaseName(m.obs?.phase), "play");
  assert.deepEqual(m.obs?.handSizes, [12, 12, 12]);

  m = run(m, [
    event(ev(EventKind.PLAYED, { seat: 1, card: card("Ad") }), { decider: 2 }),
    event(ev(EventKind.PLAYED, { seat: 2, card: card("4d") }), { decider: 0 }),
  ]);
  assert.deepEqual(
    m.obs?.trick.map((p) => [p.seat, p.card?.notation]),
    [
      [1, "Ad"],
      [2, "4d"],
    ],
  );
  assert.equal(deciderOf(m), 0);
  m = run(m, [
    event(ev(EventKind.PLAYED, { seat: 0, card: card("3d") })),
    event(
      ev(EventKind.TRICK_WON, {
        seat: 0,
        number: 1,
        cards: [card("Ad"), card("4d"), card("3d")],
      }),
      { decider: 0 },
    ),
  ]);
  assert.equal(m.obs?.trick.length, 0);
  assert.equal(m.obs?.tricksDone, 1);
  assert.deepEqual(m.obs?.handSizes, [11, 11, 11]);
  assert.deepEqual(lastTrick(m.obs!.events), {
    number: 1,
    winner: 0,
    cards: [
      { seat: 1, card: "Ad" },
      { seat: 2, card: "4d" },
      { seat: 0, card: "3d" },
    ],
  });

  const result = create(HandResultSchema, {
    handNumber: 0,
    soloist: 0,
    contract: Contract.SOLO,
    made: true,
    award: [2, 0, 0],
    points: [7, 4],
  });
  m = run(m, [
    event(ev(EventKind.MONTE_REVEALED, { seat: 0, cards: [card("7c")] })),
    event(ev(EventKind.HAND_SCORED, { result })),
  ]);
  assert.equal(phaseName(m.obs?.phase), "over");
  assert.deepEqual(m.obs?.totals, [2, 0, 0]);
  assert.deepEqual(m.obs?.signedTotals, [2, 0, 0]);
  assert.equal(deciderOf(m), undefined);

  // The next hand: the result moves to `previous`, totals carry over.
  m = run(m, [
    upd(
      {
        case: "handStarted",
        value: {
          $typeName: "calabresella.v1.HandStarted",
          handNumber: 1,
          dealer: 0,
        },
      },
      { decider: 1 },
    ),
  ]);
  assert.equal(m.obs?.handNumber, 1);
  assert.equal(m.obs?.previous.length, 1);
  assert.equal(m.obs?.outcome, undefined);
  assert.deepEqual(m.obs?.totals, [2, 0, 0]);
  assert.equal(m.obs?.events.length, 0);

  // Revealed deal and the match's end.
  m = run(m, [
    upd({
      case: "handRevealed",
      value: {
        $typeName: "calabresella.v1.HandRevealed",
        handNumber: 0,
        hands: [
          {
            $typeName: "calabresella.v1.SeatCards",
            seat: 0,
            cards: [card("3d")],
          },
        ],
        monte: [card("7c")],
        stock: [],
      },
    }),
    upd({
      case: "matchEnded",
      value: create(MatchEndedSchema, {
        result: create(MatchResultSchema, { winners: [0] }),
      }),
    }),
  ]);
  assert.deepEqual(m.revealed, {
    handNumber: 0,
    hands: [{ seat: 0, cards: ["3d"] }],
    monte: ["7c"],
    stock: [],
  });
  assert.equal(m.table?.state, TableState.FINISHED);
  assert.deepEqual(m.ended?.result?.winners, [0]);
  assert.equal(deciderOf(m), undefined);
});

test("phases after the auction follow the contract", () => {
  const obs = newHand(initialModel("t", "public"), 0, 0);
  const won = (contract: Contract) =>
    phaseName(
      phaseAfter(
        { ...obs, options: calabresella },
        ev(EventKind.AUCTION_WON, { seat: 0, contract }),
      ),
    );
  assert.equal(won(Contract.CHIAMO), "call");
  assert.equal(won(Contract.SOLO), "discard");
  assert.equal(won(Contract.SOLISSIMO), "play");
  assert.equal(won(Contract.DIVIDETE), "discard");
  assert.equal(won(Contract.SCEGLIETE), "take");
  const o = { ...obs, options: calabresella };
  assert.equal(
    phaseName(phaseAfter(o, ev(EventKind.HANDED_OVER, { seat: 1 }))),
    "return",
  );
  assert.equal(
    phaseName(phaseAfter(o, ev(EventKind.CALLED_IN_MONTE))),
    "discard",
  );
  assert.equal(phaseName(phaseAfter(o, ev(EventKind.MONTE_SHOWN))), "take");
  assert.equal(phaseName(phaseAfter(o, ev(EventKind.ALL_PASSED))), "over");
});

test("calling games: the call names trump (Briscola) and the partner shows when played", () => {
  const options = create(GameOptionsSchema, {
    game: Game.BRISCOLA_CHIAMATA,
    rules: { case: "chiamata", value: {} },
  });
  let o = newHand(
    { ...initialModel("t", "public"), table: create(TableSchema, { options }) },
    0,
    4,
  );
  assert.equal(phaseName(o.phase), "auction");
  assert.deepEqual(o.handSizes, [8, 8, 8, 8, 8]);
  o = applyEvent(
    o,
    ev(EventKind.BID, {
      seat: 0,
      action: create(ActionSchema, { notation: "bid A" }),
    }),
  );
  assert.equal(o.highest?.notation, "bid A");
  o = applyEvent(
    o,
    ev(EventKind.AUCTION_WON, {
      seat: 0,
      action: create(ActionSchema, { notation: "bid A" }),
    }),
  );
  assert.equal(o.caller, 0);
  assert.equal(phaseName(o.phase), "call");
  o = applyEvent(o, ev(EventKind.CALLED, { seat: 0, card: card("Ac") }));
  assert.equal(phaseName(o.phase), "play");
  assert.equal(o.called?.notation, "Ac");
  assert.equal(o.trump, SUIT.c);
  o = applyEvent(o, ev(EventKind.PARTNER_KNOWN, { seat: 3 }));
  assert.equal(o.partner, 3);
  assert.equal(o.alone, false);
  o = applyEvent(
    o,
    ev(EventKind.TRICK_WON, {
      seat: 3,
      number: 1,
      cards: [card("Ac"), card("3c"), card("2c")],
    }),
  );
  assert.equal(o.seatPoints[3], 21);
  const result = create(HandResultSchema, {
    handNumber: 0,
    signedAward: [2, -1, -1, 1, -1],
  });
  o = applyEvent(o, ev(EventKind.HAND_SCORED, { result }));
  assert.deepEqual(o.signedTotals, [2, -1, -1, 1, -1]);
});

test("Tressette keeps totals per partnership", () => {
  const options = create(GameOptionsSchema, {
    game: Game.TRESSETTE,
    rules: { case: "tressette", value: {} },
  });
  let o = newHand(
    { ...initialModel("t", "public"), table: create(TableSchema, { options }) },
    0,
    3,
  );
  assert.equal(phaseName(o.phase), "play");
  assert.deepEqual(o.handSizes, [10, 10, 10, 10]);
  o = applyEvent(
    o,
    ev(EventKind.HAND_SCORED, {
      result: create(HandResultSchema, { award: [7, 4] }),
    }),
  );
  assert.deepEqual(o.totals, [7, 4]);
  assert.deepEqual(o.signedTotals, [7, 4]);
});

test("in seat mode events leave the fetched observation alone, and actions show only when fresh", () => {
  let m = initialModel("t-1", "seat", 0);
  const obs = create(ObservationSchema, {
    viewer: 0,
    options: calabresella,
    phase: Phase.PLAY,
    decider: 0,
    hand: [card("Ad"), card("3b")],
    legalActions: [
      create(ActionSchema, { notation: "play Ad" }),
      create(ActionSchema, { notation: "play 3b" }),
    ],
  });
  m = { ...m, obs, obsDecision: 5n, obsFresh: true };
  assert.deepEqual(shownActions(m), ["play Ad", "play 3b"]);
  assert.equal(deciderOf(m), 0);

  // Answered: the actions disappear until an observation of a later decision arrives.
  const answered = { ...m, answered: 5n };
  assert.deepEqual(shownActions(answered), []);
  assert.deepEqual(shownActions({ ...answered, obsDecision: 6n }), [
    "play Ad",
    "play 3b",
  ]);

  // An update after the observation was fetched makes it stale; the observation is kept.
  const after = applyUpdate(
    m,
    event(ev(EventKind.PLAYED, { seat: 2, card: card("4d") })),
    0,
  );
  assert.equal(after.obsFresh, false);
  assert.equal(after.obs, obs);
  assert.deepEqual(shownActions(after), []);

  // A spectator never shows actions.
  assert.deepEqual(shownActions({ ...m, mode: "public" }), []);
  // Nor does anyone once the match is over.
  assert.deepEqual(shownActions({ ...m, ended: create(MatchEndedSchema) }), []);
});

test("turns set the clock; seat changes update the table", () => {
  let m = initialModel("t-1", "public");
  m = run(m, [
    upd({
      case: "snapshot",
      value: create(SnapshotSchema, { table: table(TableState.WAITING) }),
    }),
  ]);
  m = run(m, [
    upd({
      case: "turn",
      value: create(TurnSchema, {
        decision: 3n,
        actor: 1,
        decider: 1,
        remainingMs: 5000,
      }),
    }),
  ]);
  assert.equal(m.turn?.decider, 1);
  assert.equal(m.turn?.remainingMs, 5000);
  assert.equal(m.turn?.receivedAt, 1000);
  m = run(m, [
    upd({
      case: "seatChanged",
      value: {
        $typeName: "calabresella.v1.SeatChanged",
        seat: create(SeatInfoSchema, {
          seat: 1,
          kind: SeatKind.OPEN,
          taken: true,
          playerName: "Zoe",
        }),
      },
    }),
  ]);
  assert.equal(m.table?.seats[1]?.playerName, "Zoe");
  m = run(m, [
    upd({
      case: "timedOut",
      value: {
        $typeName: "calabresella.v1.TimedOut",
        decision: 3n,
        seat: 1,
        policy: 1,
      },
    }),
  ]);
  assert.equal(m.turn, undefined);
  assert.equal(m.timeout?.seat, 1);
});
