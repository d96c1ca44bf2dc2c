// The forms' rule options from a game's description: defaults, the settings sent, the seats.
import { create } from "@bufbuild/protobuf";
import {
  GameDescriptionSchema,
  OptionKind,
  type GameDescription,
} from "@calabresella/client";
import assert from "node:assert/strict";
import { test } from "node:test";
import {
  changedSettings,
  defaultValues,
  keyLabel,
  offered,
  seatCount,
} from "../src/option-values.js";

/** A game described as `ListGames` describes one, with every kind of option. */
const GAME: GameDescription = create(GameDescriptionSchema, {
  name: "some-game",
  minPlayers: 3,
  maxPlayers: 4,
  defaultPlayers: 3,
  options: [
    {
      key: "players",
      kind: OptionKind.NUMBER,
      min: 3,
      max: 4,
      defaultValue: "3",
    },
    {
      key: "target",
      kind: OptionKind.NUMBER,
      min: 1,
      max: 1000,
      defaultValue: "21",
    },
    {
      key: "hands",
      kind: OptionKind.NUMBER,
      min: 1,
      max: 99,
      defaultValue: "",
    },
    { key: "swap", kind: OptionKind.FLAG, defaultValue: "true" },
    { key: "open", kind: OptionKind.FLAG, defaultValue: "false" },
    {
      key: "end",
      kind: OptionKind.CHOICE,
      choices: ["pooled", "individual"],
      defaultValue: "pooled",
    },
    {
      key: "preset",
      kind: OptionKind.CHOICE,
      choices: ["short", "long"],
      defaultValue: "",
    },
  ],
});

test("a form starts from the described defaults", () => {
  assert.deepEqual(defaultValues(GAME), {
    players: "3",
    target: "21",
    hands: "",
    swap: "true",
    open: "false",
    end: "pooled",
    preset: "",
  });
});

test("only the values that differ from the defaults are sent", () => {
  assert.deepEqual(changedSettings(GAME, defaultValues(GAME)), {});
  assert.deepEqual(
    changedSettings(GAME, {
      ...defaultValues(GAME),
      target: " 5 ",
      hands: "",
      swap: "false",
      end: "individual",
      preset: "long",
    }),
    { target: "5", swap: "false", end: "individual", preset: "long" },
  );
  assert.deepEqual(changedSettings(GAME, { hands: "4", colour: "red" }), {
    hands: "4",
  });
});

test("the seats follow the players option within the game's bounds", () => {
  assert.equal(seatCount(GAME, defaultValues(GAME)), 3);
  assert.equal(seatCount(GAME, { players: "4" }), 4);
  assert.equal(seatCount(GAME, { players: "9" }), 3);
  assert.equal(seatCount(GAME, { players: "" }), 3);
  const fixed = create(GameDescriptionSchema, { defaultPlayers: 2 });
  assert.equal(seatCount(fixed, {}), 2);
});

test("an option with one value only is no choice; keys read as labels", () => {
  assert.ok(GAME.options.every(offered));
  assert.ok(
    !offered({ ...GAME.options[0]!, min: 4, max: 4 }),
    "players from 4 to 4",
  );
  assert.equal(keyLabel("max_deals"), "Max deals");
  assert.equal(keyLabel("target"), "Target");
});
