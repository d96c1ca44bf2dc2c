/**
 * What happened in a hand, in words of the chosen language: one line per `Event` (the server's
 * own `text` is English and names seats by number; here seats are named after their players).
 */
import {
  AccusoKind,
  EventKind,
  type Accuso,
  type Event,
  type HandResult,
} from "@calabresella/client";
import {
  bidName,
  cardList,
  parseAction,
  rankWord,
  signalName,
} from "./actions.js";
import { isCalling, type GameName } from "./games.js";
import { cardName } from "./cards.js";
import type { Translate } from "./i18n/index.js";
import { contractWord, signalWord, suitLetter } from "./wire.js";

/** Names a seat (its player's name, or "Seat n"). */
export type SeatNamer = (seat: number | undefined) => string;

/** An accuso in words: "napoletana of coins", "all four of rank Ace". */
export function accusoText(t: Translate, a: Accuso): string {
  switch (a.kind) {
    case AccusoKind.NAPOLETANA:
      return t("accuso.napoletana", { suit: t(`suit.${suitLetter(a.suit)}`) });
    case AccusoKind.THREE:
      return t("accuso.three", {
        rank: rankWordOf(t, a),
        suit: t(`suit.${suitLetter(a.missing)}`),
      });
    case AccusoKind.FOUR:
      return t("accuso.four", { rank: rankWordOf(t, a) });
    default:
      return a.text;
  }
}

function rankWordOf(t: Translate, a: Accuso): string {
  // The accuso's cards all share the rank: read it from the first card's notation.
  const first = a.cards[0]?.notation;
  return first ? rankWord(t, first.slice(0, 1)) : a.text;
}

/** The notations of some cards. */
function notes(cards: readonly { notation: string }[]): string[] {
  return cards.map((c) => c.notation);
}

/**
 * One event as a sentence: "Anna plays Ace of coins (busso).". Unknown kinds fall back to the
 * server's own wording.
 */
export function eventText(t: Translate, e: Event, name: SeatNamer): string {
  const who = name(e.seat);
  const to = name(e.toSeat);
  const card = e.card ? cardName(t, e.card.notation) : "";
  switch (e.kind) {
    case EventKind.DEALT:
      return t("event.dealt");
    case EventKind.BID: {
      const notation = e.action?.notation ?? "";
      if (notation === "pass" || (notation === "" && !e.contract)) {
        return t("event.pass", { name: who });
      }
      const what =
        notation !== ""
          ? bidName(t, parseAction(notation))
          : t(`contract.${contractWord(e.contract)}`);
      return t("event.bid", { name: who, what });
    }
    case EventKind.AUCTION_WON: {
      const notation = e.action?.notation ?? "";
      const what =
        notation !== ""
          ? bidName(t, parseAction(notation))
          : t(`contract.${contractWord(e.contract)}`);
      return t("event.auctionWon", { name: who, what });
    }
    case EventKind.ALL_PASSED:
      return t("event.allPassed");
    case EventKind.DUMMY_EXPOSED:
      return t("event.dummyExposed");
    case EventKind.CALLED:
      return t("event.called", { name: who, card });
    case EventKind.HANDED_OVER:
      return t("event.handedOver", { name: who });
    case EventKind.CALLED_IN_MONTE:
      return t("event.calledInMonte");
    case EventKind.RETURNED:
      return card
        ? t("event.returnedCard", { name: who, card, to })
        : t("event.returned", { name: who, to });
    case EventKind.MONTE_TAKEN:
      return t("event.monteTaken", { name: who });
    case EventKind.MONTE_RECEIVED:
      return t("event.monteReceived", { name: who });
    case EventKind.MONTE_SHOWN:
      return t("event.monteShown", { cards: cardList(t, notes(e.cards)) });
    case EventKind.MONTE_SPLIT:
      return t("event.monteSplit", {
        name: who,
        cards: cardList(t, notes(e.cards)),
        to,
        other: cardList(t, notes(e.otherCards)),
      });
    case EventKind.DISCARDED:
      return card
        ? t("event.discardedCard", { name: who, card })
        : t("event.discarded", { name: who });
    case EventKind.PLAYED:
      return e.signal
        ? t("event.playedSignal", {
            name: who,
            card,
            signal: signalName(t, signalWord(e.signal)),
          })
        : t("event.played", { name: who, card });
    case EventKind.TRICK_WON:
      return t("event.trickWon", { name: who, n: e.number });
    case EventKind.HAND_SHOWN:
      return t("event.handShown", { name: who, to });
    case EventKind.MONTE_REVEALED:
      return t("event.monteRevealed", {
        name: who,
        cards: cardList(t, notes(e.cards)),
      });
    case EventKind.HAND_SCORED:
      return t("event.handScored", { n: (e.result?.handNumber ?? 0) + 1 });
    case EventKind.DECLARED:
      return e.accuso
        ? t("event.declared", {
            name: who,
            what: accusoText(t, e.accuso),
            points: e.accuso.points,
          })
        : e.text;
    case EventKind.DREW:
      return t("event.drew", { name: who, card });
    case EventKind.PARTNER_KNOWN:
      return e.seat === undefined
        ? t("event.partnerAlone")
        : t("event.partnerKnown", { name: who });
    default:
      return e.text;
  }
}

/** A hand's result in words. */
export function resultText(
  t: Translate,
  r: HandResult,
  game: GameName,
  name: SeatNamer,
): string {
  if (r.void) return t("table.void");
  const points = r.points.join("–");
  const mult = r.multiplier > 1 ? ` ×${r.multiplier}` : "";
  if (game === "calabresella") {
    return `${t(`contract.${contractWord(r.contract)}`)}, ${name(r.soloist)}: ${
      r.made ? t("table.made") : t("table.failed")
    } (${points})${mult}`;
  }
  if (isCalling(game)) {
    const who =
      r.partner !== undefined && !r.alone
        ? t("table.team", { a: name(r.caller), b: name(r.partner) })
        : `${name(r.caller)} (${t("table.alone")})`;
    const bid = r.bid ? ` ${bidName(t, parseAction(r.bid.notation))}` : "";
    return `${who}${bid}: ${r.made ? t("table.made") : t("table.failed")} (${points})${mult}`;
  }
  return t("table.points", { points });
}
