/**
 * A form's rule options as the server describes them (`ListGames`' `GameDescription`): the
 * values a form starts from, the settings it sends (only what differs from the defaults), and
 * the seats a table of the game has. Nothing here names a game or an option key but `players`,
 * which the contract ties to the seats (`min_players` to `max_players`).
 */
import {
  OptionKind,
  type GameDescription,
  type OptionDescription,
} from "@calabresella/client";

/** A form's option values, by key, as text (a flag is `true` or `false`). */
export type OptionValues = Record<string, string>;

/** The flag values the server reads as true. */
const TRUE = ["true", "yes", "on", "1"];

/** An option's default as the form holds it: a flag's as `true`/`false`, others as described. */
export function defaultValue(o: OptionDescription): string {
  if (o.kind === OptionKind.FLAG) {
    return TRUE.includes(o.defaultValue.trim().toLowerCase())
      ? "true"
      : "false";
  }
  return o.defaultValue;
}

/** Every option of `game` at its default. */
export function defaultValues(game: GameDescription): OptionValues {
  const v: OptionValues = {};
  for (const o of game.options) v[o.key] = defaultValue(o);
  return v;
}

/**
 * Whether a form offers the option: not a number whose bounds leave one value (the seats of
 * a game played by a fixed number), which is no choice.
 */
export function offered(o: OptionDescription): boolean {
  return !(o.kind === OptionKind.NUMBER && o.min === o.max);
}

/**
 * The settings to send: only the values that differ from the defaults (an empty field means
 * the default), so that a form left at its defaults sends none.
 */
export function changedSettings(
  game: GameDescription,
  values: Readonly<OptionValues>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const o of game.options) {
    const v = (values[o.key] ?? "").trim();
    if (v === "" || v === defaultValue(o)) continue;
    out[o.key] = v;
  }
  return out;
}

/**
 * The seats of a table of `game` with these values: its `players` option when the form holds
 * a whole number within the game's seats, else the game's default.
 */
export function seatCount(
  game: GameDescription,
  values: Readonly<OptionValues>,
): number {
  const text = (values["players"] ?? "").trim();
  const n = Number(text);
  return /^\d+$/.test(text) && n >= game.minPlayers && n <= game.maxPlayers
    ? n
    : game.defaultPlayers;
}

/** The label of an option key: `max_deals` is "Max deals". */
export function keyLabel(key: string): string {
  const words = key.replace(/_/g, " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}
