// (3) A reload mid-hand resumes the seat, and the seat's token never shows in the address nor
// in localStorage (nor in any request's address).

import assert from "node:assert/strict";
import {
  SEED,
  STEP_MS,
  attr,
  checkPlayerSnapshot,
  clickAction,
  createTable,
  playMatch,
  rng,
  setup,
  snapshot,
  waitForTurnOrOver,
} from "./harness.mjs";

const { test } = setup();

async function tokenChecks(page, id, requested) {
  // CONTRACT.md: the token lives in sessionStorage under calabresella.seat.<id>.
  const raw = await page.evaluate(
    (key) => sessionStorage.getItem(key),
    `calabresella.seat.${id}`,
  );
  assert.ok(raw, `sessionStorage has no calabresella.seat.${id}`);
  const stored = JSON.parse(raw);
  assert.equal(typeof stored.token, "string");
  assert.ok(stored.token.length >= 8, "the stored token looks empty");
  const token = stored.token;
  assert.ok(
    !page.url().includes(token),
    `the token is in the address: ${page.url()}`,
  );
  assert.ok(
    !decodeURIComponent(page.url()).includes(token),
    "the token is in the (decoded) address",
  );
  const local = await page.evaluate(() => {
    const out = [];
    for (let i = 0; i < localStorage.length; i++) {
      const k = localStorage.key(i);
      out.push([k, localStorage.getItem(k)]);
    }
    return out;
  });
  for (const [k, v] of local) {
    assert.ok(
      !k.includes(token) && !(v ?? "").includes(token),
      `localStorage ${k} holds the token`,
    );
  }
  for (const url of requested)
    assert.ok(
      !url.includes(token),
      `a request's address holds the token: ${url}`,
    );
  const history = await page.evaluate(
    () => location.href + " " + document.referrer + " " + document.title,
  );
  assert.ok(
    !history.includes(token),
    "the token shows in location, referrer or title",
  );
  return stored;
}

test("a reload mid-hand resumes the same seat, and the token stays out of the address and localStorage", async (s) => {
  const page = await s.newPage();
  const requested = [];
  page.on("request", (r) => requested.push(r.url()));
  await s.goto(page, "#/");
  // A long match (target 21), so the reload happens mid-hand, not after the end.
  const id = await createTable(s, page, {
    game: "calabresella",
    options: { target: 21 },
    seats: ["open", "heuristic", "random"],
    name: "Dario E2E",
    botDelayMs: 0,
  });
  const random = rng(SEED + 2);
  // Play through the auction into the play phase and lay at least one card (preferring cards).
  let playedCard = false;
  for (let i = 0; i < 200 && !playedCard; i++) {
    await waitForTurnOrOver(page);
    const st = await snapshot(page);
    assert.ok(!st.matchOver, "the match ended before the reload");
    if (!st.actions.length) continue;
    checkPlayerSnapshot(st, 0);
    const pick = await clickAction(page, st, random, (a) =>
      a.startsWith("play "),
    );
    playedCard = pick.startsWith("play ");
  }
  assert.ok(playedCard, "never reached the play phase");
  await waitForTurnOrOver(page);
  const before = await snapshot(page);
  assert.ok(!before.matchOver, "the match ended before the reload");
  checkPlayerSnapshot(before, 0);
  const stored = await tokenChecks(page, id, requested);
  assert.equal(stored.seat, 0, "the stored seat");
  assert.equal(stored.name, "Dario E2E", "the stored name");

  await page.reload({ waitUntil: "load" });
  const root = page.locator(attr("data-table-id", id));
  await root.waitFor({ timeout: STEP_MS });
  await page.waitForFunction(
    () =>
      document.querySelector("[data-table-id]")?.getAttribute("data-seat") !==
      "",
    null,
    { timeout: STEP_MS },
  );
  assert.equal(
    await root.getAttribute("data-seat"),
    "0",
    "after the reload the page holds the same seat",
  );

  // Play continues: an action is offered again and clicking it is taken in.
  await waitForTurnOrOver(page);
  const after = await snapshot(page);
  assert.ok(!after.matchOver, "the match ended across the reload");
  checkPlayerSnapshot(after, 0);
  assert.ok(after.actions.length > 0);
  await clickAction(page, after, random);
  // And the next turn comes round again (the server accepted it; the bots answered).
  const more = await playMatch(page, { random, expectedSeat: 0, stopAfter: 3 });
  if (!more.final.matchOver) checkPlayerSnapshot(more.final, 0);
  await tokenChecks(page, id, requested);
  const conn = await page
    .locator("[data-connection]")
    .getAttribute("data-status");
  assert.equal(conn, "live", "data-connection after the reload");
});
