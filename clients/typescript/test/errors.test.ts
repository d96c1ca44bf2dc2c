import { test } from "node:test";
import assert from "node:assert/strict";
import { ConnectError } from "@connectrpc/connect";
import {
  CalabresellaError,
  Code,
  ConnectionLostError,
  Outage,
  backoffDelay,
  refusal,
  retryable,
  toCalabresellaError,
  transient,
  withRetry,
} from "../src/index.js";
import { connectNode } from "../src/node.js";
import { serverError, startFake } from "./fake-server.js";

test("a server error's code, reason and message come through the trailer", async () => {
  const fake = await startFake({
    getTable() {
      throw serverError(
        Code.NotFound,
        "TABLE_NOT_FOUND",
        "no table no-such-table",
      );
    },
  });
  try {
    const e = await fake.client.getTable("no-such-table").then(
      () => assert.fail("no error"),
      (e: unknown) => e,
    );
    assert.ok(e instanceof CalabresellaError);
    assert.equal(e.code, Code.NotFound);
    assert.equal(e.codeName, "NOT_FOUND");
    assert.equal(e.reason, "TABLE_NOT_FOUND");
    assert.equal(e.domain, "calabresella.v1");
    assert.equal(e.rawMessage, "no table no-such-table");
    assert.ok(e.is("NOT_FOUND", "TABLE_NOT_FOUND"));
    assert.match(e.message, /^NOT_FOUND \(TABLE_NOT_FOUND\): no table/);
  } finally {
    await fake.close();
  }
});

test("an error without ErrorInfo has an empty reason", () => {
  const e = toCalabresellaError(new ConnectError("boom", Code.Internal));
  assert.equal(e.reason, "");
  assert.equal(e.fromServer, false);
  assert.equal(e.codeName, "INTERNAL");
});

test("a refused connection is UNAVAILABLE and retryable", async () => {
  const client = connectNode("127.0.0.1:1");
  try {
    const e = await client.getTable("t").then(
      () => assert.fail("no error"),
      (e: unknown) => e,
    );
    assert.ok(e instanceof CalabresellaError);
    assert.equal(e.code, Code.Unavailable);
    assert.ok(retryable(e));
  } finally {
    client.close();
  }
});

test("which failures are retried, resumed or asked again", () => {
  const err = (code: Code, reason = "") =>
    new CalabresellaError(code, "x", reason ? { reason } : {});
  assert.ok(retryable(err(Code.Unavailable)));
  assert.ok(retryable(err(Code.Unavailable, "STORE_READ_ONLY")));
  assert.ok(retryable(err(Code.ResourceExhausted, "RATE_LIMITED")));
  assert.ok(
    retryable(err(Code.Canceled)),
    "a connection broken under the call",
  );
  assert.ok(retryable(err(Code.DeadlineExceeded)), "a call that hung");
  assert.ok(!retryable(err(Code.ResourceExhausted, "TABLE_LOG_FULL")));
  assert.ok(
    !retryable(err(Code.Internal, "SOMETHING")),
    "a server's own error is final",
  );
  for (const c of [
    Code.InvalidArgument,
    Code.FailedPrecondition,
    Code.PermissionDenied,
    Code.Aborted,
  ]) {
    assert.ok(!retryable(err(c, "R")), Code[c]);
  }
  for (const c of [
    Code.Unavailable,
    Code.Canceled,
    Code.ResourceExhausted,
    Code.Internal,
    Code.Unknown,
  ]) {
    assert.ok(transient(err(c)), Code[c]);
  }
  for (const c of [
    Code.InvalidArgument,
    Code.FailedPrecondition,
    Code.PermissionDenied,
    Code.NotFound,
    Code.Aborted,
  ]) {
    assert.ok(!transient(err(c, "R")), Code[c]);
  }
  assert.ok(refusal(err(Code.InvalidArgument, "BAD_ACTION")));
  assert.ok(refusal(err(Code.FailedPrecondition, "ILLEGAL_ACTION")));
  assert.ok(!refusal(err(Code.FailedPrecondition, "NOT_YOUR_TURN")));
  assert.ok(!refusal(err(Code.Aborted, "STALE_DECISION")));
});

test("backoff: 50 ms doubling to 1 s", () => {
  assert.deepEqual(
    [0, 1, 2, 3, 4, 5, 6, 7].map(backoffDelay),
    [50, 100, 200, 400, 800, 1000, 1000, 1000],
  );
});

test("act is resent unchanged on transient failures and gives up after the window", async () => {
  const seen: string[] = [];
  let fail = 2;
  const fake = await startFake({
    act(req) {
      seen.push(`${req.decision} ${req.action?.notation}`);
      if (fail-- > 0) {
        throw fail === 1
          ? serverError(Code.Unavailable, "STORE_FAILED")
          : serverError(Code.ResourceExhausted, "RATE_LIMITED");
      }
      return { action: req.action, duplicate: false };
    },
  });
  try {
    const seat = fake.client.seat("t1", 0, "tok");
    const started = Date.now();
    const r = await seat.act(7n, "play 4c");
    assert.equal(r.action?.notation, "play 4c");
    assert.deepEqual(seen, ["7 play 4c", "7 play 4c", "7 play 4c"]);
    assert.ok(Date.now() - started >= 150, "waited 50 ms then 100 ms");
  } finally {
    await fake.close();
  }
});

test("a refusal is not retried", async () => {
  let calls = 0;
  const fake = await startFake({
    act() {
      calls++;
      throw serverError(Code.Aborted, "STALE_DECISION");
    },
  });
  try {
    const seat = fake.client.seat("t1", 0, "tok");
    await assert.rejects(
      seat.act(1, "pass"),
      (e) => e instanceof CalabresellaError && e.reason === "STALE_DECISION",
    );
    assert.equal(calls, 1);
  } finally {
    await fake.close();
  }
});

test("an outage longer than the window ends the retries with ConnectionLostError", async () => {
  let calls = 0;
  const started = Date.now();
  await assert.rejects(
    withRetry(
      async () => {
        calls++;
        throw new ConnectError("down", Code.Unavailable);
      },
      { outage: new Outage(300), what: "the answer could not be delivered" },
    ),
    (e) =>
      e instanceof ConnectionLostError &&
      /the answer could not be delivered for 0.3 s/.test(e.message),
  );
  const took = Date.now() - started;
  assert.ok(took >= 300 && took < 600, `gave up after ${took} ms`);
  assert.ok(calls >= 4 && calls <= 5, `${calls} calls: 0, 50, 150, 300 ms`);
});

test("an abort stops the retries with the signal's reason", async () => {
  const ctrl = new AbortController();
  setTimeout(() => ctrl.abort(new Error("stop")), 30);
  await assert.rejects(
    withRetry(
      async () => {
        throw new ConnectError("down", Code.Unavailable);
      },
      { signal: ctrl.signal },
    ),
    /stop/,
  );
});
