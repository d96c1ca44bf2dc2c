import { test } from "node:test";
import assert from "node:assert/strict";
import {
  CalabresellaError,
  Code,
  GAMES,
  Game,
  OptionsError,
  SeatKind,
  gameByName,
  gameName,
  gameOptions,
  optionSettings,
  seatChoice,
  seatKind,
  type CreateTableRequest,
} from "../src/index.js";
import { serverError, startFake } from "./fake-server.js";

test("options become settings, as the server reads them: keys trimmed and in lower case", () => {
  const o = gameOptions("calabresella", {
    " Target ": " 5 ",
    aperta: "true",
    colour: "red",
  });
  assert.equal(o.game, Game.CALABRESELLA);
  assert.deepEqual(o.settings, { target: "5", aperta: "true", colour: "red" });
  assert.equal(
    o.rules.case,
    undefined,
    "no typed rules: the server refuses settings together with them",
  );
  assert.deepEqual(optionSettings(["target=11", "accusi=false", "x=a=b"]), {
    target: "11",
    accusi: "false",
    x: "a=b",
  });
});

test("no options: the game alone, every rule at the server's default", () => {
  const o = gameOptions("Tressette-In-Due");
  assert.equal(o.game, Game.TRESSETTE_IN_DUE);
  assert.deepEqual(o.settings, {});
  assert.deepEqual(gameOptions("tressette", []).settings, {});
});

test("the games by name come from the contract's Game enum", () => {
  assert.deepEqual(Object.keys(GAMES).sort(), [
    "briscola-chiamata",
    "calabresella",
    "tressette",
    "tressette-chiamata",
    "tressette-in-due",
  ]);
  for (const [name, game] of Object.entries(GAMES)) {
    assert.equal(gameByName(name.toUpperCase()), game);
    assert.equal(gameName(game), name);
  }
  assert.equal(gameName(Game.UNSPECIFIED), "");
  assert.throws(
    () => gameOptions("scopa"),
    /unknown game "scopa" \(known: calabresella, tressette/,
  );
});

test("what is not the key=value notation is refused before any call", () => {
  const refused: [Parameters<typeof optionSettings>[0], RegExp][] = [
    [["target"], /option "target" is not in the key=value notation/],
    [["=5"], /option "=5" has no key/],
    [{ " ": "5" }, /has no key/],
    [["target=5", "TARGET=7"], /option target is given twice/],
    [{ target: "5", " Target": "7" }, /option target is given twice/],
    [
      { target: 5 } as unknown as Record<string, string>,
      /every value is a string/,
    ],
  ];
  for (const [input, message] of refused) {
    assert.throws(
      () => gameOptions("calabresella", input),
      (e: unknown) => e instanceof OptionsError && message.test(e.message),
      JSON.stringify(input),
    );
  }
});

test("createTable sends the settings as they are; the server judges them", async () => {
  const sent: CreateTableRequest[] = [];
  const fake = await startFake({
    createTable(req) {
      sent.push(req);
      throw serverError(Code.InvalidArgument, "BAD_OPTIONS", "bad options");
    },
  });
  try {
    await assert.rejects(
      fake.client.createTable({
        game: "tressette-in-due",
        options: ["target=11", "colour=red"],
      }),
      (e: unknown) =>
        e instanceof CalabresellaError &&
        e.is("INVALID_ARGUMENT", "BAD_OPTIONS"),
    );
    assert.equal(sent.length, 1);
    assert.equal(sent[0]!.options?.game, Game.TRESSETTE_IN_DUE);
    assert.deepEqual(sent[0]!.options?.settings, {
      target: "11",
      colour: "red",
    });
    await assert.rejects(
      fake.client.createTable({ game: "tressette", options: ["target"] }),
      OptionsError,
    );
    assert.equal(sent.length, 1, "a refused notation sends nothing");
  } finally {
    await fake.close();
  }
});

test("seat kinds by name", () => {
  assert.equal(seatKind("open"), SeatKind.OPEN);
  assert.equal(seatKind("Random"), SeatKind.BOT_RANDOM);
  assert.equal(seatKind("heuristic"), SeatKind.BOT_HEURISTIC);
  assert.equal(seatKind(SeatKind.OPEN), SeatKind.OPEN);
  assert.throws(() => seatKind("human"), /unknown seat kind "human"/);
  assert.deepEqual(seatChoice(" PIMC:ms=50 "), {
    kind: SeatKind.BOT_NAMED,
    bot: "pimc:ms=50",
  });
  assert.deepEqual(seatChoice("heuristic"), {
    kind: SeatKind.BOT_HEURISTIC,
    bot: "",
  });
  assert.throws(() => seatChoice("pimcx"), /unknown seat kind "pimcx"/);
  assert.deepEqual(seatChoice("Best"), {
    kind: SeatKind.BOT_NAMED,
    bot: "best",
  });
  assert.deepEqual(seatChoice("ismcts:iterations=500"), {
    kind: SeatKind.BOT_NAMED,
    bot: "ismcts:iterations=500",
  });
  assert.throws(() => seatChoice("bestx"), /unknown seat kind "bestx"/);
});
