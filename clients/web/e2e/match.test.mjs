// (1) A person creates a table against two bots from the lobby form and plays a whole match by
// clicking legal actions; then a whole match of every other game (Tressette with a partner,
// Tressette in due, Tressette con la Chiamata and Briscola Chiamata with a secret partner).

import assert from "node:assert/strict";
import {
  SEED,
  checkMatchOver,
  createTable,
  playMatch,
  rng,
  setup,
  shot,
  snapshot,
  waitForTurnOrOver,
} from "./harness.mjs";

const { test } = setup();

/**
 * Screenshots taken once each while playing: the table mid-hand with its legal cards (at a
 * moment when some of the player's cards are not playable, so the highlight shows), and the hand
 * revealed at the end of a hand.
 */
function screenshotter(page, prefix) {
  let legalShot = false;
  let anyPlayShot = false;
  let revealedShot = false;
  return {
    async onState(s) {
      const playActions = s.actions.filter((a) => a.action.startsWith("play "));
      const own = s.cards.filter(
        (c) => !c.inTrick && !c.inRevealed && !c.playedBy,
      );
      if (!legalShot && s.phase === "play" && playActions.length) {
        if (playActions.length < own.length) {
          await shot(page, `${prefix}-table-mid-hand-legal-cards.png`);
          legalShot = anyPlayShot = true;
        } else if (!anyPlayShot) {
          await shot(page, `${prefix}-table-mid-hand-legal-cards.png`);
          anyPlayShot = true;
        }
      }
      if (!revealedShot && s.handRevealed) {
        await shot(page, `${prefix}-hand-revealed.png`);
        revealedShot = true;
      }
    },
    get revealedShot() {
      return revealedShot;
    },
    get playShot() {
      return anyPlayShot;
    },
  };
}

async function wholeMatch(s, { game, options, seats, name, prefix, seed }) {
  const page = await s.newPage();
  await s.goto(page, "#/");
  const id = await createTable(s, page, {
    game,
    options,
    seats,
    name,
    botDelayMs: 0,
  });
  const first = await snapshot(page);
  assert.equal(
    first.seat,
    "0",
    "the creator joins the first open seat (seat 0)",
  );
  const shots = screenshotter(page, prefix);
  const { final, clicked } = await playMatch(page, {
    random: rng(seed),
    expectedSeat: 0,
    onState: (st) => shots.onState(st),
  });
  const winners = checkMatchOver(final);
  assert.equal(
    final.seats.length,
    seats.length,
    "one [data-seat-panel] per seat",
  );
  assert.ok(clicked > 0, "the person made no decision");
  assert.ok(shots.playShot, "the play phase never offered a card to play");
  // The last hand ended with the match: its cards are revealed.
  await page
    .locator("[data-hand-revealed]")
    .first()
    .waitFor({ timeout: 10_000 });
  if (!shots.revealedShot) await shot(page, `${prefix}-hand-revealed.png`);
  // The winners' names: when the person won, the text names them.
  if (winners.includes(0))
    assert.ok(
      final.matchOver.text.includes(name),
      `the match-over text should name ${name}`,
    );
  await page.locator("[data-match-over]").scrollIntoViewIfNeeded();
  await shot(page, `${prefix}-match-over.png`);
  const state = await page
    .locator("[data-table-id]")
    .getAttribute("data-state");
  assert.equal(state, "finished", "data-state once the match is over");
  console.log(
    `e2e: ${game} table ${id}: ${clicked} decisions clicked (seed ${seed}), winners [${winners.join(" ")}]`,
  );
}

test("a person plays a whole Calabresella match against a heuristic and a random bot", async (s) => {
  await wholeMatch(s, {
    game: "calabresella",
    options: { target: 3 },
    seats: ["open", "heuristic", "random"],
    name: "Alice E2E",
    prefix: "calabresella",
    seed: SEED,
  });
});

test("a person plays a whole one-hand Briscola Chiamata match against four bots", async (s) => {
  await wholeMatch(s, {
    game: "briscola-chiamata",
    options: { hands: 1 },
    seats: ["open", "heuristic", "random", "heuristic", "random"],
    name: "Bruno E2E",
    prefix: "briscola-chiamata",
    seed: SEED + 1,
  });
});

test("a person plays a whole Tressette match with a bot partner against two bots", async (s) => {
  await wholeMatch(s, {
    game: "tressette",
    options: { target: 5 },
    seats: ["open", "heuristic", "random", "heuristic"],
    name: "Carlo E2E",
    prefix: "tressette",
    seed: SEED + 2,
  });
});

test("a person plays a whole Tressette in due match against a bot", async (s) => {
  await wholeMatch(s, {
    game: "tressette-in-due",
    options: { target: 5 },
    seats: ["open", "heuristic"],
    name: "Dario E2E",
    prefix: "tressette-in-due",
    seed: SEED + 3,
  });
});

test("a person plays a whole Tressette in due match against the search bot", async (s) => {
  await wholeMatch(s, {
    game: "tressette-in-due",
    options: { target: 3 },
    seats: ["open", "pimc"],
    name: "Pia E2E",
    prefix: "tressette-in-due-pimc",
    seed: SEED + 7,
  });
});

test("a person plays a whole Tressette in due match against the strongest bot", async (s) => {
  await wholeMatch(s, {
    game: "tressette-in-due",
    options: { target: 3 },
    seats: ["open", "best"],
    name: "Bruna E2E",
    prefix: "tressette-in-due-best",
    seed: SEED + 8,
  });
});

test("a person plays a whole one-hand Tressette con la Chiamata match against four bots", async (s) => {
  await wholeMatch(s, {
    game: "tressette-chiamata",
    options: { hands: 1 },
    seats: ["open", "random", "heuristic", "random", "heuristic"],
    name: "Elena E2E",
    prefix: "tressette-chiamata",
    seed: SEED + 4,
  });
});

/** The focused element, if it is a card of the player's own hand. */
async function focusedCard(page) {
  return page.evaluate(() => {
    const el = document.activeElement;
    if (!el || !el.closest("[data-hand]")) return null;
    return {
      card: el.getAttribute("data-card"),
      action: el.getAttribute("data-action"),
      label: el.getAttribute("aria-label") ?? "",
    };
  });
}

test("a person plays a whole Tressette in due match with the keyboard alone (Tab, arrows, Enter)", async (s) => {
  const page = await s.newPage();
  await s.goto(page, "#/");
  const id = await createTable(s, page, {
    game: "tressette-in-due",
    options: { target: 5 },
    seats: ["open", "heuristic"],
    name: "Keys E2E",
    botDelayMs: 0,
  });
  let played = 0;
  for (let step = 0; step < 400; step++) {
    await waitForTurnOrOver(page);
    const st = await snapshot(page);
    if (st.matchOver) break;
    if (!st.actions.length) continue;
    // Tab reaches the hand (once: its cards share one tab stop), unless the focus is there.
    let focused = await focusedCard(page);
    for (let i = 0; i < 80 && !focused; i++) {
      await page.keyboard.press("Tab");
      focused = await focusedCard(page);
    }
    assert.ok(focused, "Tab reaches the hand");
    // The arrows move along the hand to a playable card.
    const n = await page.locator("[data-hand] [data-card]").count();
    for (let i = 0; i < n && !focused.action; i++) {
      await page.keyboard.press("ArrowRight");
      focused = await focusedCard(page);
    }
    assert.ok(focused?.action, "the arrows reach a playable card");
    assert.match(focused.label, /\S/, "a card has a name for screen readers");
    await page.keyboard.press("Enter");
    // Enter played the focused card: it leaves the hand.
    await page.waitForFunction(
      (card) =>
        !document.querySelector(`[data-hand] [data-card="${card}"]`) ||
        !!document.querySelector("[data-match-over]"),
      focused.card,
      { timeout: 30_000 },
    );
    played++;
  }
  await page.locator("[data-match-over]").waitFor({ timeout: 60_000 });
  checkMatchOver(await snapshot(page));
  assert.ok(played >= 10, `only ${played} cards played with the keyboard`);
  console.log(
    `e2e: table ${id}: ${played} cards played with the keyboard alone`,
  );
});
