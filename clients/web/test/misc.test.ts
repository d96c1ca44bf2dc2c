// Routes, the seat storage, clocks, what the app knows of each game, event wording.
import { create } from "@bufbuild/protobuf";
import {
  CardSchema,
  Contract,
  EventKind,
  EventSchema,
  HandResultSchema,
  SeatKind,
  Signal,
  StandingSchema,
  Game,
  GameOptionsSchema,
  TressetteOptionsSchema,
  type GameOptions,
} from "@calabresella/client";
import { rulesText } from "../src/rules-text.js";
import { ACCOUNT_KEY, loadAccount, setAccount } from "../src/account.js";
import { csvField, standingsCsv } from "../src/csv.js";
import assert from "node:assert/strict";
import { test } from "node:test";
import { formatMs, timeLeft } from "../src/clock.js";
import { eventText, resultText } from "../src/events.js";
import { GAME_NAMES, dealtCards, dummySeat, gameName } from "../src/games.js";
import { translator } from "../src/i18n/index.js";
import { href, parseRoute } from "../src/routes.js";
import {
  forgetSeat,
  loadCreatorKey,
  loadSeat,
  saveCreatorKey,
  saveSeat,
  seatKey,
} from "../src/session.js";
import { kindName } from "../src/wire.js";

test("routes parse and print", () => {
  assert.deepEqual(parseRoute(""), { page: "lobby" });
  assert.deepEqual(parseRoute("#/"), { page: "lobby" });
  assert.deepEqual(parseRoute("#/table/t-abc"), {
    page: "table",
    tableId: "t-abc",
  });
  assert.deepEqual(parseRoute("#/replay/t-abc"), {
    page: "replay",
    tableId: "t-abc",
  });
  assert.deepEqual(parseRoute("#/results"), { page: "results" });
  assert.deepEqual(parseRoute("#/table/"), { page: "lobby" });
  assert.deepEqual(parseRoute("#/table/%E0%A4%A"), { page: "lobby" });
  assert.deepEqual(parseRoute("#/nowhere"), { page: "lobby" });
  for (const r of [
    { page: "table", tableId: "t 1/x" },
    { page: "replay", tableId: "t-9" },
    { page: "results" },
    { page: "lobby" },
  ] as const) {
    assert.deepEqual(parseRoute(href(r)), r);
  }
});

class MemoryStorage {
  items = new Map<string, string>();
  get length() {
    return this.items.size;
  }
  clear() {
    this.items.clear();
  }
  getItem(k: string) {
    return this.items.get(k) ?? null;
  }
  key(i: number) {
    return [...this.items.keys()][i] ?? null;
  }
  removeItem(k: string) {
    this.items.delete(k);
  }
  setItem(k: string, v: string) {
    this.items.set(k, v);
  }
}

test("seats are kept per table in session storage, under the contract's key", () => {
  const store = new MemoryStorage() as unknown as Storage;
  assert.equal(seatKey("t-1"), "calabresella.seat.t-1");
  assert.equal(loadSeat("t-1", store), undefined);
  saveSeat("t-1", { seat: 2, token: "abc", name: "Ann" }, store);
  assert.deepEqual(JSON.parse(store.getItem("calabresella.seat.t-1")!), {
    seat: 2,
    token: "abc",
    name: "Ann",
  });
  assert.deepEqual(loadSeat("t-1", store), {
    seat: 2,
    token: "abc",
    name: "Ann",
  });
  forgetSeat("t-1", store);
  assert.equal(loadSeat("t-1", store), undefined);
  store.setItem("calabresella.seat.t-2", "{not json");
  assert.equal(loadSeat("t-2", store), undefined);
  store.setItem(
    "calabresella.seat.t-3",
    JSON.stringify({ seat: -1, token: "x", name: "" }),
  );
  assert.equal(loadSeat("t-3", store), undefined);
});

test("a seeded table's creator key is kept per table, and none is kept as none", () => {
  const store = new MemoryStorage() as unknown as Storage;
  assert.equal(loadCreatorKey("t-1", store), "");
  saveCreatorKey("t-1", "", store);
  assert.equal(loadCreatorKey("t-1", store), "");
  saveCreatorKey("t-1", "ab".repeat(16), store);
  assert.equal(loadCreatorKey("t-1", store), "ab".repeat(16));
  assert.equal(loadCreatorKey("t-2", store), "");
});

test("clocks count down from when the turn arrived", () => {
  assert.equal(formatMs(0), "0:00");
  assert.equal(formatMs(59_001), "1:00");
  assert.equal(formatMs(61_000), "1:01");
  assert.equal(formatMs(3_600_000), "1:00:00");
  const turn = {
    decision: 1n,
    actor: 0,
    decider: 0,
    legal: [],
    remainingMs: 10_000,
    receivedAt: 1_000,
  };
  assert.equal(timeLeft(turn, 4_000), 7_000);
  assert.equal(timeLeft(turn, 20_000), 0);
  assert.equal(timeLeft({ ...turn, remainingMs: 0 }, 4_000), undefined);
  assert.equal(timeLeft(undefined, 4_000), undefined);
});

test("what the app knows of each game beyond its description", () => {
  assert.deepEqual(dealtCards("calabresella", 4, 1), [12, 0, 12, 12]);
  assert.equal(gameName(Game.TRESSETTE_IN_DUE), "tressette-in-due");
  assert.equal(gameName(Game.UNSPECIFIED), "calabresella");
  assert.deepEqual(GAME_NAMES, [
    "calabresella",
    "tressette",
    "tressette-in-due",
    "tressette-chiamata",
    "briscola-chiamata",
  ]);
  assert.equal(dummySeat("calabresella", { a_due: "true" }), 2);
  assert.equal(dummySeat("calabresella", { a_due: "false" }), undefined);
  assert.equal(dummySeat("tressette", { a_due: "true" }), undefined);
});

test("events and results read as sentences, names as plain text", () => {
  const t = translator("en");
  const name = (s: number | undefined) => (s === 1 ? "<b>Bo</b>" : `P${s}`);
  const c = create(CardSchema, { notation: "Ad", suit: 3, rank: 3 });
  assert.equal(
    eventText(
      t,
      create(EventSchema, { kind: EventKind.PLAYED, seat: 1, card: c }),
      name,
    ),
    "<b>Bo</b> plays Ace of coins.",
  );
  assert.equal(
    eventText(
      t,
      create(EventSchema, {
        kind: EventKind.PLAYED,
        seat: 0,
        card: c,
        signal: Signal.VOLO,
      }),
      name,
    ),
    "P0 plays Ace of coins (volo).",
  );
  assert.equal(
    eventText(t, create(EventSchema, { kind: EventKind.BID, seat: 2 }), name),
    "P2 passes.",
  );
  assert.equal(
    eventText(
      t,
      create(EventSchema, {
        kind: EventKind.BID,
        seat: 2,
        contract: Contract.SOLO,
      }),
      name,
    ),
    "P2 bids Solo.",
  );
  assert.equal(
    eventText(
      t,
      create(EventSchema, { kind: EventKind.TRICK_WON, seat: 2, number: 4 }),
      name,
    ),
    "P2 wins trick 4.",
  );
  assert.equal(
    eventText(
      translator("it"),
      create(EventSchema, { kind: EventKind.DREW, seat: 0, card: c }),
      name,
    ),
    "P0 pesca Asso di denari.",
  );
  const r = create(HandResultSchema, {
    soloist: 1,
    contract: Contract.SOLISSIMO,
    made: true,
    points: [8, 3],
    multiplier: 1,
  });
  assert.equal(
    resultText(t, r, "calabresella", name),
    "Solissimo, <b>Bo</b>: made (8–3)",
  );
  assert.equal(
    resultText(
      t,
      create(HandResultSchema, { void: true }),
      "calabresella",
      name,
    ),
    "void deal: everyone passed",
  );
  assert.equal(
    resultText(
      t,
      create(HandResultSchema, { points: [7, 4] }),
      "tressette",
      name,
    ),
    "points 7–4",
  );
});

test("every seat kind has a word, the search bot's included", () => {
  assert.equal(kindName(SeatKind.BOT_NAMED), "named");
  assert.equal(kindName(SeatKind.BOT_HEURISTIC), "heuristic");
  assert.equal(kindName(SeatKind.UNSPECIFIED), "dummy");
});

test("the competition routes parse and print", () => {
  assert.deepEqual(parseRoute("#/tournaments"), { page: "tournaments" });
  assert.deepEqual(parseRoute("#/tournament/tn-1"), {
    page: "tournament",
    tournamentId: "tn-1",
  });
  assert.deepEqual(parseRoute("#/player/Team%20Rossi"), {
    page: "player",
    name: "Team Rossi",
  });
  assert.deepEqual(parseRoute("#/player/"), { page: "lobby" });
  assert.deepEqual(parseRoute("#/tournaments/x"), { page: "lobby" });
  for (const r of [
    { page: "tournaments" },
    { page: "tournament", tournamentId: "tn-9" },
    { page: "player", name: "Ann/#?é" },
  ] as const) {
    assert.deepEqual(parseRoute(href(r)), r);
  }
});

test("the account is kept in the tab's storage, and a malformed one is none", () => {
  const store = new MemoryStorage() as unknown as Storage;
  assert.equal(loadAccount(store), undefined);
  setAccount({ name: "Ann", key: "cbk_1" }, store);
  assert.deepEqual(JSON.parse(store.getItem(ACCOUNT_KEY)!), {
    name: "Ann",
    key: "cbk_1",
  });
  setAccount(undefined, store);
  assert.equal(store.getItem(ACCOUNT_KEY), null);
  assert.equal(loadAccount(store), undefined);
  for (const bad of ['{"name":"","key":"k"}', '{"name":"a"}', "[", "null"]) {
    store.setItem(ACCOUNT_KEY, bad);
    assert.equal(loadAccount(store), undefined, bad);
  }
});

test("standings CSV: the export's columns, quoted fields where needed", () => {
  assert.equal(csvField("plain"), "plain");
  assert.equal(csvField('a,"b"'), '"a,""b"""');
  assert.equal(csvField("x\ny"), '"x\ny"');
  const csv = standingsCsv([
    create(StandingSchema, {
      entrant: "Team, Rossi",
      bot: false,
      matches: 2,
      hands: 4,
      points: 25n,
      pointsPerHand: 6.25,
      ci95: 2.7,
      wins: 1,
      rating: 1.41,
    }),
  ]).split("\n");
  assert.equal(
    csv[0],
    "entrant,bot,matches,hands,points,points_per_hand,ci95,wins,rating,timeouts,illegal,disconnects,forfeits",
  );
  assert.equal(csv[1], '"Team, Rossi",false,2,4,25,6.25,2.7,1,1.41,0,0,0,0');
  assert.equal(csv[2], "");
});

test("a tournament's rules read as the option notation", () => {
  assert.equal(rulesText(undefined), "");
  // The typed rules, as the server echoes a table's or a tournament's options.
  const typed = (rules: GameOptions["rules"]) =>
    create(GameOptionsSchema, { game: Game.TRESSETTE, rules });
  assert.equal(rulesText(typed({ case: undefined })), "");
  assert.equal(
    rulesText(
      typed({
        case: "tressette",
        value: create(TressetteOptionsSchema, { target: 11, accusi: false }),
      }),
    ),
    "target=11, accusi=false",
  );
  // The settings, as a tournament's options come back as they were sent.
  assert.equal(
    rulesText(
      create(GameOptionsSchema, {
        game: Game.TRESSETTE,
        settings: { target: "11", accusi: "false" },
      }),
    ),
    "accusi=false, target=11",
  );
});
