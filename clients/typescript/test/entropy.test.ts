/**
 * The player's contribution to the committed deals: join, seek and compete send 32 fresh
 * random bytes by default, the caller's own bytes when given, none with `false`, and refuse
 * bytes out of 1..64 before any call.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import {
  DEFAULT_ENTROPY_BYTES,
  MAX_ENTROPY_BYTES,
  OptionsError,
  entropyBytes,
} from "../src/index.js";
import { startFake } from "./fake-server.js";

/** A fake server that records the entropy of every join, seek and compete. */
async function recording() {
  const sent: { call: string; entropy: Uint8Array }[] = [];
  const fake = await startFake({
    joinTable(req) {
      sent.push({ call: "join", entropy: req.entropy });
      return { seat: req.seat ?? 0, seatToken: "tok" };
    },
    async *seek(req) {
      sent.push({ call: "seek", entropy: req.entropy });
      yield {
        event: { case: "seated", value: { tableId: "t-9", seatToken: "tok" } },
      };
    },
    async *compete(req) {
      sent.push({ call: "compete", entropy: req.entropy });
      yield { assignment: { tableId: "t-1", seat: 0, seatToken: "tok" } };
    },
  });
  return { fake, sent };
}

const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");

test("join, seek and compete send 32 fresh random bytes by default", async () => {
  const { fake, sent } = await recording();
  try {
    const c = fake.client;
    await c.join("t-1", { playerName: "ada" });
    await c.join("t-1", { playerName: "bob", seat: 1 });
    await c.seek({ game: "calabresella" });
    for await (const _ of c.compete(2)) void _;
    for await (const _ of c.compete({ maxTables: 3 })) void _;
    assert.deepEqual(
      sent.map((s) => s.call),
      ["join", "join", "seek", "compete", "compete"],
    );
    for (const s of sent) {
      assert.equal(s.entropy.length, DEFAULT_ENTROPY_BYTES, s.call);
    }
    // Fresh each time: five draws of 256 bits never repeat.
    assert.equal(new Set(sent.map((s) => hex(s.entropy))).size, sent.length);
    assert.ok(
      sent.every((s) => s.entropy.some((b) => b !== 0)),
      "random bytes, not zeros",
    );
  } finally {
    await fake.close();
  }
});

test("the caller's own entropy is sent as it is, and false sends none", async () => {
  const { fake, sent } = await recording();
  try {
    const c = fake.client;
    const mine = new Uint8Array([1, 2, 3]);
    const longest = new Uint8Array(MAX_ENTROPY_BYTES).fill(7);
    await c.join("t-1", { playerName: "ada", entropy: mine });
    await c.join("t-1", { playerName: "ada", entropy: longest });
    await c.join("t-1", { playerName: "ada", entropy: false });
    await c.seek({ game: "calabresella", entropy: new Uint8Array([9]) });
    await c.seek({ game: "calabresella", entropy: false });
    for await (const _ of c.compete({ entropy: new Uint8Array([4, 5]) }))
      void _;
    for await (const _ of c.compete({ maxTables: 1, entropy: false })) void _;
    assert.deepEqual(
      sent.map((s) => `${s.call} ${hex(s.entropy)}`),
      [
        "join 010203",
        `join ${"07".repeat(MAX_ENTROPY_BYTES)}`,
        "join ",
        "seek 09",
        "seek ",
        "compete 0405",
        "compete ",
      ],
    );
  } finally {
    await fake.close();
  }
});

test("entropy of 0 or more than 64 bytes, or not bytes, is refused before any call", async () => {
  const { fake, sent } = await recording();
  try {
    const c = fake.client;
    const refused = (e: unknown) =>
      e instanceof OptionsError && /1 to 64/.test(e.message);
    const bad: unknown[] = [
      new Uint8Array(0),
      new Uint8Array(MAX_ENTROPY_BYTES + 1),
      "0123",
      [1, 2, 3],
      true,
    ];
    for (const entropy of bad) {
      const e = entropy as Uint8Array;
      await assert.rejects(
        c.join("t-1", { playerName: "ada", entropy: e }),
        refused,
      );
      await assert.rejects(
        c.seek({ game: "calabresella", entropy: e }),
        refused,
      );
      await assert.rejects(async () => {
        for await (const _ of c.compete({ entropy: e })) void _;
      }, refused);
    }
    assert.deepEqual(sent, [], "nothing was sent");
    assert.throws(() => entropyBytes(new Uint8Array(65)), /holds 65 bytes/);
    assert.equal(entropyBytes(undefined).length, 32);
    assert.equal(entropyBytes(false).length, 0);
  } finally {
    await fake.close();
  }
});

test("a seeded table's creator key comes back from createTableWithKey and join presents it", async () => {
  const keys: string[] = [];
  const fake = await startFake({
    createTable(req) {
      return {
        table: { tableId: "t-7", seeded: req.seed !== undefined },
        creatorKey: req.seed !== undefined ? "ab".repeat(16) : "",
      };
    },
    joinTable(req) {
      keys.push(req.creatorKey);
      return { seat: req.seat ?? 0, seatToken: "tok" };
    },
  });
  try {
    const c = fake.client;
    const { table, creatorKey } = await c.createTableWithKey({
      game: "calabresella",
      seed: 5,
    });
    assert.ok(table.seeded);
    assert.equal(creatorKey, "ab".repeat(16));
    const plain = await c.createTable({ game: "calabresella" });
    assert.equal(plain.tableId, "t-7");
    await c.join("t-7", { playerName: "ada", creatorKey });
    await c.join("t-7", { playerName: "bob" });
    assert.deepEqual(keys, ["ab".repeat(16), ""]);
  } finally {
    await fake.close();
  }
});
