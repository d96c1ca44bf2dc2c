import { test } from "node:test";
import assert from "node:assert/strict";
import {
  ChiamataAuction,
  FirstLead,
  Game,
  MatchEnd,
  OptionsError,
  SeatKind,
  gameOptions,
  seatChoice,
  seatKind,
} from "../src/index.js";

test("calabresella options, the preset and every kind of value", () => {
  const o = gameOptions("calabresella", {
    players: "4",
    target: "5",
    match_end: "individual",
    aperta: "true",
    stramazzo: "false",
    preset: "terziglio",
    max_deals: "100",
  });
  assert.equal(o.game, Game.CALABRESELLA);
  assert.equal(o.rules.case, "calabresella");
  const c = o.rules.value!;
  assert.equal(c.players, 4);
  assert.equal(c.target, 5);
  assert.equal(c.matchEnd, MatchEnd.INDIVIDUAL);
  assert.equal(c.aperta, true);
  assert.equal(c.stramazzo, false);
  assert.equal(c.terziglio, true);
  assert.equal(c.maxDeals, 100);
  assert.equal(
    c.aDue,
    undefined,
    "unset options stay unset: the server's defaults",
  );
});

test("the key=value list notation and game names in any case", () => {
  const o = gameOptions("Tressette-In-Due", [
    "target=11",
    "follow_suit_always=true",
  ]);
  assert.equal(o.game, Game.TRESSETTE_IN_DUE);
  assert.equal(o.rules.case, "tressette");
  assert.equal(o.rules.value!.target, 11);
  assert.equal(o.rules.value!.followSuitAlways, true);
});

test("both calling games take ChiamataOptions", () => {
  const b = gameOptions("briscola-chiamata", {
    hands: "2",
    auction: "points",
    first_lead: "caller",
  });
  assert.equal(b.game, Game.BRISCOLA_CHIAMATA);
  assert.equal(b.rules.case, "chiamata");
  assert.equal(b.rules.value!.auction, ChiamataAuction.POINTS);
  assert.equal(b.rules.value!.firstLead, FirstLead.CALLER);
  const t = gameOptions("tressette-chiamata", {
    players: "4",
    solo_bid: "true",
  });
  assert.equal(t.rules.case, "chiamata");
  assert.equal(t.rules.value!.players, 4);
  assert.equal(t.rules.value!.soloBid, true);
});

test("no options: the game alone, every rule at the server's default", () => {
  const o = gameOptions("tressette");
  assert.equal(o.game, Game.TRESSETTE);
  assert.ok(o.rules.case === "tressette");
  assert.equal(o.rules.value.target, undefined);
});

test("unknown games and keys and bad values are refused with a clear error", () => {
  assert.throws(() => gameOptions("scopa"), /unknown game "scopa"/);
  assert.throws(
    () => gameOptions("tressette", { players: "4" }),
    /tressette: unknown option "players" \(known: target/,
  );
  assert.throws(
    () => gameOptions("calabresella", { target: "five" }),
    /option target=five: expected a whole number/,
  );
  assert.throws(
    () => gameOptions("calabresella", { target: "-1" }),
    OptionsError,
  );
  assert.throws(
    () => gameOptions("calabresella", { players: "5" }),
    /expected 3 or 4/,
  );
  assert.throws(
    () => gameOptions("calabresella", { aperta: "maybe" }),
    /expected true or false/,
  );
  assert.throws(
    () => gameOptions("calabresella", { match_end: "pool" }),
    /pooled or individual/,
  );
  assert.throws(
    () => gameOptions("briscola-chiamata", { auction: "bids" }),
    /ranks or points/,
  );
  assert.throws(() => gameOptions("calabresella", ["target"]), /key=value/);
});

test("seat kinds by name", () => {
  assert.equal(seatKind("open"), SeatKind.OPEN);
  assert.equal(seatKind("Random"), SeatKind.BOT_RANDOM);
  assert.equal(seatKind("heuristic"), SeatKind.BOT_HEURISTIC);
  assert.equal(seatKind(SeatKind.OPEN), SeatKind.OPEN);
  assert.throws(() => seatKind("human"), /unknown seat kind "human"/);
  assert.deepEqual(seatChoice(" PIMC:ms=50 "), {
    kind: SeatKind.BOT_NAMED,
    bot: "pimc:ms=50",
  });
  assert.deepEqual(seatChoice("heuristic"), {
    kind: SeatKind.BOT_HEURISTIC,
    bot: "",
  });
  assert.throws(() => seatChoice("pimcx"), /unknown seat kind "pimcx"/);
});
