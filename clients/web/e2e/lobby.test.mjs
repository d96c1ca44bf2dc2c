// (8) Security headers of the page, (9) the language selector, (10) the JavaScript transferred
// by the first load, and the lobby's own screenshot; the rule fields built from the server's
// description of the games (ListGames), and what the forms say when it cannot be had.

import assert from "node:assert/strict";
import { STEP_MS, setup, shot } from "./harness.mjs";

const { test, base } = setup();

/** The directives of a Content-Security-Policy header, by name. */
function parseCsp(header) {
  const out = new Map();
  for (const part of header.split(";")) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name) out.set(name.toLowerCase(), values);
  }
  return out;
}

test("GET / sends a CSP without 'unsafe-inline' scripts and X-Content-Type-Options: nosniff", async () => {
  const res = await fetch(base(), { redirect: "manual" });
  assert.equal(res.status, 200, "GET / answers 200");
  assert.match(
    res.headers.get("content-type") ?? "",
    /^text\/html/,
    "GET / is HTML",
  );
  const csp = res.headers.get("content-security-policy");
  console.log(`e2e: Content-Security-Policy: ${csp}`);
  assert.ok(csp, "GET / has no Content-Security-Policy header");
  const directives = parseCsp(csp);
  // script-src governs scripts; without it, default-src does.
  const scripts = directives.get("script-src") ?? directives.get("default-src");
  assert.ok(
    scripts,
    "the CSP restricts scripts neither with script-src nor with default-src",
  );
  assert.ok(
    !scripts.includes("'unsafe-inline'"),
    `the CSP allows inline scripts: ${scripts.join(" ")}`,
  );
  assert.ok(
    !scripts.includes("*"),
    `the CSP allows scripts from anywhere: ${scripts.join(" ")}`,
  );
  assert.equal(
    (res.headers.get("x-content-type-options") ?? "").toLowerCase(),
    "nosniff",
    "X-Content-Type-Options",
  );
  await res.arrayBuffer();
});

test("the lobby shows the create form and the table list; first load's JavaScript is under 300 KB", async (s) => {
  const context = await s.newContext(); // fresh: nothing cached
  const page = await context.newPage();
  const scripts = [];
  page.on("response", (res) => {
    const type = res.request().resourceType();
    const ctype = res.headers()["content-type"] ?? "";
    if (type === "script" || /javascript/.test(ctype)) {
      scripts.push(
        res
          .request()
          .sizes()
          .then((z) => ({
            url: res.url(),
            encoded: z.responseBodySize,
            headers: z.responseHeadersSize,
          })),
      );
    }
  });
  await s.goto(page, "#/");
  await page.locator("form[data-create-table]").waitFor({ timeout: STEP_MS });
  await page.locator('select[name="game"]').waitFor();
  await page.waitForLoadState("load");
  const sizes = await Promise.all(scripts);
  const total = sizes.reduce((n, x) => n + x.encoded, 0);
  // Cross-check with the Performance API (transferSize includes the headers).
  const perf = await page.evaluate(() =>
    performance
      .getEntriesByType("resource")
      .filter(
        (e) => e.initiatorType === "script" || /\.m?js(\?|$)/.test(e.name),
      )
      .map((e) => ({
        name: e.name,
        transfer: e.transferSize,
        encoded: e.encodedBodySize,
      })),
  );
  const nav = await page.evaluate(() =>
    [...document.scripts].map((x) => x.src || "(inline)"),
  );
  for (const x of sizes)
    console.log(`e2e: js ${x.url}: ${x.encoded} bytes encoded body`);
  console.log(
    `e2e: first load JavaScript: ${total} bytes (${(total / 1024).toFixed(1)} KB) in ${sizes.length} responses; Performance API encodedBodySize sum ${perf.reduce((n, e) => n + e.encoded, 0)} bytes`,
  );
  assert.ok(
    sizes.length > 0,
    `no JavaScript response seen (scripts in the page: ${nav.join(", ")})`,
  );
  assert.ok(
    total < 300 * 1024,
    `the first load transferred ${total} bytes of JavaScript (limit 300 KB)`,
  );

  // The lobby itself: the form's seat selects follow the chosen game.
  const form = page.locator("form[data-create-table]");
  const games = await form
    .locator('select[name="game"] option')
    .evaluateAll((els) => els.map((e) => e.value));
  for (const g of [
    "calabresella",
    "tressette",
    "tressette-in-due",
    "tressette-chiamata",
    "briscola-chiamata",
  ]) {
    assert.ok(
      games.includes(g),
      `the game select offers ${g} (has ${games.join(", ")})`,
    );
  }
  await form.locator('select[name="game"]').selectOption("tressette-in-due");
  await form.locator('select[name="seat-1"]').waitFor();
  await page.waitForFunction(
    () =>
      !document.querySelector('form[data-create-table] select[name="seat-2"]'),
    null,
    { timeout: STEP_MS },
  );
  await form.locator('select[name="game"]').selectOption("briscola-chiamata");
  await form.locator('select[name="seat-4"]').waitFor({ timeout: STEP_MS });
  await form.locator('select[name="game"]').selectOption("calabresella");
  await form.locator('input[name="target"]').waitFor({ timeout: STEP_MS });
  for (const name of ["player-name", "move-ms", "bank-ms", "bot-delay-ms"]) {
    assert.equal(
      await form.locator(`input[name="${name}"]`).count(),
      1,
      `the form has input[name="${name}"]`,
    );
  }
  const timeouts = await form
    .locator('select[name="on-timeout"] option')
    .evaluateAll((els) => els.map((e) => e.value));
  assert.deepEqual(
    timeouts.sort(),
    ["bot", "forfeit"],
    'select[name="on-timeout"]',
  );
  const seatKinds = await form
    .locator('select[name="seat-0"] option')
    .evaluateAll((els) => els.map((e) => e.value));
  assert.deepEqual(
    seatKinds.sort(),
    ["best", "heuristic", "ismcts", "open", "pimc", "random"],
    'select[name="seat-0"]',
  );
  // The rule fields come from the server's description of the game (ListGames): by kind,
  // at the described default, each saying what it does.
  assert.equal(
    await form.locator('input[name="aperta"]').getAttribute("type"),
    "checkbox",
  );
  assert.deepEqual(
    await form
      .locator('select[name="match_end"] option')
      .evaluateAll((els) => els.map((e) => e.value)),
    ["pooled", "individual"],
  );
  const target = form.locator('input[name="target"]');
  assert.equal(await target.inputValue(), "21", "target's described default");
  assert.match((await target.getAttribute("max")) ?? "", /^\d+$/);
  const doc = await target.getAttribute("aria-describedby");
  assert.match(
    await page.locator(`[id="${doc}"]`).innerText(),
    /match/i,
    "target says what it does",
  );
  await shot(page, "lobby.png");
});

test("the forms say why when the server's games cannot be listed, and ask again", async (s) => {
  const page = await s.newPage();
  const listGames = "**/calabresella.v1.TableService/ListGames";
  // The call is refused on purpose: the browser's report of it is expected, not an issue.
  s.tolerate(/ListGames.*ERR_FAILED|Failed to load resource: net::ERR_FAILED/);
  await page.route(listGames, (r) => r.abort());
  await s.goto(page, "#/");
  const failed = page.locator('[data-games="error"]');
  await failed.waitFor({ timeout: STEP_MS });
  assert.match(
    await failed.locator('[role="alert"]').innerText(),
    /games could not be loaded/,
  );
  assert.equal(
    await page.locator("form[data-create-table]").count(),
    0,
    "no form without the games",
  );
  await shot(page, "lobby-no-games.png");
  await page.unroute(listGames);
  await failed.locator("[data-games-retry]").click();
  await page
    .locator('form[data-create-table] input[name="target"]')
    .waitFor({ timeout: STEP_MS });
});

test("the language selector switches the page to Italian and keeps the choice", async (s) => {
  const page = await s.newPage();
  await s.goto(page, "#/");
  await page.locator("form[data-create-table]").waitFor({ timeout: STEP_MS });
  assert.equal(
    await page.locator("html").getAttribute("lang"),
    "en",
    "an English browser gets English",
  );
  const english = await page.locator("body").innerText();
  const select = page.locator("select[data-language]");
  const langs = await select
    .locator("option")
    .evaluateAll((els) => els.map((e) => e.value));
  assert.deepEqual(
    [...langs].sort(),
    ["de", "en", "fr", "it", "nl"],
    "select[data-language] options",
  );
  await select.selectOption("it");
  await page.waitForFunction(
    () => document.documentElement.lang === "it",
    null,
    { timeout: STEP_MS },
  );
  const changed = await page
    .waitForFunction((en) => document.body.innerText !== en, english, {
      timeout: 10_000,
    })
    .then(
      () => true,
      () => false,
    );
  await shot(page, "lobby-italian.png");
  assert.ok(
    changed,
    'after choosing Italian, <html lang> is "it" but the page shows the same text as in English',
  );
  assert.equal(
    await page.evaluate(() => localStorage.getItem("calabresella.language")),
    "it",
  );
  // The choice survives a reload.
  await page.reload({ waitUntil: "load" });
  await page.locator("form[data-create-table]").waitFor({ timeout: STEP_MS });
  assert.equal(
    await page.locator("html").getAttribute("lang"),
    "it",
    "the choice is kept across a reload",
  );
  assert.equal(await page.locator("select[data-language]").inputValue(), "it");
  // Back to English.
  await page.locator("select[data-language]").selectOption("en");
  await page.waitForFunction(
    () => document.documentElement.lang === "en",
    null,
    { timeout: STEP_MS },
  );
});

test("the default language follows the browser's language", async (s) => {
  const page = await s.newPage(await s.newContext({ locale: "it-IT" }));
  await s.goto(page, "#/");
  await page.locator("form[data-create-table]").waitFor({ timeout: STEP_MS });
  assert.equal(
    await page.locator("html").getAttribute("lang"),
    "it",
    "an Italian browser gets Italian",
  );
  assert.equal(await page.locator("select[data-language]").inputValue(), "it");
  const other = await s.newPage(await s.newContext({ locale: "ja-JP" }));
  await s.goto(other, "#/");
  await other.locator("form[data-create-table]").waitFor({ timeout: STEP_MS });
  assert.equal(
    await other.locator("html").getAttribute("lang"),
    "en",
    "a language the app lacks falls back to English",
  );
  // And the words follow: the Italian lobby does not read like the English one.
  const italian = await page.locator("main, body").first().innerText();
  const english = await other.locator("main, body").first().innerText();
  assert.notEqual(
    italian,
    english,
    "an Italian browser's lobby shows the same text as an English one",
  );
});
