import { test } from "node:test";
import assert from "node:assert/strict";
import { Code } from "../src/index.js";
import { serverError, startFake } from "./fake-server.js";
import { FakeGame, type GameScript } from "./fake-game.js";
import type { Bot } from "../src/index.js";

/** Plays the scripted game with `bot`; the summary and the game. */
async function playScript(script: GameScript, bot: Bot) {
  const game = new FakeGame(script);
  const fake = await startFake(game.service());
  try {
    const seat = fake.client.seat("t1", 0, "tok");
    const summary = await seat.play(bot);
    return { summary, game };
  } finally {
    await fake.close();
  }
}

test("each decision is answered once and the summary counts them", async () => {
  const asked: bigint[] = [];
  const { summary, game } = await playScript({ turns: 3 }, (turn) => {
    asked.push(turn.decision);
    return turn.legalActions[1]!;
  });
  assert.deepEqual(asked, [0n, 1n, 2n]);
  assert.deepEqual(game.acts, ["0 play 2", "1 play 2", "2 play 2"]);
  assert.equal(summary.decisions, 3);
  assert.equal(summary.faults, 0);
  assert.equal(summary.reconnects, 0);
});

test("a refused answer asks the bot again; after 3 refusals the first legal action is played as a fault", async () => {
  const refusedSeen: string[] = [];
  const { summary, game } = await playScript({ turns: 2 }, (turn, ctx) => {
    if (ctx.refused) refusedSeen.push(`${ctx.refusals} ${ctx.refused.reason}`);
    return turn.decision === 0n ? "play 9" : "play 2";
  });
  assert.deepEqual(game.acts, [
    "0 play 9",
    "0 play 9",
    "0 play 9",
    "0 play 1",
    "1 play 2",
  ]);
  assert.deepEqual(refusedSeen, ["1 ILLEGAL_ACTION", "2 ILLEGAL_ACTION"]);
  assert.equal(summary.faults, 1);
  assert.equal(summary.decisions, 2);
});

test("an answer that is not an action plays the first legal action as a fault", async () => {
  const { summary, game } = await playScript(
    { turns: 1 },
    () => 42 as unknown as string,
  );
  assert.deepEqual(game.acts, ["0 play 1"]);
  assert.equal(summary.faults, 1);
  assert.equal(summary.decisions, 1);
});

test("other refusals wait for the stream instead of asking again", async () => {
  let asked = 0;
  const { summary, game } = await playScript(
    {
      turns: 2,
      onAct: (req, g) => {
        if (req.decision === 0n) {
          // The clock answered first: the match moves on without this answer.
          g.advance();
          return serverError(Code.FailedPrecondition, "NOT_YOUR_TURN");
        }
        return undefined;
      },
    },
    (turn) => {
      asked++;
      return turn.legalActions[0]!;
    },
  );
  assert.equal(asked, 2, "once per decision");
  assert.deepEqual(game.acts, ["0 play 1", "1 play 1"]);
  assert.equal(summary.decisions, 1);
  assert.equal(summary.faults, 0);
});

test("a final error (a bad token) stops play with that error", async () => {
  await assert.rejects(
    playScript(
      {
        turns: 1,
        onAct: () => serverError(Code.PermissionDenied, "BAD_TOKEN"),
      },
      (t) => t.legalActions[0]!,
    ),
    (e: unknown) =>
      e instanceof Error && "reason" in e && e.reason === "BAD_TOKEN",
  );
});

test("a dropped stream is resumed after the last update, with its epoch", async () => {
  const { summary, game } = await playScript(
    { turns: 4, dropAfter: 2 },
    (t) => t.legalActions[0]!,
  );
  assert.equal(summary.decisions, 4);
  assert.equal(summary.reconnects, 1);
  assert.equal(game.observeRequests.length, 2);
  assert.equal(game.observeRequests[0]!.resumeAfter, undefined);
  // The first stream carried the snapshot (seq 1) and two updates (2 and 3).
  assert.equal(game.observeRequests[1]!.resumeAfter, 3n);
  assert.equal(game.observeRequests[1]!.streamEpoch, "e1");
});

test("the bot's observation is fetched lazily, once per decision", async () => {
  const game = new FakeGame({ turns: 2 });
  let fetches = 0;
  const fake = await startFake({
    ...game.service(),
    getObservation: () => {
      fetches++;
      return { decision: game.decision, observation: { handNumber: 7 } };
    },
  });
  try {
    const seat = fake.client.seat("t1", 0, "tok");
    const hands: number[] = [];
    await seat.play(async (turn, ctx) => {
      if (turn.decision === 1n) {
        hands.push((await ctx.observation()).handNumber);
        hands.push((await ctx.observation()).handNumber);
      }
      return turn.legalActions[0]!;
    });
    assert.deepEqual(hands, [7, 7]);
    assert.equal(fetches, 1);
  } finally {
    await fake.close();
  }
});

test("play is cancelled by its AbortSignal", async () => {
  const game = new FakeGame({ turns: 5 });
  const fake = await startFake(game.service());
  try {
    const ctrl = new AbortController();
    const seat = fake.client.seat("t1", 0, "tok");
    const played = seat.play(
      async (turn) => {
        if (turn.decision === 2n) ctrl.abort(new Error("stopped by the user"));
        return turn.legalActions[0]!;
      },
      { signal: ctrl.signal },
    );
    await assert.rejects(played, /stopped by the user/);
  } finally {
    await fake.close();
  }
});
