// (2) A spectator follows an all-bot match: the trick fills with cards marked by who played
// them, no action is ever offered, and the match ends.

import assert from "node:assert/strict";
import {
  STEP_MS,
  attr,
  checkMatchOver,
  createTable,
  setup,
  shot,
  snapshot,
  waitForMatchOver,
} from "./harness.mjs";

const { test } = setup();

/** Records, inside the page, whether an element with data-action ever appears (a
 * MutationObserver set up by the test, not by the app). */
async function watchForActions(page) {
  await page.evaluate(() => {
    const w = window;
    w.__e2eActionSeen =
      document.querySelector("[data-action]")?.getAttribute("data-action") ??
      null;
    new MutationObserver(() => {
      const el = document.querySelector("[data-action]");
      if (el && w.__e2eActionSeen === null)
        w.__e2eActionSeen = el.getAttribute("data-action");
    }).observe(document.documentElement, {
      subtree: true,
      childList: true,
      attributes: true,
      attributeFilter: ["data-action"],
    });
  });
}

test("a spectator follows an all-bot match to its end", async (s) => {
  // The creator: no open seat, so the app shows the table as a spectator.
  const creator = await s.newPage();
  await s.goto(creator, "#/");
  const id = await createTable(s, creator, {
    game: "calabresella",
    options: { target: 3 },
    seats: ["heuristic", "random", "heuristic"],
    name: "Carla E2E",
    botDelayMs: 250,
  });
  assert.equal(
    await creator.locator("[data-table-id]").getAttribute("data-seat"),
    "",
    "the creator of an all-bot table is a spectator",
  );

  // A second page, in its own context (no seat token anywhere), opens the table's address.
  const page = await s.newPage();
  await s.goto(page, `#/table/${encodeURIComponent(id)}`);
  const root = page.locator(attr("data-table-id", id));
  await root.waitFor({ timeout: STEP_MS });
  await watchForActions(page);
  assert.equal(
    await root.getAttribute("data-seat"),
    "",
    "a spectator has an empty data-seat",
  );

  // Cards appear in the trick, each saying who played it.
  const played = page.locator("[data-trick] [data-played-by]");
  await played.first().waitFor({ timeout: STEP_MS });
  const snap = await snapshot(page);
  const seats = snap.seats.length;
  assert.equal(seats, 3, "one [data-seat-panel] per seat");
  await shot(page, "spectator-view.png");
  for (const c of snap.trick) {
    assert.match(
      c.playedBy ?? "",
      /^\d+$/,
      "a trick card's data-played-by is a seat",
    );
    assert.ok(
      Number(c.playedBy) < seats,
      `data-played-by ${c.playedBy} is not a seat`,
    );
    assert.match(c.card ?? "", /^\S+$/, "a trick card carries data-card");
  }

  // Several tricks' worth of cards pass by, every one marked; the match ends.
  const seen = new Set();
  const deadline = Date.now() + 5 * 60_000;
  while (!(await page.locator("[data-match-over]").count())) {
    assert.ok(
      Date.now() < deadline,
      "the all-bot match did not end within 5 minutes",
    );
    const now = await snapshot(page);
    assert.equal(
      now.actions.length + now.disabled.length,
      0,
      "a spectator is offered actions",
    );
    for (const c of now.trick) {
      assert.ok(
        c.playedBy !== null && Number(c.playedBy) < seats,
        `a trick card without a valid data-played-by: ${JSON.stringify(c)}`,
      );
      seen.add(`${c.playedBy}:${c.card}`);
    }
    // Wait for the next change of the view (or the end), not a fixed time.
    await page.waitForFunction(
      (prev) => {
        const t = [...document.querySelectorAll("[data-trick] [data-card]")]
          .map(
            (el) =>
              `${el.getAttribute("data-played-by")}:${el.getAttribute("data-card")}`,
          )
          .join(",");
        return !!document.querySelector("[data-match-over]") || t !== prev;
      },
      now.trick.map((c) => `${c.playedBy}:${c.card}`).join(","),
      { timeout: STEP_MS },
    );
  }
  assert.ok(seen.size >= 3, `the spectator saw only ${seen.size} trick cards`);
  const final = await snapshot(page);
  checkMatchOver(final);
  await shot(page, "spectator-match-over.png");
  const everSeen = await page.evaluate(() => window.__e2eActionSeen);
  assert.equal(
    everSeen,
    null,
    `a [data-action] appeared on the spectator's page: ${everSeen}`,
  );

  // The creator's own (spectator) page reached the end too.
  await creator.locator("[data-match-over]").waitFor({ timeout: STEP_MS });
  assert.equal(await creator.locator("[data-action]").count(), 0);
  console.log(
    `e2e: spectated table ${id}: ${seen.size} distinct trick cards seen`,
  );
});

test("the page keeps up with bots playing at server speed (bot_delay_ms 0) and ends where the server ends", async (s) => {
  const creator = await s.newPage();
  await s.goto(creator, "#/");
  // Tressette in due to 21 between two bots with no pause: a few hundred moves in about a
  // second, each an update the page must apply in order.
  const id = await createTable(s, creator, {
    game: "tressette-in-due",
    options: { target: 21 },
    seats: ["random", "heuristic"],
    name: "Fast E2E",
    botDelayMs: 0,
  });
  await waitForMatchOver(creator, STEP_MS);
  const live = await snapshot(creator);
  checkMatchOver(live);
  // A page opened after the end reads the finished table afresh: the live page ended in the
  // same place (winners and the score table), not behind it.
  const fresh = await s.newPage();
  await s.goto(fresh, `#/table/${encodeURIComponent(id)}`);
  await waitForMatchOver(fresh, STEP_MS);
  const after = await snapshot(fresh);
  assert.equal(live.matchOver.winners, after.matchOver.winners);
  const scores = (page) =>
    page.locator("[data-scores]").first().innerText({ timeout: STEP_MS });
  assert.equal(await scores(creator), await scores(fresh));
  console.log(
    `e2e: fast table ${id}: winners [${live.matchOver.winners}] on the live page and afresh`,
  );
});
