/**
 * The table's middle: the hand's contract and figures, each seat's panel (name, kind, cards
 * held, clock, totals) and the trick on the table.
 */
import {
  EventKind,
  Phase,
  SeatKind,
  type Observation,
} from "@calabresella/client";
import type { VNode } from "preact";
import { bidName, parseAction } from "./actions.js";
import { CardImage } from "./card-view.js";
import { formatMs, timeLeft, useNow } from "./clock.js";
import { accusoText, type SeatNamer } from "./events.js";
import { isCalling, type GameName } from "./games.js";
import { useT } from "./i18n-context.js";
import { lastTrick, modelGame, notations, type TableModel } from "./state.js";
import { TrickCards } from "./trick-view.js";
import {
  contractWord,
  kindName,
  phaseName,
  roleWord,
  suitLetter,
} from "./wire.js";

/** The hand's headline: number, phase, contract or call, trump, role. */
export function HandInfo(props: {
  obs: Observation;
  game: GameName;
  name: SeatNamer;
}): VNode {
  const t = useT();
  const o = props.obs;
  const items: [string, VNode | string][] = [];
  const phase = phaseName(o.phase);
  if (o.soloist !== undefined && o.contract) {
    items.push([
      t("table.contract"),
      `${t(`contract.${contractWord(o.contract)}`)} · ${t("table.soloist")}: ${props.name(o.soloist)}`,
    ]);
  } else if (o.phase === Phase.AUCTION && (o.highestBid || o.highest)) {
    const what = o.highest
      ? bidName(t, parseAction(o.highest.notation))
      : t(`contract.${contractWord(o.highestBid)}`);
    items.push([
      t("table.auction"),
      t("table.highest", { what, name: props.name(o.highestBidder) }),
    ]);
  }
  if (o.caller !== undefined) {
    const bid = o.bid ? ` (${bidName(t, parseAction(o.bid.notation))})` : "";
    items.push([
      t("table.caller"),
      `${props.name(o.caller)}${bid}${o.alone ? ` · ${t("table.alone")}` : ""}`,
    ]);
  }
  if (o.called) {
    items.push([
      t("table.called"),
      <CardImage card={o.called.notation} class="small" />,
    ]);
  }
  if (o.partner !== undefined) {
    items.push([t("table.partner"), props.name(o.partner)]);
  }
  if (o.trump) {
    items.push([t("table.trump"), t(`suit.${suitLetter(o.trump)}`)]);
  }
  if (o.target !== undefined && isCalling(props.game)) {
    items.push(["", t("table.target", { n: o.target })]);
  }
  // Accusi stay in view for the whole hand (the event list scrolls on).
  for (const e of o.events) {
    if (e.kind === EventKind.DECLARED && e.accuso) {
      items.push([
        t("table.accuso"),
        `${props.name(e.seat)}: ${accusoText(t, e.accuso)} (${e.accuso.points})`,
      ]);
    }
  }
  const role = roleWord(o.role);
  if (role) items.push(["", t("table.role", { role: t(`role.${role}`) })]);
  if (o.phase === Phase.PLAY && o.tricksDone > 0) {
    items.push(["", t("table.tricksDone", { n: o.tricksDone })]);
  }
  if (props.game === "tressette-in-due") {
    items.push(["", t("table.stock", { n: o.stockLeft })]);
  }
  return (
    <div class="hand-info">
      <h2>
        {t("table.hand", { n: o.handNumber + 1 })}
        {phase ? <span class="phase"> · {t(`phase.${phase}`)}</span> : null}
      </h2>
      {items.length > 0 ? (
        <ul class="facts">
          {items.map(([k, v], i) => (
            <li key={i} class="fact">
              {k ? <span class="fact-key">{k}</span> : null}
              <span>{v}</span>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

/** One seat: name, kind, role marks, cards held, clock and total. */
export function SeatPanel(props: {
  seat: number;
  model: TableModel;
  decider: number | undefined;
  name: SeatNamer;
}): VNode {
  const t = useT();
  const { seat, model: m } = props;
  const info = m.table?.seats[seat];
  const obs = m.obs;
  const deciding = props.decider === seat;
  const now = useNow(deciding && m.turn !== undefined);
  const left =
    deciding && m.turn?.decider === seat ? timeLeft(m.turn, now) : undefined;
  const held = obs?.handSizes[seat];
  const marks: string[] = [];
  if (obs?.dealer === seat) marks.push(t("table.dealer"));
  if (obs?.idle === seat) marks.push(t("table.idle"));
  if (obs?.soloist === seat) marks.push(t("table.soloist"));
  if (obs?.caller === seat) marks.push(t("table.caller"));
  if (obs?.partner === seat) marks.push(t("table.partner"));
  const total = totalOf(m, seat);
  const bank =
    info && m.table?.clock && m.table.clock.bankMs > 0
      ? info.bankMs
      : undefined;
  const you = m.seat === seat;
  return (
    <div
      role="listitem"
      class={`seat-panel${deciding ? " deciding" : ""}${you ? " you" : ""}`}
      data-seat-panel={seat}
    >
      <div class="seat-name">
        <span class="name">{props.name(seat)}</span>
        {you ? <span class="you-mark"> ({t("table.you")})</span> : null}
      </div>
      <div class="seat-kind">
        {info
          ? t(
              `kind.${info.taken && info.kind === SeatKind.OPEN ? "player" : kindName(info.kind)}`,
            )
          : ""}
        {marks.length > 0 ? ` · ${marks.join(" · ")}` : ""}
      </div>
      <div class="seat-stats">
        {held !== undefined ? (
          <span data-cards-held={held}>{t("table.cards", { n: held })}</span>
        ) : null}
        {total !== undefined ? (
          <span>{t("table.total", { n: total })}</span>
        ) : null}
        {obs && obs.seatPoints.length > seat && isCalling(modelGame(m)) ? (
          <span>
            {t("table.points", { points: obs.seatPoints[seat] ?? 0 })}
          </span>
        ) : null}
      </div>
      <div class="seat-clock" data-clock>
        {deciding ? <span class="to-act">{t("table.toAct")}</span> : null}
        {left !== undefined ? (
          <span
            class={`countdown${left < 10000 ? " urgent" : ""}`}
            data-time-left={Math.ceil(left / 1000)}
          >
            {t("table.clock", { time: formatMs(left) })}
          </span>
        ) : null}
        {bank !== undefined ? (
          <span class="bank">{t("table.bank", { time: formatMs(bank) })}</span>
        ) : null}
      </div>
    </div>
  );
}

/** A seat's match total: signed per seat where the game keeps one, else per side. */
function totalOf(m: TableModel, seat: number): number | undefined {
  const signed = m.obs?.signedTotals.length
    ? m.obs.signedTotals
    : m.table?.signedTotals;
  if (signed && signed.length > seat) return signed[seat];
  const totals = m.obs?.totals.length ? m.obs.totals : m.table?.totals;
  if (!totals || totals.length === 0) return undefined;
  // Tressette keeps totals per partnership: seat i is in side i mod 2.
  return modelGame(m) === "tressette" ? totals[seat % 2] : totals[seat];
}

/** The trick in progress, with who played each card, and the last trick. */
export function TrickArea(props: { obs: Observation; name: SeatNamer }): VNode {
  const t = useT();
  const o = props.obs;
  const last = lastTrick(o.events);
  const monte = monteShown(o);
  return (
    <section class="trick-area" aria-labelledby="trick-title">
      <h2 id="trick-title">{t("table.trick")}</h2>
      <TrickCards
        trick={o.trick}
        name={props.name}
        cardAttr="data-card"
        trickAttr
      />
      {last && last.cards.length > 0 ? (
        <div class="last-trick">
          <h3>{t("table.lastTrick", { name: props.name(last.winner) })}</h3>
          <ol class="trick small">
            {last.cards.map((c) => (
              <li key={c.card} class="played">
                <CardImage
                  card={c.card}
                  class="small"
                  attrs={{ "data-last-trick-card": c.card }}
                />
                <span class="played-by">{props.name(c.seat)}</span>
              </li>
            ))}
          </ol>
        </div>
      ) : null}
      {monte.length > 0 && o.phase === Phase.TAKE ? (
        <div class="monte-shown">
          <h3>{t("table.monteShown")}</h3>
          <div class="card-row">
            {monte.map((c) => (
              <CardImage key={c} card={c} class="small" />
            ))}
          </div>
        </div>
      ) : null}
    </section>
  );
}

/** The open monte of a scegliete hand, if shown. */
function monteShown(o: Observation): string[] {
  for (const e of o.events) {
    if (e.kind === EventKind.MONTE_SHOWN) return notations(e.cards);
  }
  return [];
}
