/**
 * The cards of a trick, each with who played it (and the signal played with it): the same list
 * at a live table and in a replay.
 */
import type { PlayedCard } from "@calabresella/client";
import type { VNode } from "preact";
import { signalName } from "./actions.js";
import { CardImage } from "./card-view.js";
import type { SeatNamer } from "./events.js";
import { useT } from "./i18n-context.js";
import { signalWord } from "./wire.js";

/**
 * The trick as a list. `cardAttr` names the attribute that carries each card's notation (the
 * live table's `data-card`, the replay's `data-trick-card`); every card also carries
 * `data-played-by`. `trickAttr` marks the list (`data-trick` at a live table).
 */
export function TrickCards(props: {
  trick: readonly PlayedCard[];
  name: SeatNamer;
  cardAttr: string;
  trickAttr?: boolean;
}): VNode {
  const t = useT();
  return (
    <>
      <ol class="trick" data-trick={props.trickAttr ? "" : undefined}>
        {props.trick.map((p) => (
          <li key={p.card?.notation} class="played">
            <CardImage
              card={p.card?.notation ?? ""}
              attrs={{
                [props.cardAttr]: p.card?.notation ?? "",
                "data-played-by": p.seat,
              }}
            />
            <span class="played-by">
              {props.name(p.seat)}
              {p.signal ? ` · ${signalName(t, signalWord(p.signal))}` : ""}
            </span>
          </li>
        ))}
      </ol>
      {props.trick.length === 0 ? (
        <p class="muted">{t("table.trickEmpty")}</p>
      ) : null}
    </>
  );
}
