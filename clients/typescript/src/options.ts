/**
 * Rule options in the `key=value` notation of the command-line tool and the Python package,
 * turned into a `GameOptions` message of `settings`; games and seat kinds by name. The client
 * keeps no copy of any game's options: it checks only the notation (an entry without `=`, an
 * empty key, the same key twice: {@link OptionsError}, before any call), and the server reads
 * the keys and values with the game's own grammar (INVALID_ARGUMENT, reason BAD_OPTIONS, with
 * its message). `Client.listGames` describes every game's options.
 */
import { create } from "@bufbuild/protobuf";
import {
  Game,
  GameOptionsSchema,
  type GameOptions,
} from "./gen/calabresella/v1/game_pb.js";
import { SeatKind } from "./gen/calabresella/v1/table_service_pb.js";
import { OptionsError } from "./errors.js";

/** `TRESSETTE_IN_DUE` as a name: `tressette-in-due`. */
type Kebab<S extends string> = S extends `${infer A}_${infer B}`
  ? `${A}-${Kebab<B>}`
  : S;

/**
 * A game's name as the CLI and the records spell it: the contract's `Game` value in lower
 * case with dashes (`Game.TRESSETTE_IN_DUE` is `tressette-in-due`).
 */
export type GameName = Kebab<
  Lowercase<Exclude<keyof typeof Game, "UNSPECIFIED">>
>;

/** The games by name, read from the contract's `Game` enum. */
export const GAMES: Readonly<Record<string, Game>> = Object.fromEntries(
  Object.entries(Game)
    .filter(
      (e): e is [string, Game] =>
        typeof e[1] === "number" && e[1] !== Game.UNSPECIFIED,
    )
    .map(([k, v]) => [k.toLowerCase().replace(/_/g, "-"), v]),
);

/** The name of a game (`Game.TRESSETTE_IN_DUE` is `tressette-in-due`); "" for an unset one. */
export function gameName(game: Game): GameName | "" {
  const name = Object.keys(GAMES).find((n) => GAMES[n] === game);
  return (name ?? "") as GameName | "";
}

/** The seat kinds by name. */
export const SEAT_KINDS: Readonly<Record<string, SeatKind>> = {
  open: SeatKind.OPEN,
  random: SeatKind.BOT_RANDOM,
  heuristic: SeatKind.BOT_HEURISTIC,
};

/** The built-in search bots a seat names, with optional parameters after a colon: `best` plays
 * as the strongest bot of each game. */
export const SEARCH_BOTS: readonly string[] = ["pimc", "ismcts", "best"];

/** A seat as named: its kind, and for a search bot (`pimc`, `pimc:ms=50`, `best`) its name with
 * parameters, which the server checks. */
export interface SeatChoice {
  /** The seat kind. */
  kind: SeatKind;
  /** The named bot (`SeatKind.BOT_NAMED`), else empty. */
  bot: string;
}

/** The seat of a name: a seat kind (`open`, `random`, `heuristic`), a search bot
 * ({@link SEARCH_BOTS}) with optional parameters after a colon (`pimc:worlds=64:ms=50`), or a
 * submitted bot
 * (`submitted:NAME`, `submitted:NAME@VERSION`, which the server checks); throws
 * {@link OptionsError} for anything else. */
export function seatChoice(name: string | SeatKind): SeatChoice {
  if (typeof name === "string") {
    const key = name.trim().toLowerCase();
    const base = key.split(":", 1)[0].trim();
    if (SEARCH_BOTS.includes(base) || key.startsWith("submitted:")) {
      return { kind: SeatKind.BOT_NAMED, bot: key };
    }
  }
  return { kind: seatKind(name), bot: "" };
}

/** Rule options: `{target: "5"}`, or `["target=5", "aperta=true"]` as on a command line. */
export type OptionsInput =
  Readonly<Record<string, string>> | readonly string[] | undefined;

/** The game of a name (any case), or throws {@link OptionsError}. */
export function gameByName(name: string): Game {
  const g = GAMES[name.trim().toLowerCase()];
  if (g === undefined) {
    throw new OptionsError(
      `unknown game "${name}" (known: ${Object.keys(GAMES).join(", ")})`,
    );
  }
  return g;
}

/** The seat kind of a name (`open`, `random`, `heuristic`), or throws {@link OptionsError}. */
export function seatKind(name: string | SeatKind): SeatKind {
  if (typeof name !== "string") return name;
  const k = SEAT_KINDS[name.trim().toLowerCase()];
  if (k === undefined) {
    throw new OptionsError(
      `unknown seat kind "${name}" (known: ${Object.keys(SEAT_KINDS).join(", ")}, ${SEARCH_BOTS.join(", ")})`,
    );
  }
  return k;
}

/**
 * The `GameOptions.settings` of rule options: keys trimmed and in lower case (as the server
 * reads them), values trimmed. Throws {@link OptionsError} for what is not the notation: an
 * entry of a list without `=`, an empty key, the same key twice (in any case), a value that
 * is not a string. Whether the game has the key and takes the value is the server's to say.
 */
export function optionSettings(options?: OptionsInput): Record<string, string> {
  if (options === undefined) return {};
  const raw: [string, unknown][] = Array.isArray(options)
    ? (options as readonly string[]).map((kv) => {
        const i = kv.indexOf("=");
        if (i < 0) {
          throw new OptionsError(
            `option "${kv}" is not in the key=value notation`,
          );
        }
        return [kv.slice(0, i), kv.slice(i + 1)];
      })
    : Object.entries(options);
  const out: Record<string, string> = {};
  for (const [k, v] of raw) {
    const key = k.trim().toLowerCase();
    if (key === "") {
      throw new OptionsError(`option "${k}=${String(v)}" has no key`);
    }
    if (typeof v !== "string") {
      throw new OptionsError(`option ${key}: every value is a string`);
    }
    if (Object.hasOwn(out, key)) {
      throw new OptionsError(`option ${key} is given twice`);
    }
    out[key] = v.trim();
  }
  return out;
}

/**
 * The `GameOptions` of a game name (`calabresella`, `tressette-in-due`..., see
 * {@link GAMES}) and its options in the `key=value` notation (values are strings:
 * `{target: "5", aperta: "true"}` or `["target=5", "aperta=true"]`), sent as `settings`.
 * Unset options take the server's defaults. Throws {@link OptionsError} for an unknown game or
 * options not in the notation ({@link optionSettings}); the server answers an unknown key or
 * a bad value with INVALID_ARGUMENT (BAD_OPTIONS).
 */
export function gameOptions(game: string, options?: OptionsInput): GameOptions {
  return create(GameOptionsSchema, {
    game: gameByName(game),
    settings: optionSettings(options),
  });
}
