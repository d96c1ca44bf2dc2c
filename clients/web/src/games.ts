/**
 * What the app knows of each game without asking the server: names, seats, the rule options
 * the create form offers, and how many cards a hand deals (for the spectator's view).
 */
import { Game } from "@calabresella/client";

/** A game's name as the server's notation spells it. */
export type GameName =
  | "calabresella"
  | "tressette"
  | "tressette-in-due"
  | "tressette-chiamata"
  | "briscola-chiamata";

/** The games, in the order the create form lists them. */
export const GAME_NAMES: readonly GameName[] = [
  "calabresella",
  "tressette",
  "tressette-in-due",
  "tressette-chiamata",
  "briscola-chiamata",
];

/** The name of a `Game` enum value (calabresella for an unset one). */
export function gameName(game: Game): GameName {
  switch (game) {
    case Game.TRESSETTE:
      return "tressette";
    case Game.TRESSETTE_IN_DUE:
      return "tressette-in-due";
    case Game.TRESSETTE_CHIAMATA:
      return "tressette-chiamata";
    case Game.BRISCOLA_CHIAMATA:
      return "briscola-chiamata";
    default:
      return "calabresella";
  }
}

/** One rule option of the create form. */
export interface OptionField {
  /** The option's key in the `key=value` notation, also the form field's name. */
  key: string;
  /** How it is entered. */
  kind: "number" | "boolean" | "select";
  /** The engine's default (as the form shows it; a number field left empty sends nothing). */
  default: string;
  /** The values of a select. */
  values?: readonly string[];
  /** Bounds of a number. */
  min?: number;
  max?: number;
}

const target = (d: number): OptionField => ({
  key: "target",
  kind: "number",
  default: String(d),
  min: 1,
  max: 1000,
});
const maxDeals: OptionField = {
  key: "max_deals",
  kind: "number",
  default: "1000",
  min: 1,
  max: 100000,
};
const flag = (key: string, d = false): OptionField => ({
  key,
  kind: "boolean",
  default: String(d),
});

/** Each game's options, as the create form offers them (keys of `gameOptions`). */
export const GAME_OPTIONS: Record<GameName, readonly OptionField[]> = {
  calabresella: [
    { key: "players", kind: "select", default: "3", values: ["3", "4"] },
    target(21),
    {
      key: "match_end",
      kind: "select",
      default: "pooled",
      values: ["pooled", "individual"],
    },
    {
      key: "preset",
      kind: "select",
      default: "calabresella",
      values: ["calabresella", "terziglio"],
    },
    flag("stramazzo", true),
    flag("only_chiamo"),
    flag("chiamo_threes_only"),
    flag("aperta"),
    flag("a_due"),
    maxDeals,
  ],
  tressette: [target(21), flag("accusi", true), maxDeals],
  "tressette-in-due": [
    target(21),
    flag("accusi", true),
    flag("follow_suit_always"),
    maxDeals,
  ],
  "tressette-chiamata": [
    { key: "players", kind: "select", default: "5", values: ["5", "4"] },
    { key: "hands", kind: "number", default: "", min: 1, max: 1000 },
    flag("solo_bid"),
    flag("call_threes_only"),
    flag("call_own_card"),
    maxDeals,
  ],
  "briscola-chiamata": [
    { key: "hands", kind: "number", default: "", min: 1, max: 1000 },
    {
      key: "auction",
      kind: "select",
      default: "ranks",
      values: ["ranks", "points"],
    },
    flag("two_closes"),
    {
      key: "first_lead",
      kind: "select",
      default: "eldest",
      values: ["eldest", "caller"],
    },
    flag("bid_multiplier"),
    maxDeals,
  ],
};

/**
 * How many seats a table of `game` has, given the `players` option (as the form holds it).
 */
export function seatCount(game: GameName, players?: string): number {
  switch (game) {
    case "calabresella":
      return players === "4" ? 4 : 3;
    case "tressette":
      return 4;
    case "tressette-in-due":
      return 2;
    case "tressette-chiamata":
      return players === "4" ? 4 : 5;
    case "briscola-chiamata":
      return 5;
  }
}

/** Cards each seat holds right after the deal (the spectator's counts at a hand's start). */
export function dealtCards(
  game: GameName,
  seats: number,
  dealer: number,
): number[] {
  return Array.from({ length: seats }, (_, i) => {
    switch (game) {
      case "calabresella":
        return seats === 4 && i === dealer ? 0 : 12;
      case "tressette":
      case "tressette-in-due":
        return 10;
      default:
        return seats === 4 ? 10 : 8;
    }
  });
}

/** Whether a game is one of the two calling games (secret partner, signed totals). */
export function isCalling(game: GameName): boolean {
  return game === "tressette-chiamata" || game === "briscola-chiamata";
}

/** Whether a game is a Tressette (totals per partnership or player, no auction). */
export function isTressette(game: GameName): boolean {
  return game === "tressette" || game === "tressette-in-due";
}

/**
 * The rule options to send, in the `key=value` notation of `gameOptions`: only the fields
 * that differ from the engine's defaults (an empty number field means the default), so a
 * table created with the form's defaults carries no options at all.
 */
export function optionPairs(
  game: GameName,
  values: Readonly<Record<string, string>>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of GAME_OPTIONS[game]) {
    const v = (values[f.key] ?? f.default).trim();
    if (v === "" || v === f.default) continue;
    out[f.key] = v;
  }
  return out;
}
