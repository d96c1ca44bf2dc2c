// (13) A phone. At 375 px wide, with touch, a registered player signs in, Seeks a match
// against bots from the lobby and plays it to the end by tapping: every card offered is large
// enough to tap, nothing is wider than the screen, and the trick and the scores are on the
// screen without scrolling sideways. Screenshots of each stage go to target/web-e2e/.

import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  BIN,
  SEED,
  STEP_MS,
  checkMatchOver,
  playMatch,
  rng,
  setup,
  shot,
} from "./harness.mjs";

const dir = mkdtempSync(join(tmpdir(), "calabresella-e2e-phone-"));
const DB = join(dir, "phone.db");
const KEY = execFileSync(BIN, ["players", "add", "Pia", "--db", DB], {
  encoding: "utf8",
  stdio: ["ignore", "pipe", "ignore"],
}).trim();

const { test } = setup({ db: DB });

const PHONE = {
  viewport: { width: 375, height: 740 },
  deviceScaleFactor: 2,
  isMobile: true,
  hasTouch: true,
};

/** Fails when the page is wider than the screen (something would need sideways scrolling). */
async function fitsTheWidth(page, where) {
  const { scroll, width } = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    width: window.innerWidth,
  }));
  assert.ok(
    scroll <= width,
    `${where}: the page is ${scroll} px wide on a ${width} px screen`,
  );
}

/** Fails unless `sel` is shown within the screen's width. */
async function within(page, sel) {
  const r = await page.locator(sel).first().boundingBox();
  assert.ok(r, `${sel} is shown`);
  assert.ok(
    r.x >= 0 && r.x + r.width <= 375.5,
    `${sel} is cut off: ${JSON.stringify(r)}`,
  );
}

test("a phone: sign in, seek a match against bots and play it to the end by tapping", async (s) => {
  const ctx = await s.newContext(PHONE);
  const page = await s.newPage(ctx);
  await s.goto(page, "#/");
  await fitsTheWidth(page, "the lobby");
  await page.locator("[data-sign-in]").tap();
  await within(page, "[data-sign-in-form]");
  await shot(page, "phone-sign-in.png");
  await page.locator("[data-sign-in-key]").fill(KEY);
  await page.locator("[data-sign-in-form] button[type=submit]").tap();
  await page.locator('[data-signed-in="Pia"]').waitFor({ timeout: STEP_MS });
  const seek = page.locator("[data-seek]");
  await seek
    .locator('select[name="seek-game"]')
    .selectOption("tressette-in-due");
  await seek.locator('input[name="seek-against"][value="bots"]').check();
  await shot(page, "phone-lobby-signed-in.png");
  await seek.locator("[data-seek-submit]").tap();
  await page.locator('[data-seek="waiting"]').waitFor({ timeout: STEP_MS });
  await page.waitForURL(/#\/table\//, { timeout: STEP_MS });
  await page.locator("[data-table-id]").first().waitFor({ timeout: STEP_MS });

  let checkedPlay = false;
  const random = rng(SEED + 41);
  const { final, clicked } = await playMatch(page, {
    random,
    touch: true,
    onState: async (st) => {
      if (checkedPlay || st.phase !== "play" || !st.actions.length) return;
      checkedPlay = true;
      await fitsTheWidth(page, "the table mid-hand");
      // Cards to tap: at least 44 CSS px wide, wholly on the screen.
      const boxes = await page
        .locator("[data-hand] [data-card]")
        .evaluateAll((els) =>
          els.map((e) => {
            const r = e.getBoundingClientRect();
            return { w: r.width, h: r.height, left: r.left, right: r.right };
          }),
        );
      assert.ok(boxes.length > 0, "the hand's cards are buttons");
      for (const b of boxes) {
        assert.ok(
          b.w >= 44 && b.h >= 44,
          `a card is ${b.w}x${b.h} px: too small to tap`,
        );
        assert.ok(
          b.left >= 0 && b.right <= 375,
          `a card sticks out: ${b.left}..${b.right}`,
        );
      }
      await within(page, "[data-trick]");
      await shot(page, "phone-table-mid-hand.png");
    },
  });
  assert.ok(checkedPlay, "the match reached the play of cards");
  assert.ok(clicked > 10, `only ${clicked} taps`);
  checkMatchOver(final);
  await fitsTheWidth(page, "the table at the end");
  await within(page, "table[data-scores]");
  await within(page, "[data-match-over]");
  await shot(page, "phone-match-over.png");

  // The finished match is on the player's own page, with its replay.
  await s.goto(page, "#/player/Pia");
  await page
    .locator('[data-player-page="Pia"] tr[data-player-match]')
    .first()
    .waitFor({
      timeout: STEP_MS,
    });
  await fitsTheWidth(page, "the player's page");
  await shot(page, "phone-player-page.png");
});
