// The shared harness of the web front end's end-to-end tests (node --test, one file per area).
//
// setup() registers, for the calling test file, a `before` hook that starts the server binary
// (`serve --listen 127.0.0.1:0 --db :memory: --web-dir <repo>/clients/web/dist`, reading the
// address it chose from its output) and launches Debian's headless Chromium once, and an `after`
// hook that closes the browser and kills the server whatever happened. Its `test()` runs each
// test in a fresh browser context and fails the test when any page of that context logged a
// console error or warning, threw an uncaught exception (pageerror), opened a dialog, or sent a
// request anywhere but 127.0.0.1 — even when the test body itself passed. Nothing is
// allow-listed.
//
// The tests see the app only through clients/web/CONTRACT.md (routes, data-* hooks) and what a
// person sees (roles, labels, text).

import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { after, before, test as nodeTest } from "node:test";
import assert from "node:assert/strict";
import { chromium } from "playwright-core";

const here = dirname(fileURLToPath(import.meta.url));
/** The repository root, found from this file (clients/web/e2e/harness.mjs). */
export const REPO = resolve(here, "..", "..", "..");
export const BIN =
  process.env.CALABRESELLA_BIN || join(REPO, "target", "debug", "calabresella");
/** The built app the server serves (E2E_WEB_DIR overrides it, e.g. to try another build). */
export const WEB_DIR =
  process.env.E2E_WEB_DIR || join(REPO, "clients", "web", "dist");
/** E2E_EMBEDDED=1: test the app embedded in the binary (as released) instead of WEB_DIR. */
export const EMBEDDED = process.env.E2E_EMBEDDED === "1";
export const SHOT_DIR = join(REPO, "target", "web-e2e");
export const CHROMIUM = "/usr/bin/chromium";
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** Generous bound for one wait on the page (a bot move, a stream update, a render). */
export const STEP_MS = 60_000;
/** Time limit of one test (a whole match by clicking, with bots playing at delay 0). */
export const TEST_MS = 10 * 60_000;

const require = createRequire(import.meta.url);
/** axe-core's source, evaluated in the page (not a script tag: the page's CSP forbids inline
 * scripts, and the tests never bypass the CSP). */
export const AXE_SOURCE = readFileSync(
  require.resolve("axe-core/axe.min.js"),
  "utf8",
);

// ---------------------------------------------------------------------------------------------
// The server.

/**
 * Starts `calabresella serve` on `listen` (a free loopback port by default) with the database
 * `db` (in memory by default); resolves once it printed its address.
 */
export async function startServer({
  extraArgs = [],
  db = ":memory:",
  listen = "127.0.0.1:0",
} = {}) {
  assert.ok(
    existsSync(BIN),
    `the server binary ${BIN} is missing (cargo build, or set CALABRESELLA_BIN)`,
  );
  assert.ok(
    EMBEDDED || existsSync(join(WEB_DIR, "index.html")),
    `the app is not built: ${join(WEB_DIR, "index.html")} is missing`,
  );
  const args = [
    "serve",
    "--listen",
    listen,
    "--db",
    db,
    ...(EMBEDDED ? [] : ["--web-dir", WEB_DIR]),
    // Every test creates its tables from this one address.
    "--max-creates-per-client-per-minute",
    "0",
    ...extraArgs,
  ];
  const proc = spawn(BIN, args, {
    cwd: REPO,
    stdio: ["ignore", "pipe", "pipe"],
    // The server's own CALABRESELLA_* settings from the caller's environment (--no-web, a
    // database, JSON logs...) would change what is tested: the flags above say it all.
    env: {
      ...Object.fromEntries(
        Object.entries(process.env).filter(
          ([k]) => !k.startsWith("CALABRESELLA_"),
        ),
      ),
      NO_COLOR: "1",
    },
  });
  // Whatever happens to the test process, the server does not outlive it.
  const killOnExit = () => proc.kill("SIGKILL");
  process.once("exit", killOnExit);

  let log = "";
  const keep = (chunk) => {
    log += chunk.toString();
    if (log.length > 200_000) log = log.slice(-100_000);
  };
  let exited = null;
  const exitPromise = new Promise((res) =>
    proc.once("exit", (code, signal) => {
      exited = { code, signal };
      res(exited);
    }),
  );

  const addr = await new Promise((res, rej) => {
    const timer = setTimeout(
      () =>
        rej(
          new Error(
            `the server printed no address within 30 s; its output:\n${log}`,
          ),
        ),
      30_000,
    );
    const look = (chunk) => {
      keep(chunk);
      // The server prints `calabresella: listening on 127.0.0.1:PORT` once bound.
      const m = /listening on (127\.0\.0\.1:\d+)/.exec(log);
      if (m) {
        clearTimeout(timer);
        res(m[1]);
      }
    };
    proc.stdout.on("data", look);
    proc.stderr.on("data", look);
    proc.once("exit", (code, signal) => {
      clearTimeout(timer);
      rej(
        new Error(
          `the server exited before listening (${code ?? signal}):\n${log}`,
        ),
      );
    });
    proc.once("error", (e) => {
      clearTimeout(timer);
      rej(e);
    });
  });

  return {
    addr,
    base: `http://${addr}/`,
    /** The server's output so far (for failure messages). */
    log: () => log,
    exited: () => exited,
    async stop() {
      process.removeListener("exit", killOnExit);
      if (exited) return exited;
      proc.kill("SIGTERM");
      const timer = setTimeout(() => proc.kill("SIGKILL"), 5_000);
      const r = await exitPromise;
      clearTimeout(timer);
      return r;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The browser.

export async function launchBrowser() {
  assert.ok(
    existsSync(CHROMIUM),
    `${CHROMIUM} is missing: apt-get install chromium`,
  );
  return chromium.launch({
    executablePath: CHROMIUM,
    args: CHROMIUM_ARGS,
    headless: true,
  });
}

function isLoopback(url) {
  if (/^(data|blob|about):/.test(url)) return true;
  try {
    const u = new URL(url);
    return (
      (u.protocol === "http:" ||
        u.protocol === "https:" ||
        u.protocol === "ws:") &&
      u.hostname === "127.0.0.1"
    );
  } catch {
    return false;
  }
}

/**
 * One test's browser session: every context it opens (and every page in them) is watched for
 * console errors and warnings, uncaught exceptions, dialogs and non-loopback requests.
 */
class Session {
  constructor(browser, base, name) {
    this.browser = browser;
    this.base = base;
    this.name = name;
    this.contexts = [];
    this.issues = [];
    this.dialogs = [];
    this.tolerated = [];
  }

  /**
   * Console messages matching `pattern` are expected from now on (a test that stops the server
   * on purpose expects the browser's failed connections), not issues.
   */
  tolerate(pattern) {
    this.tolerated.push(pattern);
  }

  /** A new isolated browser context (own sessionStorage/localStorage), English by default. */
  async newContext(options = {}) {
    const context = await this.browser.newContext({
      locale: "en-US",
      viewport: { width: 1280, height: 900 },
      ...options,
    });
    this.contexts.push(context);
    context.on("page", (page) => this.#watch(page));
    context.on("request", (req) => {
      if (!isLoopback(req.url()))
        this.issues.push(`request to a non-loopback address: ${req.url()}`);
    });
    return context;
  }

  /** A new page, in a new context unless one is given. */
  async newPage(context) {
    const ctx = context ?? (await this.newContext());
    return ctx.newPage();
  }

  /** Goes to a route of the app (`#/`, `#/table/<id>`, ...). */
  async goto(page, hash = "#/") {
    await page.goto(new URL(hash, this.base).href, { waitUntil: "load" });
  }

  #watch(page) {
    const where = () => {
      try {
        return page.url();
      } catch {
        return "?";
      }
    };
    page.on("console", (msg) => {
      const type = msg.type();
      if (
        (type === "error" || type === "warning") &&
        !this.tolerated.some((p) => p.test(msg.text()))
      ) {
        const loc = msg.location();
        const at =
          loc && loc.url
            ? ` (${loc.url}:${loc.lineNumber}:${loc.columnNumber})`
            : "";
        this.issues.push(`console ${type} on ${where()}: ${msg.text()}${at}`);
      }
    });
    page.on("pageerror", (err) => {
      this.issues.push(
        `uncaught exception on ${where()}: ${err.stack || err.message || err}`,
      );
    });
    page.on("dialog", async (dialog) => {
      this.dialogs.push(`${dialog.type()}: ${dialog.message()}`);
      this.issues.push(
        `a ${dialog.type()} dialog opened on ${where()}: ${dialog.message()}`,
      );
      await dialog.dismiss().catch(() => {});
    });
  }

  /** Screenshots of every open page, for a failed test. */
  async failureShots() {
    const safe = this.name
      .replace(/[^a-z0-9]+/gi, "-")
      .replace(/^-|-$/g, "")
      .toLowerCase();
    let i = 0;
    const names = [];
    for (const ctx of this.contexts) {
      for (const page of ctx.pages()) {
        const file = `failed-${safe}-${i++}.png`;
        try {
          await shot(page, file);
          names.push(file);
        } catch {
          // The page may be gone (crashed or closed): nothing to show.
        }
      }
    }
    return names;
  }

  async close() {
    for (const ctx of this.contexts) await ctx.close().catch(() => {});
  }
}

/**
 * Registers the file's server and browser; returns `{ test, server(), base() }`. `test(name,
 * fn, { timeout })` gives `fn` a Session (`s.newPage()`, `s.goto(page, hash)`, `s.base`).
 */
export function setup({ serverArgs = [], db = ":memory:" } = {}) {
  const env = { server: null, browser: null };
  before(async () => {
    mkdirSync(SHOT_DIR, { recursive: true });
    env.server = await startServer({ extraArgs: serverArgs, db });
    env.browser = await launchBrowser();
  });
  after(async () => {
    if (env.browser) await env.browser.close().catch(() => {});
    if (env.server) await env.server.stop();
  });

  function test(name, fn, { timeout = TEST_MS } = {}) {
    nodeTest(name, { timeout }, async () => {
      assert.ok(
        env.server && env.browser,
        "the server or the browser did not start",
      );
      if (env.server.exited()) {
        assert.fail(
          `the server had exited (${JSON.stringify(env.server.exited())}):\n${env.server.log().slice(-4000)}`,
        );
      }
      const s = new Session(env.browser, env.server.base, name);
      let failure = null;
      try {
        await fn(s);
      } catch (e) {
        failure = e;
      }
      if (failure) {
        const files = await s.failureShots();
        if (files.length)
          console.log(
            `e2e: ${name}: screenshots of the failure in ${SHOT_DIR}: ${files.join(", ")}`,
          );
      }
      await s.close();
      const ex = env.server.exited();
      const serverNote = ex
        ? `\nthe server exited (${JSON.stringify(ex)}):\n${env.server.log().slice(-4000)}`
        : "";
      if (failure) {
        if (s.issues.length || serverNote) {
          failure.message += `\nalso seen in the browser:\n  ${s.issues.join("\n  ")}${serverNote}`;
        }
        throw failure;
      }
      if (s.issues.length)
        assert.fail(
          `the browser reported ${s.issues.length} problem(s) (console errors/warnings, exceptions, dialogs or foreign requests):\n  ${s.issues.join("\n  ")}`,
        );
      assert.ok(!ex, `the server stopped during the test${serverNote}`);
    });
  }

  return {
    test,
    server: () => env.server,
    base: () => env.server.base,
  };
}

// ---------------------------------------------------------------------------------------------
// Helpers on pages.

/** Saves a full-page screenshot under <repo>/target/web-e2e/. */
export async function shot(page, file) {
  mkdirSync(SHOT_DIR, { recursive: true });
  await page.screenshot({ path: join(SHOT_DIR, file), fullPage: true });
  return join(SHOT_DIR, file);
}

/** A small seeded generator (mulberry32): the same seed picks the same actions. */
export function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
export const SEED = Number(process.env.E2E_SEED || 1);

/** A CSS attribute selector with a quoted value. */
export function attr(name, value) {
  return `[${name}=${JSON.stringify(String(value))}]`;
}

/**
 * Everything the contract exposes about the table view, read in one go inside the page (so the
 * values are consistent with each other). This function is serialized into the page: it must
 * not use anything from this module.
 */
function tableSnapshot(prevSig) {
  const root = document.querySelector("[data-table-id]");
  const isEnabled = (el) =>
    !el.disabled && el.getAttribute("aria-disabled") !== "true";
  const all = [...document.querySelectorAll("[data-action]")];
  const actions = all.filter(isEnabled).map((el) => ({
    action: el.getAttribute("data-action"),
    card: el.getAttribute("data-card"),
    tag: el.tagName.toLowerCase(),
  }));
  const disabled = all
    .filter((el) => !isEnabled(el))
    .map((el) => el.getAttribute("data-action"));
  const cards = root
    ? [...root.querySelectorAll("[data-card]")].map((el) => ({
        card: el.getAttribute("data-card"),
        playedBy: el.getAttribute("data-played-by"),
        action: el.getAttribute("data-action"),
        inTrick: !!el.closest("[data-trick]"),
        inRevealed: !!el.closest("[data-hand-revealed]"),
      }))
    : [];
  const trick = [...document.querySelectorAll("[data-trick] [data-card]")].map(
    (el) => ({
      card: el.getAttribute("data-card"),
      playedBy: el.getAttribute("data-played-by"),
    }),
  );
  const over = document.querySelector("[data-match-over]");
  const a = (name) => (root ? root.getAttribute(name) : null);
  const snap = {
    present: !!root,
    tableId: a("data-table-id"),
    state: a("data-state"),
    phase: a("data-phase"),
    decider: a("data-decider"),
    seat: a("data-seat"),
    actions,
    disabled,
    cards,
    trick,
    seats: [...document.querySelectorAll("[data-seat-panel]")].map((el) =>
      el.getAttribute("data-seat-panel"),
    ),
    handRevealed: !!document.querySelector("[data-hand-revealed]"),
    matchOver: over
      ? {
          winners: over.getAttribute("data-winners"),
          text: over.textContent || "",
        }
      : null,
    connection:
      document
        .querySelector("[data-connection]")
        ?.getAttribute("data-status") ?? null,
  };
  snap.sig = JSON.stringify([
    snap.state,
    snap.phase,
    snap.decider,
    actions.map((x) => x.action),
    cards.map((c) => [c.card, c.playedBy, c.action, c.inTrick, c.inRevealed]),
    snap.handRevealed,
    !!over,
  ]);
  // Called with a previous signature (by waitForChange), it answers whether the view changed.
  return typeof prevSig === "string" ? snap.sig !== prevSig : snap;
}

// (Functions, not strings, are passed to the page: Playwright evaluates a string predicate with
// eval, which the page's CSP rightly forbids.)
export async function snapshot(page) {
  return page.evaluate(tableSnapshot, null);
}

/** Waits until this viewer has an enabled action, or the match is over. */
export async function waitForTurnOrOver(page, timeout = STEP_MS) {
  await page.waitForFunction(
    () =>
      !!document.querySelector("[data-match-over]") ||
      [...document.querySelectorAll("[data-action]")].some(
        (el) => !el.disabled && el.getAttribute("aria-disabled") !== "true",
      ),
    null,
    { timeout },
  );
}

/** Waits until the table view differs from the snapshot signature `sig`. */
export async function waitForChange(page, sig, timeout = STEP_MS) {
  await page.waitForFunction(tableSnapshot, sig, { timeout });
}

const PHASES = new Set([
  "",
  "auction",
  "call",
  "return",
  "discard",
  "take",
  "play",
  "over",
]);
const STATES = new Set(["waiting", "playing", "finished", "abandoned"]);

/** Checks what the contract promises of a table view seen by a seated player. */
export function checkPlayerSnapshot(s, expectedSeat) {
  assert.ok(s.present, "the table view ([data-table-id]) is gone");
  assert.ok(STATES.has(s.state), `data-state is ${JSON.stringify(s.state)}`);
  assert.ok(
    PHASES.has(s.phase ?? ""),
    `data-phase is ${JSON.stringify(s.phase)}`,
  );
  assert.match(
    s.seat ?? "",
    /^\d+$/,
    "data-seat is not set on a seated player's table",
  );
  if (expectedSeat !== undefined)
    assert.equal(s.seat, String(expectedSeat), "data-seat changed");
  assert.deepEqual(
    s.disabled,
    [],
    "[data-action] elements must be absent, not disabled, when not legal",
  );
  if (s.actions.length) {
    assert.equal(
      s.decider,
      s.seat,
      `actions are offered (${s.actions.map((a) => a.action).join(", ")}) but data-decider (${s.decider}) is not data-seat (${s.seat})`,
    );
    for (const a of s.actions) {
      const m = /^play (\S+)$/.exec(a.action);
      if (m)
        assert.equal(
          a.card,
          m[1],
          `the element of "${a.action}" must be the card itself, with data-card="${m[1]}"`,
        );
    }
    const own = s.cards.filter(
      (c) => !c.inTrick && !c.inRevealed && !c.playedBy,
    );
    if (s.phase === "play")
      assert.ok(
        own.length > 0,
        "in the play phase, the player's own cards carry data-card",
      );
  }
}

/**
 * Waits until the match is over and the table is drawn (the app may show `[data-match-over]`
 * a moment before the rest of a finished table's view, the seat panels).
 */
export async function waitForMatchOver(page, timeout = 5 * 60_000) {
  await page.waitForFunction(
    () =>
      !!document.querySelector("[data-match-over]") &&
      document.querySelectorAll("[data-seat-panel]").length >= 2,
    null,
    { timeout },
  );
}

/** Checks the `[data-match-over]` element: winners are valid seats. */
export function checkMatchOver(s) {
  assert.ok(s.matchOver, "[data-match-over] is missing");
  const seats = s.seats.length;
  assert.ok(
    seats >= 2,
    `expected one [data-seat-panel] per seat, found ${seats}`,
  );
  const raw = (s.matchOver.winners ?? "").trim();
  assert.notEqual(
    s.matchOver.winners,
    null,
    "[data-match-over] has no data-winners attribute",
  );
  const winners = raw === "" ? [] : raw.split(/\s+/);
  for (const w of winners) {
    assert.match(w, /^\d+$/, `data-winners holds ${JSON.stringify(raw)}`);
    assert.ok(
      Number(w) < seats,
      `winner seat ${w} is not one of the ${seats} seats`,
    );
  }
  assert.equal(
    new Set(winners).size,
    winners.length,
    `data-winners repeats a seat: ${raw}`,
  );
  assert.ok(
    s.matchOver.text.trim().length > 0,
    "[data-match-over] shows no text",
  );
  return winners.map(Number);
}

/**
 * Clicks one of the snapshot's enabled actions (picked with `random` among those `prefer` keeps,
 * or among all when it keeps none) and waits until the view took it in, so that the next
 * decision is never read from a stale view (no double clicks). Returns the action clicked.
 */
export async function clickAction(
  page,
  s,
  random,
  prefer = () => true,
  { touch = false } = {},
) {
  const preferred = s.actions.filter((a) => prefer(a.action));
  const pool = preferred.length ? preferred : s.actions;
  const pick = pool[Math.floor(random() * pool.length)].action;
  const target = page.locator(attr("data-action", pick)).first();
  // A touch screen (a context with `hasTouch`) taps; a mouse clicks.
  if (touch) await target.tap({ timeout: 30_000 });
  else await target.click({ timeout: 30_000 });
  await waitForChange(page, s.sig);
  return pick;
}

/**
 * Plays until the match is over by clicking (or, with `touch`, tapping) legal actions, picked
 * with `random`. Calls
 * `onState(snapshot)` at every decision and at the end. Returns the final snapshot and the
 * number of actions clicked. Fails after `maxSteps` decisions.
 */
export async function playMatch(
  page,
  {
    random,
    maxSteps = 1500,
    expectedSeat,
    onState,
    stopAfter,
    touch = false,
  } = {},
) {
  let clicked = 0;
  for (let step = 0; step < maxSteps; step++) {
    await waitForTurnOrOver(page);
    const s = await snapshot(page);
    if (onState) await onState(s);
    if (s.matchOver) return { final: s, clicked };
    if (!s.actions.length) continue; // the view changed between the wait and the read
    checkPlayerSnapshot(s, expectedSeat);
    if (stopAfter !== undefined && clicked >= stopAfter)
      return { final: s, clicked };
    await clickAction(page, s, random, undefined, { touch });
    clicked++;
  }
  assert.fail(`the match did not end within ${maxSteps} decisions`);
}

// ---------------------------------------------------------------------------------------------
// The lobby form (CONTRACT.md "Lobby hooks").

/**
 * Fills and submits the create-table form from the lobby. `seats` lists `open`, `random` or
 * `heuristic` per seat; `options` maps option keys to values (text fields, selects or
 * checkboxes). Resolves with the table id once the app shows `#/table/<id>`.
 */
export async function createTable(
  s,
  page,
  { game, options = {}, seats, name, botDelayMs = 0 },
) {
  const url = page.url();
  const hash = url.startsWith("http") ? new URL(url).hash : null;
  if (hash === null || !(hash === "" || hash === "#" || hash === "#/"))
    await s.goto(page, "#/");
  const form = page.locator("form[data-create-table]");
  await form.waitFor({ timeout: STEP_MS });
  await form.locator('select[name="game"]').selectOption(game);
  for (const [key, value] of Object.entries(options)) {
    const field = form.locator(`[name=${JSON.stringify(key)}]`);
    await field.first().waitFor({ timeout: STEP_MS });
    const kind = await field
      .first()
      .evaluate((el) => (el.tagName === "SELECT" ? "select" : el.type));
    if (kind === "select") await field.selectOption(String(value));
    else if (kind === "checkbox") await field.setChecked(Boolean(value));
    else await field.fill(String(value));
  }
  for (let i = 0; i < seats.length; i++) {
    const sel = form.locator(`select[name="seat-${i}"]`);
    await sel.waitFor({ timeout: STEP_MS });
    await sel.selectOption(seats[i]);
  }
  assert.equal(
    await form.locator(`select[name="seat-${seats.length}"]`).count(),
    0,
    `the form offers more than ${seats.length} seats for ${game}`,
  );
  if (name !== undefined)
    await form.locator('input[name="player-name"]').fill(name);
  await form.locator('input[name="bot-delay-ms"]').fill(String(botDelayMs));
  await form.locator("button[type=submit]").click();
  await page.waitForURL(/#\/table\/[^/]+$/, { timeout: STEP_MS });
  const id = decodeURIComponent(/#\/table\/([^/]+)$/.exec(page.url())[1]);
  await page.locator(`[data-table-id]`).first().waitFor({ timeout: STEP_MS });
  const shown = await page
    .locator("[data-table-id]")
    .first()
    .getAttribute("data-table-id");
  assert.equal(shown, id, "data-table-id differs from the id in the address");
  return id;
}

/** Runs axe-core on the page; fails on serious or critical violations, printing every one. */
export async function axeCheck(page, label) {
  await page.evaluate(AXE_SOURCE);
  const result = await page.evaluate(() =>
    // eslint-disable-next-line no-undef
    axe.run(document, { resultTypes: ["violations"] }).then((r) =>
      r.violations.map((v) => ({
        id: v.id,
        impact: v.impact,
        help: v.help,
        targets: v.nodes.map((n) => n.target.join(" ")),
      })),
    ),
  );
  for (const v of result) {
    console.log(
      `e2e: axe ${label}: ${v.impact} ${v.id} (${v.help}) at ${v.targets.slice(0, 8).join(" | ")}`,
    );
  }
  const bad = result.filter(
    (v) => v.impact === "serious" || v.impact === "critical",
  );
  assert.deepEqual(
    bad.map(
      (v) =>
        `${v.impact} ${v.id}: ${v.help} at ${v.targets.slice(0, 8).join(" | ")}`,
    ),
    [],
    `axe-core found serious or critical violations on ${label}`,
  );
  return result;
}
