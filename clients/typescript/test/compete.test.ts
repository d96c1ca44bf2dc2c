/**
 * Compete and Seek against the fake server: assignments arrive in order, refusals are typed,
 * and the API key rides on every call.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { Code } from "@connectrpc/connect";
import { CalabresellaError } from "../src/errors.js";
import { connectNode } from "../src/node.js";
import { serverError, startFake } from "./fake-server.js";

test("compete yields each assignment and seek the seat, with the key", async () => {
  const auth: (string | null)[] = [];
  const fake = await startFake({
    async *compete(req, ctx) {
      auth.push(ctx.requestHeader.get("authorization"));
      if (req.maxTables > 16)
        throw serverError(Code.InvalidArgument, "BAD_COMPETE");
      for (const id of ["t-1", "t-2"]) {
        yield { assignment: { tableId: id, seat: 1, seatToken: `tok-${id}` } };
      }
    },
    async *seek(_req, ctx) {
      auth.push(ctx.requestHeader.get("authorization"));
      yield { event: { case: "waiting", value: { seekers: 1, needed: 2 } } };
      yield {
        event: { case: "seated", value: { tableId: "t-9", seatToken: "tok" } },
      };
    },
  });
  const client = connectNode(fake.address, { apiKey: " cbk_abc " });
  try {
    const got: string[] = [];
    for await (const a of client.compete(2))
      got.push(`${a.tableId}/${a.seatToken}`);
    assert.deepEqual(got, ["t-1/tok-t-1", "t-2/tok-t-2"]);
    await assert.rejects(
      async () => {
        for await (const _ of client.compete(17)) void _;
      },
      (e: unknown) =>
        e instanceof CalabresellaError && e.reason === "BAD_COMPETE",
    );
    const seat = await client.seek({
      game: "tressette-in-due",
      botsAfterMs: 100,
    });
    assert.equal(seat.tableId, "t-9");
    assert.deepEqual(auth, Array(3).fill("Bearer cbk_abc"));
    // The fake's own client sends no key.
    auth.length = 0;
    await fake.client.seek({ game: "calabresella" });
    assert.deepEqual(auth, [null]);
  } finally {
    client.close();
    await fake.close();
  }
});
