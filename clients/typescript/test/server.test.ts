// The client against the real server: the games it describes, options sent as settings and
// echoed back as the typed rules, and an option the game does not have refused with the
// server's own message.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { CalabresellaError, Game, OptionKind } from "../src/index.js";
import { NO_SERVER, startServer, type RealServer } from "./real-server.js";

let server: RealServer | undefined;
before(async () => {
  if (!NO_SERVER) server = await startServer();
});
after(() => server?.close());

test(
  "listGames describes every game and its options",
  { skip: NO_SERVER || false },
  async () => {
    const games = await server!.client.listGames();
    assert.deepEqual(
      games.map((g) => g.name),
      [
        "calabresella",
        "tressette",
        "tressette-in-due",
        "tressette-chiamata",
        "briscola-chiamata",
      ],
    );
    const due = games.find((g) => g.game === Game.TRESSETTE_IN_DUE)!;
    assert.equal(due.defaultPlayers, 2);
    const target = due.options.find((o) => o.key === "target")!;
    assert.equal(target.kind, OptionKind.NUMBER);
    assert.ok(target.min >= 1 && target.max > target.min, "target has bounds");
    assert.equal(target.defaultValue, "21");
    assert.ok(target.doc !== "", "each option says what it does");
    const auction = games
      .find((g) => g.name === "briscola-chiamata")!
      .options.find((o) => o.key === "auction")!;
    assert.equal(auction.kind, OptionKind.CHOICE);
    assert.ok(auction.choices.includes("points"));
    for (const g of games) {
      assert.ok(g.options.length > 0, `${g.name} has options`);
      for (const o of g.options)
        assert.notEqual(o.kind, OptionKind.UNSPECIFIED, `${g.name} ${o.key}`);
    }
  },
);

test(
  "a table made from settings has those options, as the typed rules",
  { skip: NO_SERVER || false },
  async () => {
    const t = await server!.client.createTable({
      game: "tressette-in-due",
      options: { target: "11", accusi: "false", follow_suit_always: "yes" },
      seats: ["random", "random"],
    });
    assert.equal(t.options?.game, Game.TRESSETTE_IN_DUE);
    assert.equal(t.options?.rules.case, "tressette");
    const r = t.options!.rules.value!;
    assert.equal(r.target, 11);
    assert.equal(r.accusi, false);
    assert.equal(r.followSuitAlways, true);
    const c = await server!.client.createTable({
      game: "briscola-chiamata",
      options: ["hands=3", "auction=points"],
    });
    assert.equal(c.options?.rules.case, "chiamata");
    assert.equal(c.options!.rules.value!.hands, 3);
  },
);

test(
  "an option the game does not have, or a bad value, is BAD_OPTIONS with the server's message",
  { skip: NO_SERVER || false },
  async () => {
    for (const [options, says] of [
      [{ colour: "red" }, /unknown option "colour"/],
      [{ target: "zero" }, /target.*"zero"/],
    ] as const) {
      const e = await server!.client
        .createTable({ game: "tressette-in-due", options })
        .then(
          () => assert.fail(`${JSON.stringify(options)} was accepted`),
          (e: unknown) => e,
        );
      assert.ok(e instanceof CalabresellaError, String(e));
      assert.ok(e.is("INVALID_ARGUMENT", "BAD_OPTIONS"), e.message);
      assert.match(e.rawMessage, says);
    }
  },
);
