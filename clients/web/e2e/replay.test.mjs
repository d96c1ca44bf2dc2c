// (5) Its analysis: asked for on the replay page, each seat's figures and the chart shown, and each
// step's decision valued with the best action highlighted (the best card marked in its hand).
//
// (4) A finished match's replay steps forwards and backwards (buttons and arrow keys) with every
// seat's cards shown; the results page lists the match with a link to its replay, and so does
// the lobby.

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

/** The table id of a finished all-bot match, created once for this file. */
let finishedId = null;

async function finishedMatch(s) {
  if (finishedId) return finishedId;
  const page = await s.newPage();
  await s.goto(page, "#/");
  const id = await createTable(s, page, {
    game: "calabresella",
    options: { target: 3 },
    seats: ["heuristic", "random", "heuristic"],
    name: "Elena E2E",
    botDelayMs: 0,
  });
  await waitForMatchOver(page);
  checkMatchOver(await snapshot(page));
  finishedId = id;
  return id;
}

async function replayState(page) {
  return page.evaluate(() => {
    const r = document.querySelector("[data-replay]");
    if (!r) return null;
    return {
      id: r.getAttribute("data-replay"),
      step: r.getAttribute("data-step"),
      steps: r.getAttribute("data-steps"),
      hand: r.getAttribute("data-hand"),
      seats: [...document.querySelectorAll("[data-seat-cards]")].map((el) => ({
        seat: el.getAttribute("data-seat-cards"),
        cards: [...el.querySelectorAll("[data-card]")].map((c) =>
          c.getAttribute("data-card"),
        ),
      })),
    };
  });
}

async function waitStep(page, step) {
  await page.waitForFunction(
    (want) =>
      document.querySelector("[data-replay]")?.getAttribute("data-step") ===
      String(want),
    step,
    {
      timeout: STEP_MS,
    },
  );
  return replayState(page);
}

function checkSeats(st, label) {
  assert.equal(st.seats.length, 3, `${label}: one [data-seat-cards] per seat`);
  assert.deepEqual(
    st.seats.map((x) => x.seat).sort(),
    ["0", "1", "2"],
    `${label}: [data-seat-cards] for seats 0, 1 and 2`,
  );
}

test("the replay of a finished match steps with the buttons and the arrow keys, every hand revealed", async (s) => {
  const id = await finishedMatch(s);
  const page = await s.newPage();
  await s.goto(page, `#/replay/${encodeURIComponent(id)}`);
  await page.locator(attr("data-replay", id)).waitFor({ timeout: STEP_MS });
  await page.waitForFunction(
    () =>
      /^\d+$/.test(
        document.querySelector("[data-replay]")?.getAttribute("data-steps") ??
          "",
      ),
    null,
    { timeout: STEP_MS },
  );
  let st = await replayState(page);
  const steps = Number(st.steps);
  assert.ok(
    steps > 10,
    `a whole match has more than 10 steps (data-steps ${st.steps})`,
  );
  assert.match(st.step, /^\d+$/, "data-step");
  assert.match(st.hand ?? "", /^\d+$/, "data-hand");

  // To the first step: every seat holds its dealt cards.
  // (At the first step the "first" button may be disabled: nothing before it.)
  const firstButton = page.locator('button[data-replay-step="first"]');
  if (await firstButton.isEnabled()) await firstButton.click();
  await page.waitForFunction(
    () => {
      const b = document.querySelector('button[data-replay-step="first"]');
      const step = document
        .querySelector("[data-replay]")
        ?.getAttribute("data-step");
      return b && (b.disabled || step === "0");
    },
    null,
    { timeout: STEP_MS },
  );
  const first = Number((await replayState(page)).step);
  st = await waitStep(page, first);
  checkSeats(st, "first step");
  // At the start of the first hand (or one step in, after the deal) every seat shows cards.
  if (st.seats.some((x) => x.cards.length === 0)) {
    await page.locator('button[data-replay-step="next"]').click();
    st = await waitStep(page, first + 1);
  }
  for (const x of st.seats)
    assert.ok(
      x.cards.length > 0,
      `seat ${x.seat} shows no cards in the replay (every hand is revealed)`,
    );
  for (const x of st.seats)
    for (const c of x.cards)
      assert.match(c ?? "", /^\S+$/, "each replay card carries data-card");
  const at = Number(st.step);

  // Buttons: next, next, prev.
  await page.locator('button[data-replay-step="next"]').click();
  st = await waitStep(page, at + 1);
  await page.locator('button[data-replay-step="next"]').click();
  st = await waitStep(page, at + 2);
  checkSeats(st, "two steps in");
  await shot(page, "replay.png");
  await page.locator('button[data-replay-step="prev"]').click();
  st = await waitStep(page, at + 1);

  // Keys: ArrowRight twice, ArrowLeft once (focus on the page, not on a form field).
  await page.evaluate(() => document.activeElement?.blur());
  await page.keyboard.press("ArrowRight");
  st = await waitStep(page, at + 2);
  await page.keyboard.press("ArrowRight");
  st = await waitStep(page, at + 3);
  await page.keyboard.press("ArrowLeft");
  st = await waitStep(page, at + 2);
  checkSeats(st, "after the arrow keys");

  // Last: the end of the record; next does not go beyond it.
  await page.locator('button[data-replay-step="last"]').click();
  await page.waitForFunction(
    (f) =>
      Number(
        document.querySelector("[data-replay]")?.getAttribute("data-step"),
      ) > f,
    at + 2,
    { timeout: STEP_MS },
  );
  st = await replayState(page);
  const last = Number(st.step);
  assert.ok(
    last >= steps - 1 && last <= steps,
    `the last step is ${last} of ${steps}`,
  );
  checkSeats(st, "last step");
  const nextAtEnd = page.locator('button[data-replay-step="next"]');
  if (await nextAtEnd.isEnabled()) {
    await nextAtEnd.click();
    assert.equal(
      (await replayState(page)).step,
      String(last),
      "next at the last step stays there",
    );
  }
  await shot(page, "replay-last-step.png");
  console.log(`e2e: replay of ${id}: ${steps} steps`);
});

test("the results page lists the finished match with a link to its replay", async (s) => {
  const id = await finishedMatch(s);
  const page = await s.newPage();
  await s.goto(page, "#/results");
  const link = page.locator(
    `a[href$=${JSON.stringify(`#/replay/${id}`)}], a[href$=${JSON.stringify(`#/replay/${encodeURIComponent(id)}`)}]`,
  );
  await link.first().waitFor({ timeout: STEP_MS });
  assert.ok(
    (await page.getByRole("table").count()) >= 1,
    "the results are shown as a table",
  );
  await shot(page, "results.png");
  await link.first().click();
  await page.locator(attr("data-replay", id)).waitFor({ timeout: STEP_MS });
  assert.ok(
    page.url().endsWith(`#/replay/${id}`) ||
      page.url().endsWith(`#/replay/${encodeURIComponent(id)}`),
    page.url(),
  );
});

test("the lobby lists the finished table with a replay link", async (s) => {
  const id = await finishedMatch(s);
  const page = await s.newPage();
  await s.goto(page, "#/");
  const row = page.locator(attr("data-lobby-table", id));
  await row.waitFor({ timeout: STEP_MS });
  await page.waitForFunction(
    (sel) =>
      document.querySelector(sel)?.getAttribute("data-state") === "finished",
    attr("data-lobby-table", id),
    {
      timeout: STEP_MS,
    },
  );
  assert.equal(
    await row.locator("button[data-join-seat]").count(),
    0,
    "a finished table offers no seat",
  );
  await row.locator("a[data-replay]").click();
  await page.locator(attr("data-replay", id)).waitFor({ timeout: STEP_MS });
});

test("the replay analyses the match: the seats' figures, the chart, each step's values with the best marked", async (s) => {
  const id = await finishedMatch(s);
  const page = await s.newPage();
  await s.goto(page, `#/replay/${encodeURIComponent(id)}`);
  await page.locator("button[data-analyse]").waitFor({ timeout: STEP_MS });
  await page.locator("button[data-analyse]").click();
  await page
    .locator('[data-analysis="done"]')
    .waitFor({ timeout: 4 * STEP_MS });
  assert.equal(
    await page.locator("[data-analysis-seat]").count(),
    3,
    "one row of figures per seat",
  );
  const charted = await page
    .locator("[data-analysis-chart]")
    .getAttribute("data-analysis-chart");
  assert.ok(Number(charted) > 0, `the chart has the decisions (${charted})`);
  // Step forward until a card play's decision is shown: its values are listed, one best
  // action highlighted, and that card marked in the hand of the seat holding it.
  await page
    .locator('button[data-replay-step="first"]')
    .click()
    .catch(() => {});
  let sawDecision = false;
  let sawCard = false;
  for (let i = 0; i < 80 && !sawCard; i++) {
    await page.waitForFunction(
      (want) =>
        document.querySelector("[data-replay]")?.getAttribute("data-step") ===
        String(want),
      i,
      { timeout: STEP_MS },
    );
    const shown = await page.evaluate(() => ({
      decision: document.querySelector("[data-decision]") !== null,
      values: document.querySelectorAll("[data-action-value]").length,
      best: document.querySelectorAll('[data-action-value][data-best="true"]')
        .length,
      bestAction:
        document
          .querySelector('[data-action-value][data-best="true"]')
          ?.getAttribute("data-action-value") ?? "",
      bestCard:
        document
          .querySelector('[data-best-card="true"]')
          ?.getAttribute("data-card") ?? "",
    }));
    if (shown.decision) {
      sawDecision = true;
      assert.ok(shown.values > 1, "a decision with a choice lists its actions");
      assert.equal(shown.best, 1, "exactly one best action highlighted");
      if (shown.bestAction.startsWith("play ")) {
        assert.equal(
          shown.bestCard,
          shown.bestAction.split(" ")[1],
          "the best card is marked",
        );
        sawCard = true;
      }
    }
    await page.locator('button[data-replay-step="next"]').click();
  }
  assert.ok(
    sawDecision && sawCard,
    "a card play's decision was shown with its values",
  );
  await shot(page, "replay-analysis.png");
});
