/**
 * What happened at the table: the event log, the scores of every hand, and the deal revealed
 * after each hand.
 */
import {
  type HandResult,
  type Observation,
  type Table,
} from "@calabresella/client";
import type { VNode } from "preact";
import { compareCards } from "./cards.js";
import { CardImage } from "./card-view.js";
import { eventText, resultText, type SeatNamer } from "./events.js";
import { isCalling, type GameName } from "./games.js";
import { useT } from "./i18n-context.js";
import { seatsOf, type Revealed } from "./state.js";
import { ScrollTable } from "./scroll-table.js";

/** What happened this hand, newest last; the newest line is announced to screen readers. */
export function EventLog(props: { obs: Observation; name: SeatNamer }): VNode {
  const t = useT();
  const events = props.obs.events;
  const shown = events.slice(-14);
  const newest =
    events.length > 0
      ? eventText(t, events[events.length - 1]!, props.name)
      : "";
  return (
    <section class="panel events" aria-labelledby="events-title">
      <h2 id="events-title">{t("table.events")}</h2>
      {shown.length === 0 ? <p class="muted">{t("table.noEvents")}</p> : null}
      <ol class="event-list" start={events.length - shown.length + 1}>
        {shown.map((e, i) => (
          <li key={events.length - shown.length + i}>
            {eventText(t, e, props.name)}
          </li>
        ))}
      </ol>
      <p class="visually-hidden" aria-live="polite">
        {newest}
      </p>
    </section>
  );
}

/** Scores per hand and the match totals. */
export function Scores(props: {
  obs: Observation;
  table: Table | undefined;
  game: GameName;
  name: SeatNamer;
}): VNode {
  const t = useT();
  const o = props.obs;
  const results = o.outcome ? [...o.previous, o.outcome] : o.previous;
  const calling = isCalling(props.game);
  const perSide = props.game === "tressette";
  const columns: string[] = perSide
    ? [
        t("table.team", { a: props.name(0), b: props.name(2) }),
        t("table.team", { a: props.name(1), b: props.name(3) }),
      ]
    : Array.from({ length: o.handSizes.length || seatsOf(o.options) }, (_, i) =>
        props.name(i),
      );
  const awardOf = (r: HandResult, i: number): string => {
    if (calling) {
      const v = r.signedAward[i];
      return v === undefined ? "" : v > 0 ? `+${v}` : String(v);
    }
    const v = r.award[i];
    return v === undefined ? "" : String(v);
  };
  const totals: (number | undefined)[] = perSide
    ? [o.totals[0], o.totals[1]]
    : columns.map((_, i) =>
        o.signedTotals.length ? o.signedTotals[i] : o.totals[i],
      );
  return (
    <section class="panel scores" aria-labelledby="scores-title">
      <h2 id="scores-title">{t("table.scores")}</h2>
      <ScrollTable label={t("table.scores")}>
        <table data-scores>
          <thead>
            <tr>
              <th scope="col">{t("table.col.hand")}</th>
              <th scope="col">{t("table.col.result")}</th>
              {columns.map((c, i) => (
                <th scope="col" key={i}>
                  {c}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {results.map((r) => (
              <tr key={r.handNumber}>
                <th scope="row">{r.handNumber + 1}</th>
                <td>{resultText(t, r, props.game, props.name)}</td>
                {columns.map((_, i) => (
                  <td key={i} class="num">
                    {awardOf(r, i)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr data-totals>
              <th scope="row" colSpan={2}>
                {t("table.totals")}
              </th>
              {totals.map((v, i) => (
                <td key={i} class="num">
                  {v ?? 0}
                </td>
              ))}
            </tr>
          </tfoot>
        </table>
      </ScrollTable>
    </section>
  );
}

/** One group of a revealed deal: a seat's cards, the monte or the stock. */
function RevealedCards(props: {
  title: string;
  cards: string[];
  seat?: number;
}): VNode {
  return (
    <div class="revealed-seat" data-revealed-seat={props.seat}>
      <h3>{props.title}</h3>
      <div class="card-row wrap">
        {props.cards.map((c) => (
          <CardImage
            key={c}
            card={c}
            class="small"
            attrs={{ "data-revealed-card": c }}
          />
        ))}
      </div>
    </div>
  );
}

/** The full deal of the last finished hand. */
export function RevealedDeal(props: {
  revealed: Revealed;
  name: SeatNamer;
}): VNode {
  const t = useT();
  const r = props.revealed;
  return (
    <section
      class="panel revealed"
      data-hand-revealed
      data-hand-number={r.handNumber}
      aria-labelledby="revealed-title"
    >
      <h2 id="revealed-title">
        {t("table.revealed", { n: r.handNumber + 1 })}
      </h2>
      {r.hands.map((h) => (
        <RevealedCards
          key={h.seat}
          title={props.name(h.seat)}
          cards={[...h.cards].sort(compareCards)}
          seat={h.seat}
        />
      ))}
      {r.monte.length > 0 ? (
        <RevealedCards title={t("table.monte")} cards={r.monte} />
      ) : null}
      {r.stock.length > 0 ? (
        <RevealedCards title={t("table.stockCards")} cards={r.stock} />
      ) : null}
    </section>
  );
}
