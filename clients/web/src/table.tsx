/**
 * The table: as a player (this tab holds the seat's token) or as a spectator. The page, its
 * connection, the wait for players and the match's end are here; the seats and the trick in
 * `table-seats.tsx`, the decision due and the own hand in `table-decision.tsx`, what happened,
 * the scores and the revealed deals in `table-record.tsx`.
 */
import { SeatKind, type Table } from "@calabresella/client";
import type { VNode } from "preact";
import { useEffect, useState } from "preact/hooks";
import { api, errorText } from "./api.js";
import { DealMark } from "./deals-view.js";
import { type SeatNamer } from "./events.js";
import type { Translate } from "./i18n/index.js";
import { useT } from "./i18n-context.js";
import { href } from "./routes.js";
import { loadCreatorKey, loadSeat, saveSeat } from "./session.js";
import {
  deciderOf,
  modelGame,
  seatsOf,
  shownActions,
  type TableModel,
} from "./state.js";
import { TableSession, type SessionView } from "./table-session.js";
import { kindName, phaseName, stateName } from "./wire.js";
import { HandInfo, SeatPanel, TrickArea } from "./table-seats.js";
import { Decision, Hands } from "./table-decision.js";
import { EventLog, RevealedDeal, Scores } from "./table-record.js";

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
