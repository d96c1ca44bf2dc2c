/**
 * The seat handle's secret stays out of logs, and a closed client stays closed: what runs
 * ends with ClientClosedError, what comes later fails with it at once, nothing reconnects.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { inspect } from "node:util";
import { Code } from "@connectrpc/connect";
import { ClientClosedError } from "../src/index.js";
import { serverError, startFake, until } from "./fake-server.js";
import { FakeGame } from "./fake-game.js";

const TOKEN = "s3cr3t-t0ken-4f9a";

test("logging a seat, or a bot's context holding it, never shows the token", async () => {
  const fake = await startFake({});
  try {
    const seat = fake.client.seat("t-17", 2, TOKEN);
    assert.equal(seat.token, TOKEN, "the getter gives it to the program");
    const shown = inspect(seat, { depth: 5, showHidden: true });
    assert.ok(!shown.includes(TOKEN), shown);
    assert.match(shown, /t-17/);
    assert.match(shown, /seat: 2/);
    const ctx = inspect({ seat, refusals: 0 }, { depth: 5 });
    assert.ok(!ctx.includes(TOKEN), ctx);
    const json = JSON.stringify({ seat });
    assert.ok(!json.includes(TOKEN), json);
    assert.deepEqual(JSON.parse(json), { seat: { tableId: "t-17", seat: 2 } });
    assert.ok(!Object.keys(seat).includes("token"));
  } finally {
    await fake.close();
  }
});

test("close() ends a running play waiting on its stream, without reconnecting", async () => {
  // Decision 1's answer is taken by "the clock" and nothing follows: play waits on the stream.
  const game = new FakeGame({
    turns: 50,
    onAct: (req) =>
      req.decision === 1n
        ? serverError(Code.FailedPrecondition, "NOT_YOUR_TURN")
        : undefined,
  });
  const fake = await startFake(game.service());
  try {
    const seat = fake.client.seat("t1", 0, TOKEN);
    const played = seat.play((turn) => turn.legalActions[0]!);
    await until(() => game.acts.length >= 2);
    await new Promise((r) => setTimeout(r, 20));
    fake.client.close();
    const started = Date.now();
    await assert.rejects(played, ClientClosedError);
    assert.ok(Date.now() - started < 500, "at once, not after a window");
    const streams = game.observeRequests.length;
    await new Promise((r) => setTimeout(r, 150));
    assert.equal(game.observeRequests.length, streams, "no stream reopened");
    assert.equal(fake.client.closed, true);
  } finally {
    await fake.close();
  }
});

test("close() while the bot thinks ends play before its answer is sent", async () => {
  const game = new FakeGame({ turns: 5 });
  const fake = await startFake(game.service());
  try {
    const seat = fake.client.seat("t1", 0, TOKEN);
    const played = seat.play((turn, ctx) => {
      if (turn.decision === 1n) {
        fake.client.close();
        assert.ok(ctx.signal.aborted, "the bot's signal follows the close");
      }
      return turn.legalActions[0]!;
    });
    await assert.rejects(played, ClientClosedError);
    assert.deepEqual(game.acts, ["0 play 1"]);
  } finally {
    await fake.close();
  }
});

test("close() stops an act retrying through an outage", async () => {
  let acts = 0;
  const fake = await startFake({
    act() {
      acts++;
      throw serverError(Code.Unavailable, "STORE_FAILED");
    },
  });
  try {
    const seat = fake.client.seat("t1", 0, TOKEN);
    const sent = seat.act(0, "pass");
    await until(() => acts >= 2);
    const started = Date.now();
    fake.client.close();
    await assert.rejects(sent, ClientClosedError);
    assert.ok(Date.now() - started < 100, "the backoff is cut short");
  } finally {
    await fake.close();
  }
});

test("after close() every call, stream and play fails at once with ClientClosedError", async () => {
  const game = new FakeGame({ turns: 3 });
  let calls = 0;
  const fake = await startFake({
    ...game.service(),
    getTable() {
      calls++;
      return {};
    },
  });
  const { client } = fake;
  try {
    const seat = client.seat("t1", 0, TOKEN);
    client.close();
    client.close(); // twice is harmless
    await assert.rejects(client.getTable("t1"), ClientClosedError);
    await assert.rejects(client.listTables(), ClientClosedError);
    await assert.rejects(seat.act(0, "pass"), ClientClosedError);
    await assert.rejects(seat.observation(), ClientClosedError);
    await assert.rejects(seat.updates().next(), ClientClosedError);
    await assert.rejects(client.spectate("t1").next(), ClientClosedError);
    await assert.rejects(
      seat.play((t) => t.legalActions[0]!),
      (e) =>
        e instanceof ClientClosedError && e.message === "the client is closed",
    );
    assert.equal(calls, 0);
    assert.equal(game.observeRequests.length, 0);
    assert.deepEqual(game.acts, []);
  } finally {
    await fake.close();
  }
});

test("a bot may answer with a plain object holding the notation", async () => {
  const game = new FakeGame({ turns: 2 });
  const fake = await startFake(game.service());
  try {
    const seat = fake.client.seat("t1", 0, TOKEN);
    const summary = await seat.play(() => ({ notation: "play 2" }));
    assert.deepEqual(game.acts, ["0 play 2", "1 play 2"]);
    assert.equal(summary.faults, 0);
    assert.equal(summary.decisions, 2);
  } finally {
    await fake.close();
  }
});
