// (5) A player's name is shown as text, never as markup: a name such as
// `<img src=x onerror=alert(1)>` appears literally, no such image exists and no dialog opens.

import assert from "node:assert/strict";
import { STEP_MS, attr, createTable, setup, shot } from "./harness.mjs";

const { test } = setup();

const NASTY = "<img src=x onerror=alert(1)>";

async function checkLiteral(page, where) {
  await page
    .getByText(NASTY, { exact: false })
    .first()
    .waitFor({ timeout: STEP_MS });
  assert.equal(
    await page.locator('img[src="x"]').count(),
    0,
    `${where}: the name became an <img>`,
  );
  // (An attribute such as title="<img ...>" would be harmless; an element is not.)
  assert.equal(
    await page.locator("[onerror]").count(),
    0,
    `${where}: an element with an onerror attribute`,
  );
}

test("a name with markup joins from the lobby and shows as text everywhere", async (s) => {
  // Alice creates a table with two open seats and takes the first.
  const alice = await s.newPage();
  await s.goto(alice, "#/");
  const id = await createTable(s, alice, {
    game: "calabresella",
    options: { target: 3 },
    seats: ["open", "open", "heuristic"],
    name: "Alice E2E",
    botDelayMs: 0,
  });
  assert.equal(
    await alice.locator("[data-table-id]").getAttribute("data-seat"),
    "0",
  );

  // The other person, in another context, joins seat 1 from the lobby with the nasty name.
  const mallory = await s.newPage();
  await s.goto(mallory, "#/");
  const row = mallory.locator(attr("data-lobby-table", id));
  await row.waitFor({ timeout: STEP_MS });
  await mallory
    .locator(
      'form[data-create-table] input[name="player-name"], input[name="player-name"]',
    )
    .first()
    .fill(NASTY);
  await row.locator('button[data-join-seat="1"]').click();
  await mallory.waitForURL(
    new RegExp(`#/table/${id.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`),
    { timeout: STEP_MS },
  );
  const root = mallory.locator(attr("data-table-id", id));
  await root.waitFor({ timeout: STEP_MS });
  await mallory.waitForFunction(
    () =>
      document.querySelector("[data-table-id]")?.getAttribute("data-seat") ===
      "1",
    null,
    {
      timeout: STEP_MS,
    },
  );

  // Seat 1's panel names the player literally, on both players' pages.
  await mallory
    .locator('[data-seat-panel="1"]')
    .getByText(NASTY)
    .first()
    .waitFor({ timeout: STEP_MS });
  await checkLiteral(mallory, "the joiner's table");
  await alice
    .locator('[data-seat-panel="1"]')
    .getByText(NASTY)
    .first()
    .waitFor({ timeout: STEP_MS });
  await checkLiteral(alice, "the creator's table");
  await shot(mallory, "xss-name-as-text.png");

  // A spectator and the lobby list show it as text too.
  const viewer = await s.newPage();
  await s.goto(viewer, `#/table/${encodeURIComponent(id)}`);
  await viewer.locator(attr("data-table-id", id)).waitFor({ timeout: STEP_MS });
  await checkLiteral(viewer, "the spectator's table");
  await s.goto(viewer, "#/");
  const lobbyRow = viewer.locator(attr("data-lobby-table", id));
  await lobbyRow.waitFor({ timeout: STEP_MS });
  if (await lobbyRow.getByText(NASTY).count())
    await checkLiteral(viewer, "the lobby");
  assert.equal(
    await viewer.locator('img[src="x"]').count(),
    0,
    "the lobby: an <img> from the name",
  );
  // The harness fails the test on any dialog (alert) and on any console error (a blocked
  // inline handler or a request for "x" would show there).
  assert.deepEqual(s.dialogs, [], "a dialog opened");
});
