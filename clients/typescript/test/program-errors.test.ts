/**
 * A program's error (a bad argument, a bad game name, a bot's exception) is not a lost
 * connection: it fails at once, unchanged, and is never retried through the outage window.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { ConnectError } from "@connectrpc/connect";
import {
  Code,
  OptionsError,
  Outage,
  SequenceTracker,
  callFailure,
  followUpdates,
  toAction,
  toCalabresellaError,
  toDecision,
  withRetry,
} from "../src/index.js";
import { startFake } from "./fake-server.js";
import { FakeGame } from "./fake-game.js";

/** Rejects unless `promise` settles within `ms`: a program's error must not wait for a window. */
async function within<T>(ms: number, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`still running after ${ms} ms`)),
      ms,
    );
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

test("only a call's failure becomes a CalabresellaError; anything else passes unchanged", () => {
  const bug = new TypeError("x is undefined");
  assert.equal(toCalabresellaError(bug), bug);
  assert.equal(callFailure(bug), false);
  const opt = new OptionsError("unknown game");
  assert.equal(toCalabresellaError(opt), opt);
  assert.equal(callFailure(new ConnectError("down", Code.Unavailable)), true);
});

test("withRetry passes a program's error on at once, after one attempt", async () => {
  let calls = 0;
  const bug = new TypeError("cannot read properties of undefined");
  await assert.rejects(
    within(
      200,
      withRetry(async () => {
        calls++;
        throw bug;
      }),
    ),
    (e) => e === bug,
  );
  assert.equal(calls, 1);
});

test("a stream whose opening throws a program's error fails at once, not resumed", async () => {
  let opens = 0;
  const bug = new RangeError("bad resume point");
  const updates = followUpdates(
    () => {
      opens++;
      throw bug;
    },
    new SequenceTracker(),
    { outage: new Outage(5_000) },
  );
  await assert.rejects(within(200, updates.next()), (e) => e === bug);
  assert.equal(opens, 1);
});

test("act with a blank action or no decision fails at once with a TypeError; nothing is sent", async () => {
  let acts = 0;
  const fake = await startFake({
    act() {
      acts++;
      return {};
    },
  });
  try {
    const seat = fake.client.seat("t1", 0, "tok");
    const bad: [unknown, unknown][] = [
      [0, "  "],
      [undefined, "play Ac"],
      [-1, "pass"],
      [1.5, "pass"],
      ["3", "pass"],
      [2n ** 64n, "pass"],
      [0, 42],
      [0, { notation: "" }],
      [0, null],
    ];
    for (const [decision, action] of bad) {
      const what = `act(${String(decision)}, ${JSON.stringify(action)})`;
      await assert.rejects(
        within(
          200,
          seat.act(decision as number, action as string, {
            outage: new Outage(5_000),
          }),
        ),
        TypeError,
        what,
      );
      // actOnce rejects too (it does not throw before returning its promise).
      const once = seat.actOnce(decision as number, action as string);
      await assert.rejects(once, TypeError, what);
    }
    assert.equal(acts, 0);
  } finally {
    await fake.close();
  }
});

test("decisions are bigints or non-negative safe integers", () => {
  assert.equal(toDecision(7), 7n);
  assert.equal(toDecision(7n), 7n);
  assert.equal(toDecision(2n ** 64n - 1n), 2n ** 64n - 1n);
  assert.throws(() => toDecision(Number.MAX_SAFE_INTEGER + 1), TypeError);
  assert.throws(() => toDecision(-1n), TypeError);
  assert.throws(() => toDecision(Number.NaN), /not NaN/);
});

test("a bad game name in listRecords or getResults throws OptionsError; nothing is sent", async () => {
  let calls = 0;
  const fake = await startFake({
    listRecords() {
      calls++;
      return {};
    },
    getResults() {
      calls++;
      return {};
    },
  });
  try {
    await assert.rejects(
      fake.client.listRecords({ game: "scopa" }),
      (e) =>
        e instanceof OptionsError && /unknown game "scopa"/.test(e.message),
    );
    await assert.rejects(
      fake.client.getResults({ game: "scopa" }),
      OptionsError,
    );
    assert.equal(calls, 0);
    // A good name goes through.
    await fake.client.listRecords({ game: "tressette" });
    assert.equal(calls, 1);
  } finally {
    await fake.close();
  }
});

test("a seat handle with a token or table id of the wrong type is refused at once", async () => {
  const fake = await startFake({});
  try {
    assert.throws(
      () => fake.client.seat("t1", 0, undefined as unknown as string),
      TypeError,
    );
    assert.throws(
      () => fake.client.seat(7 as unknown as string, 0, "tok"),
      TypeError,
    );
    assert.throws(() => fake.client.seat("t1", -1, "tok"), TypeError);
    assert.throws(
      () => fake.client.spectator(7 as unknown as string),
      TypeError,
    );
  } finally {
    await fake.close();
  }
});

test("a bot's TypeError stops play at once with that error", async () => {
  const game = new FakeGame({ turns: 3 });
  const fake = await startFake(game.service());
  try {
    const seat = fake.client.seat("t1", 0, "tok");
    const bug = new TypeError("the bot's own bug");
    await assert.rejects(
      within(
        1_000,
        seat.play(() => {
          throw bug;
        }),
      ),
      (e) => e === bug,
    );
    assert.deepEqual(game.acts, []);
  } finally {
    await fake.close();
  }
});

test("actions from plain objects: a notation or an id", () => {
  assert.equal(toAction({ notation: " pass " })?.notation, "pass");
  assert.equal(toAction({ id: 5 })?.id, 5);
  assert.equal(
    toAction({ notation: "play Ac", extra: 1 })?.notation,
    "play Ac",
  );
  assert.equal(toAction({}), undefined);
  assert.equal(toAction({ notation: 3 }), undefined);
  assert.equal(toAction({ id: -1 }), undefined);
  assert.equal(toAction({ id: 1.5 }), undefined);
});
