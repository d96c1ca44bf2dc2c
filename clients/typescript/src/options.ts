/**
 * Rule options in the `key=value` notation of the command-line tool and the Python package,
 * turned into a `GameOptions` message; seat kinds by name. Unknown games and keys and bad
 * values are refused here, before any call ({@link OptionsError}); the server checks the
 * combination further (INVALID_ARGUMENT, reason BAD_OPTIONS).
 */
import { create } from "@bufbuild/protobuf";
import {
  CalabresellaOptionsSchema,
  ChiamataAuction,
  ChiamataOptionsSchema,
  FirstLead,
  Game,
  GameOptionsSchema,
  MatchEnd,
  TressetteOptionsSchema,
  type CalabresellaOptions,
  type ChiamataOptions,
  type GameOptions,
  type TressetteOptions,
} from "./gen/calabresella/v1/game_pb.js";
import { SeatKind } from "./gen/calabresella/v1/table_service_pb.js";
import { OptionsError } from "./errors.js";

/** The games by name. */
export const GAMES: Readonly<Record<string, Game>> = {
  calabresella: Game.CALABRESELLA,
  tressette: Game.TRESSETTE,
  "tressette-in-due": Game.TRESSETTE_IN_DUE,
  "tressette-chiamata": Game.TRESSETTE_CHIAMATA,
  "briscola-chiamata": Game.BRISCOLA_CHIAMATA,
};

/** A game's name as the CLI spells it. */
export type GameName =
  | "calabresella"
  | "tressette"
  | "tressette-in-due"
  | "tressette-chiamata"
  | "briscola-chiamata";

/** The seat kinds by name. */
export const SEAT_KINDS: Readonly<Record<string, SeatKind>> = {
  open: SeatKind.OPEN,
  random: SeatKind.BOT_RANDOM,
  heuristic: SeatKind.BOT_HEURISTIC,
};

/** A seat as named: its kind, and for the search bot (`pimc`, `pimc:ms=50`) its name with
 * parameters, which the server checks. */
export interface SeatChoice {
  /** The seat kind. */
  kind: SeatKind;
  /** The named bot (`SeatKind.BOT_NAMED`), else empty. */
  bot: string;
}

/** The seat of a name: a seat kind (`open`, `random`, `heuristic`), the search bot `pimc`
 * with optional parameters after a colon (`pimc:worlds=64:ms=50`), or a submitted bot
 * (`submitted:NAME`, `submitted:NAME@VERSION`, which the server checks); throws
 * {@link OptionsError} for anything else. */
export function seatChoice(name: string | SeatKind): SeatChoice {
  if (typeof name === "string") {
    const key = name.trim().toLowerCase();
    if (
      key === "pimc" ||
      key.startsWith("pimc:") ||
      key.startsWith("submitted:")
    ) {
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
      `unknown seat kind "${name}" (known: ${Object.keys(SEAT_KINDS).join(", ")}, pimc)`,
    );
  }
  return k;
}

/** The pairs of an {@link OptionsInput}, keys trimmed and lower case. */
function pairs(options: OptionsInput): [string, string][] {
  if (options === undefined) return [];
  const raw: [string, string][] = Array.isArray(options)
    ? (options as readonly string[]).map((kv) => {
        const i = kv.indexOf("=");
        if (i < 0) {
          throw new OptionsError(
            `option "${kv}" is not in the key=value notation`,
          );
        }
        return [kv.slice(0, i), kv.slice(i + 1)];
      })
    : Object.entries(options as Record<string, string>);
  return raw.map(([k, v]) => {
    if (typeof v !== "string") {
      throw new OptionsError(`option ${k}: every value is a string`);
    }
    return [k.trim().toLowerCase(), v.trim()];
  });
}

/** Parsers of one option's value; each throws with what it expected. */
type Setter<T> = (o: T, value: string) => void;

function bad(expected: string): never {
  throw new OptionsError(expected);
}

/** A boolean, in the forms the engine accepts. */
function flag(v: string): boolean {
  switch (v.toLowerCase()) {
    case "true":
    case "yes":
    case "on":
    case "1":
      return true;
    case "false":
    case "no":
    case "off":
    case "0":
      return false;
  }
  return bad("true or false");
}

/** A whole number that fits the wire's uint32. */
function uint(v: string): number {
  if (!/^\d+$/.test(v) || Number(v) > 0xffffffff) {
    bad("a whole number");
  }
  return Number(v);
}

/** One of `allowed` (as text), as a number. */
function oneOf(v: string, allowed: readonly number[]): number {
  const n = allowed.find((a) => String(a) === v);
  return n ?? bad(allowed.join(" or "));
}

const CALABRESELLA: Record<string, Setter<CalabresellaOptions>> = {
  players: (o, v) => (o.players = oneOf(v, [3, 4])),
  target: (o, v) => (o.target = uint(v)),
  match_end: (o, v) =>
    (o.matchEnd =
      v.toLowerCase() === "pooled"
        ? MatchEnd.POOLED
        : v.toLowerCase() === "individual"
          ? MatchEnd.INDIVIDUAL
          : bad("pooled or individual")),
  stramazzo: (o, v) => (o.stramazzo = flag(v)),
  only_chiamo: (o, v) => (o.onlyChiamo = flag(v)),
  chiamo_threes_only: (o, v) => (o.chiamoThreesOnly = flag(v)),
  aperta: (o, v) => (o.aperta = flag(v)),
  a_due: (o, v) => (o.aDue = flag(v)),
  max_deals: (o, v) => (o.maxDeals = uint(v)),
  preset: (o, v) =>
    (o.terziglio =
      v.toLowerCase() === "terziglio"
        ? true
        : v.toLowerCase() === "calabresella"
          ? false
          : bad("terziglio or calabresella")),
};

const TRESSETTE: Record<string, Setter<TressetteOptions>> = {
  target: (o, v) => (o.target = uint(v)),
  accusi: (o, v) => (o.accusi = flag(v)),
  follow_suit_always: (o, v) => (o.followSuitAlways = flag(v)),
  max_deals: (o, v) => (o.maxDeals = uint(v)),
};

const CHIAMATA: Record<string, Setter<ChiamataOptions>> = {
  players: (o, v) => (o.players = oneOf(v, [4, 5])),
  hands: (o, v) => (o.hands = uint(v)),
  solo_bid: (o, v) => (o.soloBid = flag(v)),
  call_threes_only: (o, v) => (o.callThreesOnly = flag(v)),
  call_own_card: (o, v) => (o.callOwnCard = flag(v)),
  auction: (o, v) =>
    (o.auction =
      v.toLowerCase() === "ranks"
        ? ChiamataAuction.RANKS
        : v.toLowerCase() === "points"
          ? ChiamataAuction.POINTS
          : bad("ranks or points")),
  two_closes: (o, v) => (o.twoCloses = flag(v)),
  first_lead: (o, v) =>
    (o.firstLead =
      v.toLowerCase() === "eldest"
        ? FirstLead.ELDEST
        : v.toLowerCase() === "caller"
          ? FirstLead.CALLER
          : bad("eldest or caller")),
  bid_multiplier: (o, v) => (o.bidMultiplier = flag(v)),
  max_deals: (o, v) => (o.maxDeals = uint(v)),
};

/** Applies every pair with `setters`, naming the game, key and value in any error. */
function apply<T>(
  game: string,
  target: T,
  setters: Record<string, Setter<T>>,
  options: OptionsInput,
): T {
  for (const [k, v] of pairs(options)) {
    const set = setters[k];
    if (set === undefined) {
      throw new OptionsError(
        `${game}: unknown option "${k}" (known: ${Object.keys(setters).join(", ")})`,
      );
    }
    try {
      set(target, v);
    } catch (e) {
      if (!(e instanceof OptionsError)) throw e;
      throw new OptionsError(
        `${game}: option ${k}=${v}: expected ${e.message}`,
      );
    }
  }
  return target;
}

/**
 * The `GameOptions` of a game name (`calabresella`, `tressette`, `tressette-in-due`,
 * `tressette-chiamata`, `briscola-chiamata`) and its options in the `key=value` notation
 * (values are strings: `{target: "5", aperta: "true"}` or `["target=5", "aperta=true"]`).
 * Unset options take the server's defaults. Throws {@link OptionsError} for an unknown game or
 * key or a malformed value.
 */
export function gameOptions(game: string, options?: OptionsInput): GameOptions {
  const g = gameByName(game);
  const name = game.trim().toLowerCase();
  switch (g) {
    case Game.CALABRESELLA:
      return create(GameOptionsSchema, {
        game: g,
        rules: {
          case: "calabresella",
          value: apply(
            name,
            create(CalabresellaOptionsSchema),
            CALABRESELLA,
            options,
          ),
        },
      });
    case Game.TRESSETTE:
    case Game.TRESSETTE_IN_DUE:
      return create(GameOptionsSchema, {
        game: g,
        rules: {
          case: "tressette",
          value: apply(
            name,
            create(TressetteOptionsSchema),
            TRESSETTE,
            options,
          ),
        },
      });
    default:
      return create(GameOptionsSchema, {
        game: g,
        rules: {
          case: "chiamata",
          value: apply(name, create(ChiamataOptionsSchema), CHIAMATA, options),
        },
      });
  }
}
