// (7) axe-core finds no serious or critical accessibility violation on the lobby, a table
// mid-match (as a player, with legal actions offered), the replay and the results page.
// Every violation found, of any impact, is printed with its id, impact and targets.

import {
  SEED,
  STEP_MS,
  attr,
  clickAction,
  axeCheck,
  createTable,
  rng,
  setup,
  snapshot,
  waitForMatchOver,
  waitForTurnOrOver,
} from "./harness.mjs";

const { test } = setup();

test("axe-core: the lobby", async (s) => {
  const page = await s.newPage();
  await s.goto(page, "#/");
  await page.locator("form[data-create-table]").waitFor({ timeout: STEP_MS });
  await axeCheck(page, "the lobby");
});

test("axe-core: a table mid-match, with the player's legal actions offered", async (s) => {
  const page = await s.newPage();
  await s.goto(page, "#/");
  await createTable(s, page, {
    game: "calabresella",
    options: { target: 21 },
    seats: ["open", "heuristic", "random"],
    name: "Fabio E2E",
    botDelayMs: 0,
  });
  const random = rng(SEED + 3);
  // Into the play phase, so the hand, the trick and the legal cards are all on the page.
  for (let i = 0; i < 100; i++) {
    await waitForTurnOrOver(page);
    const st = await snapshot(page);
    if (st.phase === "play" && st.actions.length) break;
    if (st.actions.length) await clickAction(page, st, random);
  }
  await axeCheck(page, "a table mid-match");
});

test("axe-core: the replay and the results of a finished match", async (s) => {
  const page = await s.newPage();
  await s.goto(page, "#/");
  const id = await createTable(s, page, {
    game: "calabresella",
    options: { target: 3 },
    seats: ["heuristic", "random", "heuristic"],
    name: "Gina E2E",
    botDelayMs: 0,
  });
  await waitForMatchOver(page);
  await axeCheck(page, "a finished table");
  await s.goto(page, `#/replay/${encodeURIComponent(id)}`);
  await page.locator(attr("data-replay", id)).waitFor({ timeout: STEP_MS });
  // One step after the start, where every seat holds its dealt cards.
  const firstButton = page.locator('button[data-replay-step="first"]');
  if (await firstButton.isEnabled()) await firstButton.click();
  await page.locator('button[data-replay-step="next"]').click();
  await page
    .locator("[data-seat-cards] [data-card]")
    .first()
    .waitFor({ timeout: STEP_MS });
  await axeCheck(page, "the replay");
  await s.goto(page, "#/results");
  await page
    .locator(`a[href$=${JSON.stringify(`#/replay/${id}`)}]`)
    .first()
    .waitFor({ timeout: STEP_MS });
  await axeCheck(page, "the results");
});
