/**
 * Actions in their canonical notation (`play Ad`, `bid solo`, `pass`, `call 3c`, `discard 4b`,
 * `take Ad 3c`, `play Ad busso`, `bid 2 80`, `bid A`, `bid 75`): what they mean, and their
 * labels in the chosen language. The notation itself is what the page puts in `data-action`
 * and sends back to the server, verbatim.
 */
import { cardName, parseCard } from "./cards.js";
import type { Translate } from "./i18n/index.js";

/** An action, parsed from its notation. */
export type ParsedAction =
  | { kind: "pass" }
  | { kind: "bid"; contract: string }
  | { kind: "bidRank"; rank: string }
  | { kind: "bidTwoFor"; points: number }
  | { kind: "bidPoints"; points: number }
  | { kind: "call" | "return" | "discard"; card: string }
  | { kind: "take"; cards: string[] }
  | { kind: "play"; card: string; signal?: string }
  | { kind: "other"; text: string };

/** The Calabresella contracts, lowest first, as bids name them. */
export const CONTRACTS = [
  "chiamo",
  "solo",
  "solissimo",
  "dividete",
  "scegliete",
] as const;

/** The Tressette lead signals. */
export const SIGNALS = ["busso", "striscio", "volo"] as const;

/** Parses an action's notation (canonical, as the server sends it). */
export function parseAction(notation: string): ParsedAction {
  const words = notation.trim().split(/\s+/);
  const [verb, ...rest] = words;
  switch (verb) {
    case "pass":
      return { kind: "pass" };
    case "bid": {
      const [a, b] = rest;
      if (a === undefined) break;
      if ((CONTRACTS as readonly string[]).includes(a)) {
        return { kind: "bid", contract: a };
      }
      if (/^\d+$/.test(a) && b === undefined && Number(a) > 2) {
        return { kind: "bidPoints", points: Number(a) };
      }
      if (a === "2" && b !== undefined && /^\d+$/.test(b)) {
        return { kind: "bidTwoFor", points: Number(b) };
      }
      return { kind: "bidRank", rank: a };
    }
    case "call":
    case "return":
    case "discard":
      if (rest[0] !== undefined && parseCard(rest[0])) {
        return { kind: verb, card: rest[0] };
      }
      break;
    case "take":
      return { kind: "take", cards: rest };
    case "play":
      if (rest[0] !== undefined && parseCard(rest[0])) {
        return rest[1] === undefined
          ? { kind: "play", card: rest[0] }
          : { kind: "play", card: rest[0], signal: rest[1] };
      }
      break;
  }
  return { kind: "other", text: notation };
}

/**
 * The name of a bid's promise: a contract (`Solissimo`), a rank (`Ace`), or points. Used in
 * action labels and in the auction's events.
 */
export function bidName(t: Translate, action: ParsedAction): string {
  switch (action.kind) {
    case "bid":
      return contractName(t, action.contract);
    case "bidRank":
      return rankWord(t, action.rank);
    case "bidTwoFor":
      return t("bid.twoFor", { n: action.points });
    case "bidPoints":
      return String(action.points);
    default:
      return "";
  }
}

/** A contract's name (`chiamo` → Chiamo). */
export function contractName(t: Translate, contract: string): string {
  switch (contract) {
    case "chiamo":
    case "solo":
    case "solissimo":
    case "dividete":
    case "scegliete":
      return t(`contract.${contract}`);
    default:
      return contract;
  }
}

/** A rank's word (`A` → Ace), or the text itself when it is no rank. */
export function rankWord(t: Translate, rank: string): string {
  const c = parseCard(`${rank}b`);
  return c ? t(`rank.${c.rank}`) : rank;
}

/** A signal's word (`busso`), in the chosen language. */
export function signalName(t: Translate, signal: string): string {
  return (SIGNALS as readonly string[]).includes(signal)
    ? t(`signal.${signal as (typeof SIGNALS)[number]}`)
    : signal;
}

/** Several cards' names, joined by commas. */
export function cardList(t: Translate, cards: readonly string[]): string {
  return cards.length === 0
    ? t("event.nothing")
    : cards.map((c) => cardName(t, c)).join(", ");
}

/**
 * The label of an action for people, in the chosen language: `play Ad` → "Play Ace of
 * coins", `bid 2 80` → "Bid 2 for 80 points", `take` → "Take nothing". An action the app does
 * not know is shown as its notation.
 */
export function actionLabel(t: Translate, notation: string): string {
  const a = parseAction(notation);
  switch (a.kind) {
    case "pass":
      return t("action.pass");
    case "bid":
      return t("action.bid", { what: contractName(t, a.contract) });
    case "bidRank":
      return t("action.bidRank", { rank: rankWord(t, a.rank) });
    case "bidTwoFor":
      return t("action.bidTwoFor", { n: a.points });
    case "bidPoints":
      return t("action.bidPoints", { n: a.points });
    case "call":
      return t("action.call", { card: cardName(t, a.card) });
    case "return":
      return t("action.return", { card: cardName(t, a.card) });
    case "discard":
      return t("action.discard", { card: cardName(t, a.card) });
    case "take":
      return a.cards.length === 0
        ? t("action.takeNone")
        : t("action.take", { cards: cardList(t, a.cards) });
    case "play":
      return a.signal === undefined
        ? t("action.play", { card: cardName(t, a.card) })
        : t("action.playSignal", {
            card: cardName(t, a.card),
            signal: signalName(t, a.signal),
          });
    case "other":
      return a.text;
  }
}

/**
 * The card an action puts down from a hand (`play Ad`, `discard 4b`, `return Kc`), when it is
 * a plain one: those actions are drawn as the card itself. Signalled plays, calls and takes
 * are not (they get buttons of their own).
 */
export function handCardOf(notation: string): string | undefined {
  const a = parseAction(notation);
  if (a.kind === "play" && a.signal === undefined) return a.card;
  if (a.kind === "discard" || a.kind === "return") return a.card;
  return undefined;
}
