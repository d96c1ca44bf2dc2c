// (11) Committed deals: a person's table shows the commitment it published, in the lobby and at
// the table; the person's join contributed 32 random bytes; once the match is over the replay
// shows the deals verified in the browser from the record. A seeded table is marked seeded in
// the lobby and in its replay; the replay of a match still in play says the deals are verified
// when it ends.

import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import {
  BIN,
  SEED,
  STEP_MS,
  attr,
  checkMatchOver,
  createTable,
  playMatch,
  rng,
  setup,
  shot,
  snapshot,
  waitForMatchOver,
} from "./harness.mjs";

const { test, server } = setup();

const HEX64 = /^[0-9a-f]{64}$/;

/** The table's record as the server gives it (`calabresella table-record`). */
function record(id) {
  const out = execFileSync(BIN, [
    "table-record",
    "--server",
    `http://${server().addr}`,
    id,
  ]);
  return { json: out.toString(), record: JSON.parse(out.toString()) };
}

/** Waits for the replay's deals check to settle (not `checking`); returns its attributes. */
async function dealsCheck(page) {
  await page.waitForFunction(
    () => {
      const d = document.querySelector("[data-deals]");
      return d && d.getAttribute("data-deals") !== "checking";
    },
    null,
    { timeout: STEP_MS },
  );
  return page.evaluate(() => {
    const d = document.querySelector("[data-deals]");
    return {
      status: d.getAttribute("data-deals"),
      text: d.textContent,
      hand: d.getAttribute("data-deals-hand"),
      part: d.getAttribute("data-deals-part"),
    };
  });
}

test("a person's committed match: the commitment shown, the join's entropy recorded, the replay's deals verified", async (s) => {
  const page = await s.newPage();
  await s.goto(page, "#/");
  const id = await createTable(s, page, {
    game: "calabresella",
    options: { target: 3 },
    seats: ["open", "heuristic", "random"],
    name: "Fair E2E",
    botDelayMs: 0,
  });

  // The table view: the commitment, not the seeded mark.
  const mark = page.locator("[data-table-id] [data-commitment]");
  await mark.waitFor({ timeout: STEP_MS });
  const commitment = await mark.getAttribute("data-commitment");
  assert.match(commitment ?? "", HEX64, "data-commitment is 64 hex digits");
  assert.ok(
    (await mark.getAttribute("title")).includes(commitment),
    "the whole commitment is the mark's title",
  );
  assert.ok(
    (await mark.textContent()).includes(commitment.slice(0, 12)),
    "the mark shows the commitment's first digits",
  );
  assert.equal(await page.locator("[data-seeded]").count(), 0);

  // The lobby: the same commitment in the table's row.
  const lobby = await s.newPage();
  await s.goto(lobby, "#/");
  const row = lobby.locator(attr("data-lobby-table", id));
  await row.waitFor({ timeout: STEP_MS });
  assert.equal(
    await row.locator("[data-commitment]").getAttribute("data-commitment"),
    commitment,
    "the lobby shows the table's commitment",
  );
  assert.equal(await row.locator("[data-seeded]").count(), 0);

  const { final } = await playMatch(page, {
    random: rng(SEED),
    expectedSeat: 0,
  });
  checkMatchOver(final);
  await waitForMatchOver(page);

  // The server's record: the person's join contributed 32 bytes, the bots none, and the
  // command-line check agrees.
  const { json, record: r } = record(id);
  const deals = r.meta.deals;
  assert.equal(deals.scheme, "calabresella-deal/1");
  assert.equal(deals.commitment, commitment);
  assert.match(deals.secret ?? "", HEX64, "the secret is revealed");
  assert.match(
    deals.contributions[0],
    HEX64,
    "the person's join sent 32 bytes",
  );
  assert.deepEqual(deals.contributions.slice(1), ["", ""], "bots give none");
  const verified = execFileSync(BIN, ["verify", "-"], { input: json })
    .toString()
    .trim();
  assert.match(verified, /deals verified/);

  // The replay: verified in the browser.
  const replay = await s.newPage();
  await s.goto(replay, `#/replay/${encodeURIComponent(id)}`);
  const check = await dealsCheck(replay);
  assert.equal(check.status, "verified", check.text);
  assert.match(check.text, /Deals verified/);
  assert.ok(check.text.includes(commitment), "the check names the commitment");
  await shot(replay, "replay-deals-verified.png");
  console.log(`e2e: table ${id}: ${verified}`);
});

test("a seeded table is marked seeded in the lobby and its replay", async (s) => {
  const page = await s.newPage();
  await s.goto(page, "#/");
  const form = page.locator("form[data-create-table]");
  await form.waitFor({ timeout: STEP_MS });
  await form.locator('input[name="seed"]').fill("7");
  const id = await createTable(s, page, {
    game: "tressette-in-due",
    options: { target: 5 },
    seats: ["heuristic", "random"],
    botDelayMs: 0,
  });
  await page
    .locator("[data-table-id] [data-seeded]")
    .waitFor({ timeout: STEP_MS });
  assert.equal(await page.locator("[data-commitment]").count(), 0);
  await waitForMatchOver(page);

  const lobby = await s.newPage();
  await s.goto(lobby, "#/");
  const row = lobby.locator(attr("data-lobby-table", id));
  await row.locator("[data-seeded]").waitFor({ timeout: STEP_MS });
  assert.equal(await row.locator("[data-commitment]").count(), 0);

  const replay = await s.newPage();
  await s.goto(replay, `#/replay/${encodeURIComponent(id)}`);
  const check = await dealsCheck(replay);
  assert.equal(check.status, "seeded", check.text);
  assert.match(
    check.text,
    /Seeded by the creator: reproducible, not committed/,
  );
});

test("the replay of a match in play says its deals are verified when it ends", async (s) => {
  const page = await s.newPage();
  await s.goto(page, "#/");
  const id = await createTable(s, page, {
    game: "calabresella",
    options: { target: 3 },
    seats: ["open", "heuristic", "random"],
    name: "Pending E2E",
    botDelayMs: 0,
  });
  const replay = await s.newPage();
  await s.goto(replay, `#/replay/${encodeURIComponent(id)}`);
  const check = await dealsCheck(replay);
  assert.equal(check.status, "pending", check.text);
  assert.match(check.text, /Deals are verified when the match ends/);
  // The table is still in play: nothing was revealed.
  assert.equal(record(id).record.meta.deals.secret, null);
  assert.notEqual((await snapshot(page)).state, "finished");
});
