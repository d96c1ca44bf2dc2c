// Action notation: parsing, labels in each language, and which actions are drawn on cards.
import assert from "node:assert/strict";
import { test } from "node:test";
import { actionLabel, handCardOf, parseAction } from "../src/actions.js";
import { translator } from "../src/i18n/index.js";

test("every action form parses", () => {
  assert.deepEqual(parseAction("pass"), { kind: "pass" });
  assert.deepEqual(parseAction("bid solissimo"), {
    kind: "bid",
    contract: "solissimo",
  });
  assert.deepEqual(parseAction("bid A"), { kind: "bidRank", rank: "A" });
  assert.deepEqual(parseAction("bid 2"), { kind: "bidRank", rank: "2" });
  assert.deepEqual(parseAction("bid 2 80"), { kind: "bidTwoFor", points: 80 });
  assert.deepEqual(parseAction("bid 75"), { kind: "bidPoints", points: 75 });
  assert.deepEqual(parseAction("call 3c"), { kind: "call", card: "3c" });
  assert.deepEqual(parseAction("return 4s"), { kind: "return", card: "4s" });
  assert.deepEqual(parseAction("discard 4b"), { kind: "discard", card: "4b" });
  assert.deepEqual(parseAction("take"), { kind: "take", cards: [] });
  assert.deepEqual(parseAction("take Ad 3c"), {
    kind: "take",
    cards: ["Ad", "3c"],
  });
  assert.deepEqual(parseAction("play Ad"), { kind: "play", card: "Ad" });
  assert.deepEqual(parseAction("play Ad busso"), {
    kind: "play",
    card: "Ad",
    signal: "busso",
  });
  assert.deepEqual(parseAction("shuffle"), { kind: "other", text: "shuffle" });
});

test("labels in English", () => {
  const t = translator("en");
  const cases: [string, string][] = [
    ["pass", "Pass"],
    ["bid chiamo", "Bid Chiamo"],
    ["bid solo", "Bid Solo"],
    ["bid scegliete", "Bid Solissimo scegliete"],
    ["bid A", "Bid Ace"],
    ["bid 2 80", "Bid 2 for 80 points"],
    ["bid 75", "Bid 75 points"],
    ["call 3c", "Call Three of cups"],
    ["return Kd", "Give back King of coins"],
    ["discard 4b", "Discard Four of batons"],
    ["take", "Take nothing"],
    ["take Ad 3c", "Take Ace of coins, Three of cups"],
    ["play Ad", "Play Ace of coins"],
    ["play Ad busso", "Play Ace of coins with busso"],
    ["unknown thing", "unknown thing"],
  ];
  for (const [a, label] of cases) assert.equal(actionLabel(t, a), label, a);
});

test("labels in the other languages name the card", () => {
  assert.equal(
    actionLabel(translator("it"), "play Ad"),
    "Gioca Asso di denari",
  );
  assert.equal(actionLabel(translator("it"), "pass"), "Passo");
  assert.equal(
    actionLabel(translator("de"), "call 3c"),
    "Drei der Becher rufen",
  );
  assert.equal(
    actionLabel(translator("nl"), "discard 4b"),
    "Leg Vier van stokken af",
  );
  assert.equal(
    actionLabel(translator("fr"), "play Ad volo"),
    "Jouer As de deniers avec volo",
  );
});

test("plain plays, discards and returns are drawn on the card itself", () => {
  assert.equal(handCardOf("play Ad"), "Ad");
  assert.equal(handCardOf("discard 4b"), "4b");
  assert.equal(handCardOf("return Kc"), "Kc");
  assert.equal(handCardOf("play Ad busso"), undefined);
  assert.equal(handCardOf("call 3c"), undefined);
  assert.equal(handCardOf("take Ad"), undefined);
  assert.equal(handCardOf("pass"), undefined);
});
