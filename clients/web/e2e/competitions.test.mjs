// (12) Competitions in the browser. An organiser creates a round robin of two remote bots
// (registered players whose programs play over `Compete`, here the TypeScript client) and a
// built-in bot from the tournaments page with the admin key, watches it to the end, reads the
// standings, the cross-table and the pairings, downloads the CSV and opens a replay and the
// players' pages. A registered player signs in with the player's key, enters a tournament open
// for registration, and finds the sign-in kept in the tab but never in the address.

import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import {
  BIN,
  REPO,
  SEED,
  STEP_MS,
  axeCheck,
  checkMatchOver,
  playMatch,
  rng,
  setup,
  shot,
} from "./harness.mjs";

const dir = mkdtempSync(join(tmpdir(), "calabresella-e2e-competitions-"));
const DB = join(dir, "competition.db");
const ADMIN_KEY = "e2e-admin-key-0123456789abcdef";
writeFileSync(join(dir, "admin.key"), ADMIN_KEY, { mode: 0o600 });
/** Registers a player in the test's database; returns its API key. */
function addPlayer(name) {
  return execFileSync(BIN, ["players", "add", name, "--db", DB], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "ignore"],
  }).trim();
}
const KEYS = {
  "Team Rossi": addPlayer("Team Rossi"),
  "Team Bianchi": addPlayer("Team Bianchi"),
  Carla: addPlayer("Carla"),
};

const { test, server } = setup({
  db: DB,
  serverArgs: ["--admin-key-file", join(dir, "admin.key")],
});

/** The TypeScript client, as an entrant's program would import it. */
const client = await import(
  pathToFileURL(join(REPO, "clients", "typescript", "dist", "src", "node.js"))
    .href
);

/**
 * An entrant's program: plays every table the server schedules for `name` with the first
 * legal action after 150 ms, until `signal` aborts.
 */
function remoteBot(name, signal) {
  const c = client.connectNode(`http://${server().addr}`, {
    apiKey: KEYS[name],
  });
  const games = [];
  const run = (async () => {
    try {
      for await (const a of c.compete(2, { signal })) {
        const seat = c.seat(a.tableId, a.seat, a.seatToken);
        games.push(
          client
            // A little thought per move, so that a table is seen in play.
            .play(
              seat,
              async (turn) => {
                await new Promise((res) => setTimeout(res, 150));
                return turn.legalActions[0];
              },
              { signal },
            )
            .catch(() => {}),
        );
      }
    } catch {
      // Aborted at the end of the test.
    }
    await Promise.all(games);
    c.close();
  })();
  return run;
}

test("an organiser runs a tournament of remote bots from the browser", async (s) => {
  const stop = new AbortController();
  const bots = [
    remoteBot("Team Rossi", stop.signal),
    remoteBot("Team Bianchi", stop.signal),
  ];
  try {
    const page = await s.newPage();
    await s.goto(page, "#/tournaments");
    await page
      .locator("[data-tournaments-empty]")
      .waitFor({ timeout: STEP_MS });
    const form = page.locator("form[data-create-tournament]");
    // A wrong admin key is refused with a clear message and creates nothing.
    await form
      .locator('input[name="admin-key"]')
      .fill("not-the-admin-key-at-all");
    await form.locator('input[name="tournament-name"]').fill("Browser cup");
    await form
      .locator('select[name="tournament-game"]')
      .selectOption("tressette-in-due");
    await form.locator('input[name="target"]').fill("11");
    await form
      .locator('textarea[name="tournament-entrants"]')
      .fill("Team Rossi, Team Bianchi, heuristic");
    await form.locator('input[name="tournament-move-ms"]').fill("3000");
    await shot(page, "tournaments-create.png");
    await form.locator('button[type="submit"]').click();
    await page
      .locator("[data-create-tournament-error]")
      .waitFor({ timeout: STEP_MS });
    assert.match(page.url(), /#\/tournaments$/);
    await axeCheck(page, "the tournaments page");

    await form.locator('input[name="admin-key"]').fill(ADMIN_KEY);
    await form.locator('button[type="submit"]').click();
    await page.waitForURL(/#\/tournament\/tn-/, { timeout: STEP_MS });
    const id = decodeURIComponent(page.url().split("#/tournament/")[1]);
    assert.ok(
      !page.url().includes(ADMIN_KEY),
      "the admin key is not in the address",
    );
    const root = page.locator(`[data-tournament="${id}"]`);
    await root.waitFor({ timeout: STEP_MS });
    // The rules set in the form's fields, as the server keeps them.
    assert.match(
      await root.locator("[data-tournament-rules]").innerText(),
      /target=11\b/,
    );

    // Live: a table in play can be watched while the tournament runs.
    const watch = page
      .locator('[data-tournament-match][data-state="playing"] a[data-watch]')
      .first();
    await watch.waitFor({ timeout: STEP_MS });
    const watchHref = await watch.getAttribute("href");
    await shot(page, "tournament-running.png");
    await axeCheck(page, "a running tournament");
    // Watching a table of the tournament: the table view as a spectator (no seat).
    const viewer = await s.newPage();
    await s.goto(viewer, watchHref);
    const table = viewer.locator("[data-table-id]");
    await table.waitFor({ timeout: STEP_MS });
    assert.equal(await table.getAttribute("data-seat"), "");
    assert.equal(await viewer.locator("[data-hand] [data-card]").count(), 0);
    await viewer.close();

    await page
      .locator(`[data-tournament="${id}"][data-state="finished"]`)
      .waitFor({ timeout: 8 * 60_000 });
    await shot(page, "tournament-finished.png");

    // Three entrants, two seats: three pairings, each finished with a replay.
    const rows = page.locator("tr[data-tournament-match]");
    assert.equal(await rows.count(), 3);
    assert.equal(
      await page
        .locator(
          'tr[data-tournament-match][data-state="finished"] a[data-replay]',
        )
        .count(),
      3,
    );
    for (const name of ["Team Rossi", "Team Bianchi", "heuristic"]) {
      const row = page.locator(`tr[data-standing="${name}"]`);
      await row.waitFor({ timeout: STEP_MS });
      // Every entrant played two matches.
      assert.equal((await row.locator("td").nth(1).textContent()).trim(), "2");
    }
    // The cross-table: each pair met once; the row's result mirrors the column's.
    const cell = (a, b) =>
      page.locator(`td[data-cross="${a}"][data-opponent="${b}"]`).textContent();
    const ab = (await cell("Team Rossi", "Team Bianchi"))
      .split("–")
      .map(Number);
    const ba = (await cell("Team Bianchi", "Team Rossi"))
      .split("–")
      .map(Number);
    assert.equal(ab[0] + ab[1] + ab[2], 1);
    assert.deepEqual(ab, [ba[2], ba[1], ba[0]]);
    await axeCheck(page, "a finished tournament");

    // The standings as CSV, as `tournament export` writes them.
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.locator("[data-download-csv]").click(),
    ]);
    const path = await download.path();
    const { readFileSync } = await import("node:fs");
    const csv = readFileSync(path, "utf8").trim().split("\n");
    assert.equal(
      csv[0],
      "entrant,bot,matches,hands,points,points_per_hand,ci95,wins,rating,timeouts,illegal,disconnects,forfeits",
    );
    assert.equal(csv.length, 4);
    assert.ok(
      csv.some((l) => l.startsWith("heuristic,true,2,")),
      csv.join("\n"),
    );

    // A finished pairing's replay.
    await page
      .locator(
        'tr[data-tournament-match][data-state="finished"] a[data-replay]',
      )
      .first()
      .click();
    await page.waitForURL(/#\/replay\//, { timeout: STEP_MS });
    await page
      .locator("[data-replay][data-steps]")
      .waitFor({ timeout: STEP_MS });

    // The players' pages: a registered player and a built-in bot, told apart.
    await s.goto(page, `#/tournament/${encodeURIComponent(id)}`);
    await page
      .locator('tr[data-standing="Team Rossi"] a[data-player-link]')
      .click();
    const rossi = page.locator('[data-player-page="Team Rossi"]');
    await rossi.waitFor({ timeout: STEP_MS });
    assert.equal(await rossi.getAttribute("data-kind"), "registered");
    const game = rossi.locator('[data-player-game="tressette-in-due"]');
    assert.equal(
      await game.locator("[data-rating-chart]").getAttribute("data-points"),
      "2",
    );
    assert.equal(await rossi.locator("tr[data-player-match]").count(), 2);
    const vsBianchi = rossi.locator('tr[data-opponent="Team Bianchi"] td');
    assert.equal((await vsBianchi.first().textContent()).trim(), "1");
    await shot(page, "player-page.png");
    await axeCheck(page, "a player's page");
    await s.goto(page, "#/player/heuristic%20bot");
    const bot = page.locator('[data-player-page="heuristic bot"]');
    await bot.waitFor({ timeout: STEP_MS });
    assert.equal(await bot.getAttribute("data-kind"), "bot");
    // A name nobody has is a clear message, not an empty page.
    await s.goto(page, "#/player/Nobody%20Here");
    await page.getByRole("alert").waitFor({ timeout: STEP_MS });
  } finally {
    stop.abort();
    await Promise.all(bots);
  }
});

test("a signed-in player enters a tournament; the key stays out of the address", async (s) => {
  // The organiser opens registration (over the API here; the page is tested above).
  const admin = client.connectNode(`http://${server().addr}`, {
    apiKey: ADMIN_KEY,
  });
  const made = await admin.rpc.createTournament({
    name: "Open cup",
    options: client.gameOptions("tressette-in-due"),
    entrants: ["heuristic"],
    deals: 1,
    openRegistration: true,
    startUnixMs: BigInt(Date.now() + 3_600_000),
  });
  admin.close();
  const id = made.tournament.tournamentId;

  const page = await s.newPage();
  await s.goto(page, "#/");
  await page.locator("[data-seek-hint]").waitFor({ timeout: STEP_MS });
  await page.locator("[data-sign-in]").click();
  await axeCheck(page, "the sign-in form");
  await page.locator("[data-sign-in-key]").fill("cbk_" + "0".repeat(64));
  await page.locator("[data-sign-in-form] button[type=submit]").click();
  await page.locator("[data-sign-in-error]").waitFor({ timeout: STEP_MS });
  await page.locator("[data-sign-in-key]").fill(KEYS.Carla);
  await page.locator("[data-sign-in-form] button[type=submit]").click();
  await page.locator('[data-signed-in="Carla"]').waitFor({ timeout: STEP_MS });
  await page.locator("[data-seek]").waitFor({ timeout: STEP_MS });
  await axeCheck(page, "the lobby signed in");

  await s.goto(page, `#/tournament/${encodeURIComponent(id)}`);
  await page.locator("[data-enter-tournament]").waitFor({ timeout: STEP_MS });
  await axeCheck(page, "a tournament open for registration");
  await page.locator("[data-enter-tournament]").click();
  await page.locator("[data-entered]").waitFor({ timeout: STEP_MS });
  assert.ok(
    await page.locator('[data-entrants] [data-player-link="Carla"]').count(),
    "Carla is listed among the entrants",
  );
  // Kept for the tab across a reload, never in the address or the page's text.
  await page.reload();
  await page.locator('[data-signed-in="Carla"]').waitFor({ timeout: STEP_MS });
  assert.ok(!page.url().includes(KEYS.Carla));
  assert.ok(!(await page.content()).includes(KEYS.Carla));
  await page.locator("[data-sign-out]").click();
  await page.locator("[data-sign-in]").waitFor({ timeout: STEP_MS });
  const kept = await page.evaluate(() =>
    sessionStorage.getItem("calabresella.account"),
  );
  assert.equal(kept, null, "signing out forgets the key");
});

test("a signed-in player plays a tournament match in the browser", async (s) => {
  const admin = client.connectNode(`http://${server().addr}`, {
    apiKey: ADMIN_KEY,
  });
  const made = await admin.rpc.createTournament({
    name: "Carla's cup",
    options: client.gameOptions("tressette-in-due", { target: "11" }),
    entrants: ["heuristic"],
    deals: 1,
    openRegistration: true,
    startUnixMs: BigInt(Date.now() + 8_000),
  });
  admin.close();
  const id = made.tournament.tournamentId;

  const page = await s.newPage();
  await s.goto(page, "#/");
  await page.locator("[data-sign-in]").click();
  await page.locator("[data-sign-in-key]").fill(KEYS.Carla);
  await page.locator("[data-sign-in-form] button[type=submit]").click();
  await page.locator('[data-signed-in="Carla"]').waitFor({ timeout: STEP_MS });
  await s.goto(page, `#/tournament/${encodeURIComponent(id)}`);
  await page.locator("[data-enter-tournament]").click();
  await page.locator("[data-compete-start]").click();
  await page.locator("[data-compete]").waitFor({ timeout: STEP_MS });
  await axeCheck(page, "a tournament page while this tab competes");
  // Once the tournament starts, its table opens here, with Carla's seat.
  await page.waitForURL(/#\/table\//, { timeout: STEP_MS });
  const tableId = decodeURIComponent(page.url().split("#/table/")[1]);
  await page
    .locator(`[data-compete-table="${tableId}"]`)
    .waitFor({ timeout: STEP_MS });
  const { final } = await playMatch(page, { random: rng(SEED + 12) });
  checkMatchOver(final);
  await page.locator("[data-compete-stop]").click();
  await page.locator("[data-compete]").waitFor({ state: "detached" });
  await s.goto(page, `#/tournament/${encodeURIComponent(id)}`);
  await page
    .locator(`[data-tournament="${id}"][data-state="finished"]`)
    .waitFor({ timeout: STEP_MS });
  const row = page.locator('tr[data-standing="Carla"]');
  assert.equal((await row.locator("td").nth(1).textContent()).trim(), "1");
  assert.equal(
    await row.locator("td").nth(6).textContent(),
    "0",
    "no timeouts",
  );
});
