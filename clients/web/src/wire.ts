/**
 * The wire's enums as the words the page uses: the names in the DOM contract's attributes
 * (`data-phase="auction"`, `data-state="playing"`) and the keys of the texts.
 */
import {
  Contract,
  Phase,
  Role,
  SeatKind,
  Signal,
  Suit,
  TableState,
} from "@calabresella/client";
import type { Suit as SuitLetter } from "./cards.js";

/** A phase as `data-phase` names it (empty when unset). */
export type PhaseName =
  "" | "auction" | "call" | "return" | "discard" | "take" | "play" | "over";

/** The `data-phase` word of a phase. */
export function phaseName(p: Phase | undefined): PhaseName {
  switch (p) {
    case Phase.AUCTION:
      return "auction";
    case Phase.CALL:
      return "call";
    case Phase.RETURN:
      return "return";
    case Phase.DISCARD:
      return "discard";
    case Phase.TAKE:
      return "take";
    case Phase.PLAY:
      return "play";
    case Phase.OVER:
      return "over";
    default:
      return "";
  }
}

/** A table state as `data-state` names it. */
export type StateName = "waiting" | "playing" | "finished" | "abandoned";

/** The `data-state` word of a table state (waiting when unset). */
export function stateName(s: TableState | undefined): StateName {
  switch (s) {
    case TableState.PLAYING:
      return "playing";
    case TableState.FINISHED:
      return "finished";
    case TableState.ABANDONED:
      return "abandoned";
    default:
      return "waiting";
  }
}

/** A seat kind's word: `open`, `random`, `heuristic`, `named` (a bot by name: a search bot
 * such as `pimc` or `best`, or a submitted bot), or `dummy` (the a due dummy). */
export type KindName = "open" | "random" | "heuristic" | "named" | "dummy";

/** The word of a seat kind. */
export function kindName(k: SeatKind): KindName {
  switch (k) {
    case SeatKind.OPEN:
      return "open";
    case SeatKind.BOT_RANDOM:
      return "random";
    case SeatKind.BOT_HEURISTIC:
      return "heuristic";
    case SeatKind.BOT_NAMED:
      return "named";
    default:
      return "dummy";
  }
}

/** The suit letter of a suit (`b` for an unset one, which the server never sends). */
export function suitLetter(s: Suit): SuitLetter {
  switch (s) {
    case Suit.COPPE:
      return "c";
    case Suit.DENARI:
      return "d";
    case Suit.SPADE:
      return "s";
    default:
      return "b";
  }
}

/** A contract's word (`chiamo` for an unset one). */
export function contractWord(
  c: Contract | undefined,
): "chiamo" | "solo" | "solissimo" | "dividete" | "scegliete" {
  switch (c) {
    case Contract.SOLO:
      return "solo";
    case Contract.SOLISSIMO:
      return "solissimo";
    case Contract.DIVIDETE:
      return "dividete";
    case Contract.SCEGLIETE:
      return "scegliete";
    default:
      return "chiamo";
  }
}

/** A signal's word (`""` for none). */
export function signalWord(s: Signal | undefined): string {
  switch (s) {
    case Signal.BUSSO:
      return "busso";
    case Signal.STRISCIO:
      return "striscio";
    case Signal.VOLO:
      return "volo";
    default:
      return "";
  }
}

/** A role's word, or undefined when unset. */
export function roleWord(
  r: Role | undefined,
): "caller" | "partner" | "defender" | "caller_alone" | undefined {
  switch (r) {
    case Role.CALLER:
      return "caller";
    case Role.PARTNER:
      return "partner";
    case Role.DEFENDER:
      return "defender";
    case Role.CALLER_ALONE:
      return "caller_alone";
    default:
      return undefined;
  }
}
