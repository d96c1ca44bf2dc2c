/**
 * What the app knows of each game beyond what the server describes (`ListGames`: the games,
 * their seats and rule options): how many cards a hand deals (for the spectator's view), which
 * games call a secret partner or are a Tressette, and Calabresella a due's dummy seat.
 */
import {
  GAMES,
  Game,
  gameName as nameOfGame,
  type GameName,
} from "@calabresella/client";

export type { GameName };

/** The games, as the contract's `Game` enum lists them. */
export const GAME_NAMES = Object.keys(GAMES) as readonly GameName[];

/** The name of a `Game` enum value (calabresella for an unset one). */
export function gameName(game: Game): GameName {
  return nameOfGame(game) || "calabresella";
}

/**
 * The dummy's seat at a table of `game` created with these option values: seat 2 in
 * Calabresella a due (C-D19: nobody takes it, the defending person plays it), else none.
 */
export function dummySeat(
  game: string,
  values: Readonly<Record<string, string>>,
): number | undefined {
  return game === "calabresella" && values["a_due"] === "true" ? 2 : undefined;
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
