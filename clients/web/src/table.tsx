/**
 * The table: as a player (this tab holds the seat's token) or as a spectator. Seats with
 * their names, cards held and clocks; the trick in the middle; the decision due with every
 * legal action (and only those) as an enabled element carrying `data-action`; the own hand as
 * cards, playable by mouse or keyboard; what happened; scores; the deal revealed after each
 * hand; the match's end.
 */
import {
  EventKind,
  Phase,
  SeatKind,
  type HandResult,
  type Observation,
  type Table,
} from "@calabresella/client";
import type { VNode } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import {
  actionLabel,
  bidName,
  handCardOf,
  parseAction,
  signalName,
} from "./actions.js";
import { api, errorText } from "./api.js";
import { cardName, compareCards } from "./cards.js";
import { CardButton, CardImage } from "./card-view.js";
import { formatMs, timeLeft, useNow } from "./clock.js";
import { DealMark } from "./deals-view.js";
import { accusoText, eventText, resultText, type SeatNamer } from "./events.js";
import { isCalling, type GameName } from "./games.js";
import type { Translate } from "./i18n/index.js";
import { useT } from "./i18n-context.js";
import { href } from "./routes.js";
import { loadCreatorKey, loadSeat, saveSeat } from "./session.js";
import {
  deciderOf,
  lastTrick,
  modelGame,
  notations,
  seatsOf,
  shownActions,
  type Revealed,
  type TableModel,
} from "./state.js";
import { TableSession, type SessionView } from "./table-session.js";
import { TrickCards } from "./trick-view.js";
import {
  contractWord,
  kindName,
  phaseName,
  roleWord,
  stateName,
  suitLetter,
} from "./wire.js";
import { ScrollTable } from "./scroll-table.js";

/** The table page for `tableId`. */
export function TableView(props: { tableId: string }): VNode {
  const [session, setSession] = useState<TableSession | undefined>(undefined);
  const [view, setView] = useState<SessionView | undefined>(undefined);
  // Bumped after joining from this page, to start over as the seat.
  const [generation, setGeneration] = useState(0);

  useEffect(() => {
    const s = new TableSession(api(), props.tableId, loadSeat(props.tableId));
    setSession(s);
    setView(s.view);
    const off = s.subscribe(setView);
    void s.run();
    return () => {
      off();
      s.stop();
    };
  }, [props.tableId, generation]);

  if (!session || !view) return <p>…</p>;
  return (
    <TableScreen
      view={view}
      session={session}
      onJoined={() => setGeneration((g) => g + 1)}
    />
  );
}

/** Names seats after their players (or their kind, or their number). */
function seatNamer(t: Translate, table: Table | undefined): SeatNamer {
  return (seat) => {
    if (seat === undefined) return "?";
    const s = table?.seats[seat];
    // Bots share their kind's name: their seat number tells them apart.
    const bot =
      s?.kind === SeatKind.BOT_RANDOM || s?.kind === SeatKind.BOT_HEURISTIC;
    if (s?.taken && s.playerName && !bot) return s.playerName;
    if (s && s.kind !== SeatKind.OPEN) {
      return `${t(`kind.${kindName(s.kind)}`)} (${t("common.seat", { n: seat + 1 })})`;
    }
    return t("common.seat", { n: seat + 1 });
  };
}

function TableScreen(props: {
  view: SessionView;
  session: TableSession;
  onJoined: () => void;
}): VNode {
  const t = useT();
  const { view, session } = props;
  const m = view.model;
  const table = m.table;
  const obs = m.obs;
  const game = modelGame(m);
  const name = seatNamer(t, table);
  const state = stateName(table?.state);
  const decider = deciderOf(m);
  const legal = shownActions(m);
  const act = (notation: string) => void session.act(notation);

  if (view.notFound) {
    return (
      <section
        class="table-view"
        data-table-id={m.tableId}
        data-state=""
        data-phase=""
        data-decider=""
        data-seat=""
      >
        <h1>{t("table.notFound", { id: m.tableId })}</h1>
        <p>
          <a href={href({ page: "lobby" })}>{t("common.back")}</a>
        </p>
      </section>
    );
  }

  const seats = table?.seats.length || seatsOf(obs?.options);
  const over = state === "finished" || m.ended !== undefined;
  const title = t("table.title", {
    game: t(`game.${game}`),
    name: table?.name || m.tableId,
  });
  return (
    <section
      class="table-view"
      aria-labelledby="table-title"
      data-table-id={m.tableId}
      data-state={state}
      data-phase={phaseName(obs?.phase)}
      data-decider={decider === undefined ? "" : String(decider)}
      data-seat={m.seat === undefined ? "" : String(m.seat)}
    >
      <div class="table-head">
        <h1 id="table-title">{title}</h1>
        <ConnectionBadge view={view} onRetry={() => session.retry()} />
      </div>
      {table && (table.seeded || table.commitment) ? (
        <p class="deal-line">
          <DealMark table={table} long />
        </p>
      ) : null}
      {view.tokenRefused ? <p class="note">{t("table.badToken")}</p> : null}
      {m.mode === "public" ? <p class="note">{t("table.spectating")}</p> : null}
      {view.error ? (
        <p class="error" role="alert">
          {t("table.refused", { message: view.error })}
        </p>
      ) : null}
      {m.timeout && !over ? (
        <p class="note" role="status">
          {t("table.timedOut", { name: name(m.timeout.seat) })}
        </p>
      ) : null}
      {over ? <MatchOver model={m} name={name} /> : null}
      {!obs && state === "waiting" ? (
        <Waiting
          table={table}
          mode={m.mode}
          name={name}
          onJoined={props.onJoined}
        />
      ) : null}
      {obs ? (
        <>
          <HandInfo obs={obs} game={game} name={name} />
          <div class="seats" role="list">
            {Array.from({ length: seats }, (_, i) => (
              <SeatPanel
                key={i}
                seat={i}
                model={m}
                decider={decider}
                name={name}
              />
            ))}
          </div>
          <div class="board">
            <TrickArea obs={obs} name={name} />
            {over ? null : (
              <Decision
                model={m}
                legal={legal}
                decider={decider}
                sending={view.sending}
                name={name}
                onAct={act}
              />
            )}
          </div>
          <Hands model={m} legal={legal} name={name} onAct={act} />
          {/* Five seats' score columns need the page's whole width. */}
          <div class={seats > 4 ? "columns stacked" : "columns"}>
            <EventLog obs={obs} name={name} />
            <Scores obs={obs} table={table} game={game} name={name} />
          </div>
        </>
      ) : null}
      {m.revealed ? <RevealedDeal revealed={m.revealed} name={name} /> : null}
    </section>
  );
}

function ConnectionBadge(props: {
  view: SessionView;
  onRetry: () => void;
}): VNode {
  const t = useT();
  const status = props.view.connection;
  // The contract's three states: "connecting" is shown as reconnecting-like "not yet live".
  const contractStatus = status === "connecting" ? "reconnecting" : status;
  const ended = props.view.model.ended !== undefined;
  return (
    <div class="connection">
      <span
        class={`badge badge-${status}`}
        data-connection
        data-status={contractStatus}
        role="status"
      >
        <span class="visually-hidden">{t("connection.label")}: </span>
        {t(`connection.${status}`)}
      </span>
      {status === "closed" && !ended ? (
        <button type="button" onClick={props.onRetry}>
          {t("connection.retry")}
        </button>
      ) : null}
    </div>
  );
}

/** The match's end: winners, a draw, a forfeit. */
function MatchOver(props: { model: TableModel; name: SeatNamer }): VNode {
  const t = useT();
  const m = props.model;
  const result = m.ended?.result ?? m.table?.result;
  const winners = result?.winners ?? [];
  const names = winners.map((w) => props.name(w)).join(", ");
  return (
    <div
      class="match-over panel"
      data-match-over
      data-winners={winners.join(" ")}
      role="status"
    >
      <h2>{t("table.matchOver")}</h2>
      <p class="winners">
        {winners.length > 0 ? t("table.winners", { names }) : t("table.draw")}
      </p>
      {result?.forfeitedBy !== undefined ? (
        <p>{t("table.forfeit", { name: props.name(result.forfeitedBy) })}</p>
      ) : null}
      <p>
        <a href={href({ page: "replay", tableId: m.tableId })}>
          {t("table.replay")}
        </a>
        {" · "}
        <a href={href({ page: "lobby" })}>{t("common.back")}</a>
      </p>
    </div>
  );
}

/** A waiting table: who is in, and (for a watcher) the seats still free. */
function Waiting(props: {
  table: Table | undefined;
  mode: "seat" | "public";
  name: SeatNamer;
  onJoined: () => void;
}): VNode {
  const t = useT();
  const [error, setError] = useState("");
  const [playerName, setPlayerName] = useState("");
  const table = props.table;
  const join = async (seat: number) => {
    if (!table) return;
    const n = playerName.trim();
    if (n === "") {
      setError(t("lobby.needName"));
      return;
    }
    try {
      const s = await api().join(table.tableId, {
        playerName: n,
        seat,
        creatorKey: loadCreatorKey(table.tableId),
      });
      saveSeat(table.tableId, { seat: s.seat, token: s.token, name: n });
      props.onJoined();
    } catch (e) {
      setError(t("common.error", { message: errorText(e) }));
    }
  };
  const free =
    table?.seats.filter((s) => s.kind === SeatKind.OPEN && !s.taken) ?? [];
  return (
    <div class="panel waiting">
      <p>{t("table.waiting")}</p>
      <ul class="seat-list">
        {(table?.seats ?? []).map((s) => (
          <li key={s.seat}>
            {t("common.seat", { n: s.seat + 1 })}:{" "}
            {s.taken ? props.name(s.seat) : t(`kind.${kindName(s.kind)}`)}
          </li>
        ))}
      </ul>
      {props.mode === "public" && free.length > 0 ? (
        <div class="join-here">
          <label class="field">
            <span>{t("lobby.name")}</span>
            <input
              type="text"
              name="join-name"
              maxLength={64}
              value={playerName}
              onInput={(e) =>
                setPlayerName((e.currentTarget as HTMLInputElement).value)
              }
            />
          </label>
          {free.map((s) => (
            <button
              key={s.seat}
              type="button"
              onClick={() => void join(s.seat)}
            >
              {t("table.joinSeat", { n: s.seat + 1 })}
            </button>
          ))}
        </div>
      ) : null}
      {error ? (
        <p class="error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** The hand's headline: number, phase, contract or call, trump, role. */
function HandInfo(props: {
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
function SeatPanel(props: {
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
function TrickArea(props: { obs: Observation; name: SeatNamer }): VNode {
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

/**
 * The decision due: whose it is; for this viewer, the actions that are not a card of a hand
 * (bids, pass, calls, takes, and any other), each an enabled button with `data-action`.
 */
function Decision(props: {
  model: TableModel;
  legal: string[];
  decider: number | undefined;
  sending: boolean;
  name: SeatNamer;
  onAct: (a: string) => void;
}): VNode {
  const t = useT();
  const m = props.model;
  const mine = props.legal.length > 0;
  const onCards = new Set(cardActionsShown(m, props.legal));
  const calls = props.legal.filter((a) => a.startsWith("call "));
  const others = props.legal.filter(
    (a) => !onCards.has(a) && !a.startsWith("call "),
  );
  const phase = phaseName(m.obs?.phase);
  let hint = "";
  if (mine && (phase === "play" || phase === "discard" || phase === "return")) {
    hint = t(`table.hint.${phase}`);
  }
  return (
    <section class="decision" aria-labelledby="decision-title">
      <h2 id="decision-title" class="visually-hidden">
        {t("table.choice")}
      </h2>
      <p class="whose" aria-live="polite">
        {mine
          ? t("table.yourTurn")
          : props.decider !== undefined && !m.ended
            ? t("table.waitingFor", { name: props.name(props.decider) })
            : ""}
        {props.sending ? ` · ${t("table.pending")}` : ""}
      </p>
      {hint ? <p class="hint">{hint}</p> : null}
      {others.length > 0 ? (
        <div class="action-buttons" role="group" aria-label={t("table.choice")}>
          {others.map((a) => (
            <button
              key={a}
              type="button"
              class="action"
              data-action={a}
              onClick={() => props.onAct(a)}
            >
              {actionLabel(t, a)}
            </button>
          ))}
        </div>
      ) : null}
      {calls.length > 0 ? (
        <div class="call-grid" role="group" aria-label={t("table.callCard")}>
          <h3>{t("table.callCard")}</h3>
          <div class="card-row wrap">
            {calls.map((a) => {
              const card = a.slice(5);
              return (
                <CardButton
                  key={a}
                  card={card}
                  action={a}
                  label={actionLabel(t, a)}
                  onAct={props.onAct}
                  tabIndex={0}
                  class="small"
                />
              );
            })}
          </div>
        </div>
      ) : null}
    </section>
  );
}

/**
 * The actions drawn on cards of a hand shown on this page (the own hand and the hands the
 * viewer sees: the a due dummy it plays, the aperta partner): plain plays, discards, returns
 * and their signalled variants.
 */
function cardActionsShown(m: TableModel, legal: string[]): string[] {
  const shown = new Set<string>(m.obs ? notations(m.obs.hand) : []);
  for (const v of m.obs?.visibleHands ?? []) {
    for (const c of v.cards) shown.add(c.notation);
  }
  return legal.filter((a) => {
    const p = parseAction(a);
    if (p.kind === "play") return shown.has(p.card);
    const card = handCardOf(a);
    return card !== undefined && shown.has(card);
  });
}

/** The own hand and the other hands this viewer sees. */
function Hands(props: {
  model: TableModel;
  legal: string[];
  name: SeatNamer;
  onAct: (a: string) => void;
}): VNode | null {
  const t = useT();
  const m = props.model;
  const o = m.obs;
  if (!o) return null;
  const own = notations(o.hand).sort(compareCards);
  const others = o.visibleHands.filter((v) => v.seat !== m.seat);
  return (
    <>
      {m.mode === "seat" ? (
        <HandRow
          title={t("table.yourHand")}
          cards={own}
          legal={props.legal}
          onAct={props.onAct}
          own
        />
      ) : null}
      {others.map((v) => (
        <HandRow
          key={v.seat}
          title={t("table.handOf", { name: props.name(v.seat) })}
          cards={notations(v.cards).sort(compareCards)}
          legal={props.legal}
          onAct={props.onAct}
          seat={v.seat}
        />
      ))}
    </>
  );
}

const SIGNAL_KEYS: Record<string, string> = {
  b: "busso",
  s: "striscio",
  v: "volo",
};

/**
 * A row of cards as buttons with a roving tabindex: Tab enters the row once (on a playable
 * card when there is one), the arrow keys, Home and End move along it, Enter or Space plays the
 * focused card, and B, S or V play it with a signal.
 */
function HandRow(props: {
  title: string;
  cards: string[];
  legal: string[];
  onAct: (a: string) => void;
  own?: boolean;
  seat?: number;
}): VNode {
  const t = useT();
  const refs = useRef<(HTMLButtonElement | null)[]>([]);
  const [focus, setFocus] = useState(0);
  const actionOf = (card: string) =>
    props.legal.find((a) => handCardOf(a) === card);
  const signalsOf = (card: string) =>
    props.legal.filter((a) => {
      const p = parseAction(a);
      return p.kind === "play" && p.card === card && p.signal !== undefined;
    });
  const firstLegal = props.cards.findIndex((c) => actionOf(c) !== undefined);
  const legalKey = props.legal.join("|");
  // Whether the keyboard was in this row: then the focus follows the play (below).
  const inside = useRef(false);
  // A new decision: the row's tab stop moves to its first playable card, and when the card
  // that had the focus was played (its button is gone), the focus comes back to the row.
  useEffect(() => {
    if (firstLegal >= 0) setFocus(firstLegal);
    const lost =
      document.activeElement === null ||
      document.activeElement === document.body;
    if (inside.current && lost && props.cards.length > 0) {
      refs.current[firstLegal >= 0 ? firstLegal : 0]?.focus();
    }
  }, [legalKey, props.cards.join(" ")]);
  const current = Math.min(focus, Math.max(0, props.cards.length - 1));

  const move = (to: number) => {
    const n = props.cards.length;
    if (n === 0) return;
    const i = (to + n) % n;
    setFocus(i);
    refs.current[i]?.focus();
  };
  const onKey = (i: number, card: string) => (e: KeyboardEvent) => {
    switch (e.key) {
      case "ArrowRight":
      case "ArrowDown":
        e.preventDefault();
        move(i + 1);
        return;
      case "ArrowLeft":
      case "ArrowUp":
        e.preventDefault();
        move(i - 1);
        return;
      case "Home":
        e.preventDefault();
        move(0);
        return;
      case "End":
        e.preventDefault();
        move(props.cards.length - 1);
        return;
    }
    const signal = SIGNAL_KEYS[e.key.toLowerCase()];
    if (signal && !e.ctrlKey && !e.metaKey && !e.altKey) {
      const a = signalsOf(card).find((x) => x.endsWith(` ${signal}`));
      if (a) {
        e.preventDefault();
        props.onAct(a);
      }
    }
  };
  const anySignals = props.cards.some((c) => signalsOf(c).length > 0);
  const id = `hand-${props.seat ?? "own"}`;
  return (
    <section
      class={`hand-area${props.own ? " own" : ""}`}
      aria-labelledby={`${id}-title`}
    >
      <h2 id={`${id}-title`}>{props.title}</h2>
      {anySignals ? <p class="hint">{t("table.signalKeys")}</p> : null}
      <ul
        class="hand"
        data-hand={props.own ? "" : undefined}
        data-visible-hand={props.own ? undefined : props.seat}
      >
        {props.cards.map((card, i) => {
          const action = actionOf(card);
          const signals = signalsOf(card);
          return (
            <li key={card} class="hand-slot">
              <CardButton
                card={card}
                action={action}
                label={action ? actionLabel(t, action) : cardName(t, card)}
                onAct={props.onAct}
                tabIndex={i === current ? 0 : -1}
                attrs={{ "data-card": card }}
                onKeyDown={onKey(i, card)}
                onFocus={() => {
                  inside.current = true;
                  setFocus(i);
                }}
                onBlur={(e: FocusEvent) => {
                  // Leaving for another element ends it; losing the focus to nothing (the
                  // card was played and removed) does not.
                  if (e.relatedTarget !== null) inside.current = false;
                }}
                buttonRef={(el) => {
                  refs.current[i] = el;
                }}
                keyshortcuts={signals.length > 0 ? "B S V" : undefined}
              />
              {signals.length > 0 ? (
                <div class="signals">
                  {signals.map((a) => {
                    const p = parseAction(a);
                    const word = p.kind === "play" ? (p.signal ?? "") : "";
                    return (
                      <button
                        key={a}
                        type="button"
                        class="signal"
                        data-action={a}
                        tabIndex={-1}
                        aria-label={actionLabel(t, a)}
                        onClick={() => props.onAct(a)}
                      >
                        {signalName(t, word)}
                      </button>
                    );
                  })}
                </div>
              ) : null}
            </li>
          );
        })}
      </ul>
    </section>
  );
}

/** What happened this hand, newest last; the newest line is announced to screen readers. */
function EventLog(props: { obs: Observation; name: SeatNamer }): VNode {
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
function Scores(props: {
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
function RevealedDeal(props: { revealed: Revealed; name: SeatNamer }): VNode {
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
