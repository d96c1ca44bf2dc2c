// (3b) A dropped connection resumes the seat: the server stops mid-hand (SIGTERM: its SQLite
// store keeps the table) and starts again on the same port; the page shows that it is
// reconnecting, resumes the seat by itself (no reload, no click), and the match is played on to
// its end.

import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  SEED,
  STEP_MS,
  checkMatchOver,
  createTable,
  playMatch,
  rng,
  setup,
  shot,
  snapshot,
  startServer,
} from "./harness.mjs";

const { test } = setup();

test("a server restart mid-hand: the page reconnects by itself and the seat plays on to the end", async (s) => {
  const dir = mkdtempSync(join(tmpdir(), "calabresella-e2e-restart-"));
  const db = join(dir, "restart.db");
  let server = await startServer({ db });
  try {
    const page = await s.newPage();
    await page.goto(new URL("#/", server.base).href, { waitUntil: "load" });
    const id = await createTable(s, page, {
      game: "calabresella",
      options: { target: 3 },
      seats: ["open", "heuristic", "random"],
      name: "Dora E2E",
      botDelayMs: 0,
    });
    const random = rng(SEED + 7);
    await playMatch(page, { random, expectedSeat: 0, stopAfter: 3 });
    const before = await snapshot(page);
    assert.ok(before.actions.length > 0, "the seat has a decision to make");

    // The browser's failed requests while the server is down are expected, not issues.
    s.tolerate(
      /ERR_CONNECTION_REFUSED|ERR_CONNECTION_RESET|Failed to load resource/,
    );
    const addr = server.addr;
    await server.stop();
    const status = page.locator("[data-connection]");
    await page
      .locator('[data-connection][data-status="reconnecting"]')
      .waitFor({ timeout: STEP_MS });
    await shot(page, "restart-reconnecting.png");
    server = await startServer({ db, listen: addr });
    await page
      .locator('[data-connection][data-status="live"]')
      .waitFor({ timeout: STEP_MS });
    const after = await snapshot(page);
    assert.equal(after.seat, "0", "the same seat after the restart");
    assert.equal(
      await page.locator("[data-table-id]").getAttribute("data-table-id"),
      id,
    );
    assert.deepEqual(
      after.cards.filter((c) => !c.inTrick && !c.playedBy).map((c) => c.card),
      before.cards.filter((c) => !c.inTrick && !c.playedBy).map((c) => c.card),
      "the same hand after the restart",
    );
    const { final, clicked } = await playMatch(page, {
      random,
      expectedSeat: 0,
    });
    checkMatchOver(final);
    // The stream ended with the match (closed), not given up while reconnecting.
    assert.notEqual(await status.getAttribute("data-status"), "reconnecting");
    console.log(
      `e2e: table ${id} survived a server restart; ${clicked} decisions after it`,
    );
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});
