// The deals checked in the browser (src/fair.ts): the same deals as the independent Python
// reference (fixtures/deal-reference.json, from scripts/deal_reference.py), real records of a
// real server verified as `calabresella verify` verifies them (fixtures/records.json), and
// tampered records failing at the place that was changed.
import assert from "node:assert/strict";
import { test } from "node:test";
import {
  checkDeals,
  commitmentOf,
  committedDeal,
  fromHex,
  problemText,
  seededDeals,
  summary,
  toHex,
  type DealsCheck,
  type GameName,
} from "../src/fair.js";
import { problemLabel, shortCommitment } from "../src/deals-view.js";
import { translator } from "../src/i18n/index.js";
import reference from "./fixtures/deal-reference.json";
import real from "./fixtures/records.json";

interface Expect {
  hands: string[][];
  monte: string[];
  stock: string[];
  drawnDealer?: number;
  commitment?: string;
}

const sorted = (cards: readonly string[]) => [...cards].sort();
const bytes = (hex: string) => fromHex(hex)!;

/** A deep copy of a real record, to tamper with. */
function copy(label: string): any {
  const r = real.records.find((x) => x.label === label);
  assert.ok(r, label);
  return structuredClone(r.record);
}

function failure(c: DealsCheck): string {
  assert.equal(c.status, "failed", JSON.stringify(c));
  return c.status === "failed" ? problemText(c.problem) : "";
}

test("hex round-trips, and odd or foreign digits are refused", () => {
  const all = Uint8Array.from({ length: 256 }, (_, i) => i);
  assert.deepEqual(fromHex(toHex(all)), all);
  assert.deepEqual(fromHex("ABcd"), new Uint8Array([0xab, 0xcd]));
  assert.equal(fromHex("abc"), undefined);
  assert.equal(fromHex("zz"), undefined);
  assert.deepEqual(fromHex(""), new Uint8Array(0));
});

test("committed deals are the Python reference's, in every game", () => {
  const cases = reference.cases.filter((c) => c.kind === "committed");
  assert.ok(cases.length >= 10);
  for (const c of cases) {
    const want = c.expect as Expect;
    const secret = bytes(c.secret!);
    const got = committedDeal(
      secret,
      c.context!,
      c.contributions!.map(bytes),
      c.hand!,
      c.players,
      c.dealer,
      c.game as GameName,
    );
    const label = `${c.game} ${c.context} hand ${c.hand}`;
    assert.equal(commitmentOf(secret), want.commitment, label);
    assert.deepEqual(got.hands.map(sorted), want.hands.map(sorted), label);
    assert.deepEqual(got.monte, want.monte, `${label}: monte`);
    assert.deepEqual(got.stock, want.stock, `${label}: stock`);
    assert.equal(got.drawnDealer, want.drawnDealer, `${label}: first dealer`);
  }
});

test("seeded deals are the Python reference's (hand 0, the first dealer drawn first)", () => {
  const cases = reference.cases.filter((c) => c.kind === "seeded");
  assert.ok(cases.length >= 5);
  for (const c of cases) {
    const want = c.expect as Expect;
    const [got] = seededDeals(
      BigInt(c.seed!),
      c.players,
      [c.dealer],
      c.game as GameName,
    );
    const label = `seed ${c.seed} ${c.game}`;
    assert.deepEqual(got!.hands.map(sorted), want.hands.map(sorted), label);
    assert.deepEqual(got!.monte, want.monte, `${label}: monte`);
    assert.deepEqual(got!.stock, want.stock, `${label}: stock`);
  }
});

test("real records verify as `calabresella verify` says", () => {
  assert.ok(real.records.length >= 8);
  const games = new Set<string>();
  for (const r of real.records) {
    const c = checkDeals(r.record);
    games.add(r.record.game);
    if (r.verify.startsWith("deals verified")) {
      assert.equal(c.status, "verified", `${r.label}: ${JSON.stringify(c)}`);
      // Word for word the command's line: the hands and the commitment.
      assert.equal(summary(c), r.verify, r.label);
    } else {
      assert.equal(c.status, "seeded", `${r.label}: ${JSON.stringify(c)}`);
      assert.ok(r.verify.startsWith(summary(c)), r.label);
      const hands = /(\d+) hands? re-derived/.exec(r.verify)![1];
      assert.equal(c.status === "seeded" && String(c.hands), hands, r.label);
    }
  }
  assert.equal(games.size, 5, "every game");
  // The person's seat contributed: its 32 bytes are in the key.
  const person = copy("calabresella, a person's seat with its contribution");
  assert.equal(person.meta.deals.contributions[0].length, 64);
});

test("a tampered record fails, naming the hand and the place", () => {
  // Two cards of hand 1 change seats: seat 0's cards are the first that differ.
  const swapped = copy("calabresella, a person's seat with its contribution");
  const h1 = swapped.hands[1].deal.hands;
  [h1[0][0], h1[2][0]] = [h1[2][0], h1[0][0]];
  assert.equal(
    failure(checkDeals(swapped)),
    "hand 1: seat 0's cards differs from the derived deal",
  );
  const c = checkDeals(swapped);
  assert.deepEqual(c.status === "failed" && c.problem, {
    kind: "deal",
    hand: 1,
    part: "seat",
    seat: 0,
  });

  // The monte in another order.
  const monte = copy("calabresella with four players (an idle dealer)");
  monte.hands[0].deal.monte.reverse();
  assert.equal(
    failure(checkDeals(monte)),
    "hand 0: the monte differs from the derived deal",
  );

  // A card of the stock exchanged with one of a hand, in the last hand.
  const stock = copy("tressette in due (a stock)");
  const last = stock.hands.length - 1;
  const d = stock.hands[last].deal;
  [d.hands[1][3], d.stock[5]] = [d.stock[5], d.hands[1][3]];
  assert.equal(
    failure(checkDeals(stock)),
    `hand ${last}: seat 1's cards differs from the derived deal`,
  );
  const onlyStock = copy("tressette in due (a stock)");
  onlyStock.hands[0].deal.stock.reverse();
  assert.equal(
    failure(checkDeals(onlyStock)),
    "hand 0: the stock differs from the derived deal",
  );

  // Another secret: it does not hash to the commitment.
  const secret = copy("briscola chiamata");
  secret.meta.deals.secret = "00".repeat(32);
  assert.equal(
    failure(checkDeals(secret)),
    `the secret does not match the commitment ${secret.meta.deals.commitment}`,
  );

  // Another secret with its own commitment: the deals are not that secret's.
  const both = copy("briscola chiamata");
  const other = new Uint8Array(32).fill(9);
  both.meta.deals.secret = toHex(other);
  both.meta.deals.commitment = commitmentOf(other);
  assert.match(
    failure(checkDeals(both)),
    /^(first dealer: |hand 0: seat \d's cards differs)/,
  );

  // A contribution changed after the fact.
  const contribution = copy(
    "calabresella, a person's seat with its contribution",
  );
  contribution.meta.deals.contributions[0] = "00".repeat(32);
  assert.match(
    failure(checkDeals(contribution)),
    /^(first dealer: |hand 0: seat \d's cards differs)/,
  );

  // A later hand's dealer changed: its blocks go to other seats.
  const dealer = copy("briscola chiamata");
  dealer.hands[2].dealer = (dealer.hands[2].dealer + 1) % 5;
  assert.match(failure(checkDeals(dealer)), /^hand 2: seat \d's cards differs/);

  // A seeded record's cards are checked against its seed too.
  const seeded = copy("seeded tressette in due");
  const s1 = seeded.hands[1].deal.hands;
  [s1[0][0], s1[1][0]] = [s1[1][0], s1[0][0]];
  assert.equal(
    failure(checkDeals(seeded)),
    "hand 1: seat 0's cards differs from the derived deal",
  );
  seeded.meta.deals.seed = "8";
  assert.match(failure(checkDeals(seeded)), /^hand 0: /);
});

test("the first dealer must be the one hand 0 draws, unless the table named him", () => {
  const r = copy("tressette");
  const drawn = r.first_dealer;
  r.first_dealer = (drawn + 1) % 4;
  r.hands[0].dealer = r.first_dealer;
  assert.equal(
    failure(checkDeals(r)),
    `first dealer: the record says seat ${r.first_dealer}, the scheme draws seat ${drawn}`,
  );
  // Named by the table: not checked against the draw (the cards still are).
  r.meta.deals.first_dealer = "given";
  assert.match(failure(checkDeals(r)), /^hand 0: seat \d's cards differs/);
  assert.equal(
    checkDeals(copy("calabresella, the first dealer given")).status,
    "verified",
  );
});

test("a match in play is pending (committed) or seeded; malformed records fail", () => {
  const playing = copy("tressette");
  playing.meta.deals.secret = null;
  playing.meta.deals.contributions = null;
  assert.deepEqual(checkDeals(playing), {
    status: "pending",
    commitment: playing.meta.deals.commitment,
  });
  assert.equal(
    summary(checkDeals(playing)),
    "deals are verified when the match ends",
  );

  const seededPlaying = copy("seeded calabresella");
  seededPlaying.meta.deals.seed = null;
  assert.deepEqual(checkDeals(seededPlaying), {
    status: "seeded",
    hands: 0,
    seed: undefined,
  });
  assert.equal(
    summary(checkDeals(seededPlaying)),
    "seeded by the creator: reproducible, not committed",
  );

  // A record written before the committed scheme names only its seed.
  const legacy = copy("seeded calabresella");
  legacy.meta.seed = Number(legacy.meta.deals.seed);
  delete legacy.meta.deals;
  assert.equal(checkDeals(legacy).status, "seeded");

  const none = copy("tressette");
  delete none.meta.deals;
  assert.equal(
    failure(checkDeals(none)),
    "the record's meta.deals is missing or malformed",
  );
  const unknown = copy("tressette");
  unknown.meta.deals.scheme = "calabresella-deal/9";
  assert.equal(
    failure(checkDeals(unknown)),
    'the deal scheme "calabresella-deal/9" is not one this page knows',
  );
  const short = copy("tressette");
  short.meta.deals.contributions.pop();
  assert.equal(
    failure(checkDeals(short)),
    "the record's meta.deals.contributions is missing or malformed",
  );
  const long = copy("tressette");
  long.meta.deals.contributions[1] = "ab".repeat(65);
  assert.equal(
    failure(checkDeals(long)),
    "the record's meta.deals.contributions[1] is missing or malformed",
  );
  assert.equal(checkDeals(null).status, "failed");
  assert.equal(checkDeals({ game: "poker", players: 3 }).status, "failed");
});

test("the page words the first mismatch in its language, seats and hands from 1", () => {
  const swapped = copy("calabresella, a person's seat with its contribution");
  const h1 = swapped.hands[1].deal.hands;
  [h1[0][0], h1[2][0]] = [h1[2][0], h1[0][0]];
  const c = checkDeals(swapped);
  assert.ok(c.status === "failed");
  const seat = (s: number) => `Seat ${s + 1}`;
  assert.equal(
    problemLabel(translator("en"), c.problem, seat),
    "hand 2: the cards of Seat 1 differ from the derived deal",
  );
  assert.equal(
    problemLabel(translator("it"), c.problem, seat),
    "mano 2: le carte di Seat 1 non sono quelle derivate",
  );
  assert.equal(
    problemLabel(
      translator("en"),
      { kind: "deal", hand: 0, part: "monte" },
      seat,
    ),
    "hand 1: the monte differs from the derived deal",
  );
  assert.equal(
    problemLabel(
      translator("en"),
      { kind: "firstDealer", recorded: 1, derived: 2 },
      seat,
    ),
    "first dealer: the record says Seat 2, the scheme draws Seat 3",
  );
  assert.equal(shortCommitment("ab".repeat(32)), "abababababab…");
});
