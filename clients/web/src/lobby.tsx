/**
 * The lobby: the create-table form (game, rules, seats, clock) and the live list of tables
 * (polled every two seconds) with buttons to join a free seat, watch, or replay.
 */
import {
  SeatKind,
  TimeoutPolicy,
  type GameDescription,
  type Table,
} from "@calabresella/client";
import type { VNode } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import { useAccount } from "./account.js";
import { api, errorText } from "./api.js";
import { SeekPanel } from "./seek.js";
import { DealMark } from "./deals-view.js";
import { WithGames } from "./game-catalog.js";
import { GameSelect } from "./game-select.js";
import { dummySeat, gameName } from "./games.js";
import { OptionFields } from "./option-fields.js";
import {
  changedSettings,
  defaultValues,
  seatCount,
  type OptionValues,
} from "./option-values.js";
import { useT } from "./i18n-context.js";
import { href, navigate } from "./routes.js";
import { loadSeat, saveCreatorKey, saveSeat } from "./session.js";
import { kindName, stateName } from "./wire.js";
import { ScrollTable } from "./scroll-table.js";

/** How often the table list is fetched again. */
const POLL_MS = 2000;

/** Where the player's name is remembered between visits (it is public anyway). */
const NAME_KEY = "calabresella.name";

function storedName(): string {
  try {
    return localStorage.getItem(NAME_KEY) ?? "";
  } catch {
    return "";
  }
}

function keepName(name: string): void {
  try {
    localStorage.setItem(NAME_KEY, name);
  } catch {
    // Not remembered: nothing else depends on it.
  }
}

/** The lobby page. */
export function Lobby(): VNode {
  const t = useT();
  const [name, setName] = useState(storedName);
  const nameRef = useRef<HTMLInputElement>(null);
  const [joinError, setJoinError] = useState("");

  /** Joins a seat with the name of the form, then goes to the table. */
  const join = async (tableId: string, seat: number) => {
    const playerName = name.trim();
    if (playerName === "") {
      setJoinError(t("lobby.needName"));
      nameRef.current?.focus();
      return;
    }
    setJoinError("");
    try {
      const s = await api().join(tableId, { playerName, seat });
      saveSeat(tableId, { seat: s.seat, token: s.token, name: playerName });
      keepName(playerName);
      navigate({ page: "table", tableId });
    } catch (e) {
      setJoinError(t("common.error", { message: errorText(e) }));
    }
  };

  const account = useAccount();
  return (
    <div class="lobby">
      <h1>{t("lobby.title")}</h1>
      {account ? (
        <SeekPanel account={account} />
      ) : (
        <p class="sub" data-seek-hint>
          {t("seek.signInFirst")}
        </p>
      )}
      <section class="panel create" aria-labelledby="create-title">
        <h2 id="create-title">{t("lobby.create")}</h2>
        <WithGames
          render={(games) => (
            <CreateForm
              games={games}
              name={name}
              setName={setName}
              nameRef={nameRef}
            />
          )}
        />
      </section>
      <TableList onJoin={join} error={joinError} />
    </div>
  );
}

/** Default seat kinds: the creator in seat 0, heuristic bots elsewhere. */
function defaultSeats(n: number, previous: string[] = []): string[] {
  return Array.from(
    { length: n },
    (_, i) => previous[i] ?? (i === 0 ? "open" : "heuristic"),
  );
}

/** The create form, for the games the server described. */
function CreateForm(props: {
  games: readonly GameDescription[];
  name: string;
  setName: (s: string) => void;
  nameRef: { current: HTMLInputElement | null };
}): VNode {
  const t = useT();
  const [game, setGame] = useState<GameDescription>(props.games[0]!);
  const [values, setValues] = useState<OptionValues>(() =>
    defaultValues(props.games[0]!),
  );
  const [seats, setSeats] = useState<string[]>(() =>
    defaultSeats(props.games[0]!.defaultPlayers),
  );
  const [tableName, setTableName] = useState("");
  const [moveMs, setMoveMs] = useState("0");
  const [bankMs, setBankMs] = useState("0");
  const [onTimeout, setOnTimeout] = useState("bot");
  const [botDelay, setBotDelay] = useState("600");
  const [seed, setSeed] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");

  const n = seatCount(game, values);
  const dummy = dummySeat(game.name, values);
  const shownSeats = defaultSeats(n, seats);

  const chooseGame = (name: string) => {
    const g = props.games.find((x) => x.name === name);
    if (!g) return;
    setGame(g);
    setValues(defaultValues(g));
    setSeats(defaultSeats(g.defaultPlayers));
  };

  const submit = async (e: Event) => {
    e.preventDefault();
    if (busy) return;
    const kinds = shownSeats.map((k, i) => (i === dummy ? "open" : k));
    const openSeat = kinds.findIndex((k, i) => k === "open" && i !== dummy);
    const playerName = props.name.trim();
    if (openSeat >= 0 && playerName === "") {
      setError(t("lobby.needName"));
      props.nameRef.current?.focus();
      return;
    }
    setBusy(true);
    setError("");
    try {
      const client = api();
      const { table, creatorKey } = await client.createTableWithKey({
        game: game.name,
        options: changedSettings(game, values),
        seats: kinds,
        name: tableName.trim(),
        clock: {
          moveMs: toUint(moveMs),
          bankMs: toUint(bankMs),
          onTimeout:
            onTimeout === "forfeit" ? TimeoutPolicy.FORFEIT : TimeoutPolicy.BOT,
        },
        botDelayMs: toUint(botDelay),
        seed: /^\d+$/.test(seed.trim()) ? BigInt(seed.trim()) : undefined,
      });
      if (openSeat >= 0) {
        saveCreatorKey(table.tableId, creatorKey);
        const s = await client.join(table.tableId, {
          playerName,
          seat: openSeat,
          creatorKey,
        });
        saveSeat(table.tableId, {
          seat: s.seat,
          token: s.token,
          name: playerName,
        });
        keepName(playerName);
      }
      navigate({ page: "table", tableId: table.tableId });
    } catch (err) {
      setError(t("common.error", { message: errorText(err) }));
      setBusy(false);
    }
  };

  return (
    <form data-create-table onSubmit={submit} noValidate>
      <div class="form-grid">
        <label class="field">
          <span>{t("lobby.name")}</span>
          <input
            ref={props.nameRef}
            name="player-name"
            type="text"
            maxLength={64}
            autoComplete="nickname"
            value={props.name}
            onInput={(e) =>
              props.setName((e.currentTarget as HTMLInputElement).value)
            }
          />
        </label>
        <GameSelect
          name="game"
          games={props.games}
          value={game.name}
          onChange={chooseGame}
        />
        <label class="field">
          <span>{t("lobby.tableName")}</span>
          <input
            name="table-name"
            type="text"
            maxLength={100}
            value={tableName}
            onInput={(e) =>
              setTableName((e.currentTarget as HTMLInputElement).value)
            }
          />
        </label>
      </div>

      <fieldset>
        <legend>{t("lobby.options")}</legend>
        <OptionFields
          form="create"
          game={game}
          values={values}
          onChange={(key, value) => setValues({ ...values, [key]: value })}
        />
      </fieldset>

      <fieldset>
        <legend>{t("lobby.seats")}</legend>
        <div class="form-grid">
          {shownSeats.map((k, i) => (
            <label class="field" key={`seat-${i}`}>
              <span>{t("common.seat", { n: i + 1 })}</span>
              {i === dummy ? (
                <select name={`seat-${i}`} disabled value="open">
                  <option value="open">{t("kind.dummy")}</option>
                </select>
              ) : (
                <select
                  name={`seat-${i}`}
                  value={k}
                  onChange={(e) => {
                    const next = [...shownSeats];
                    next[i] = (e.currentTarget as HTMLSelectElement).value;
                    setSeats(next);
                  }}
                >
                  <option value="open">{t("kind.open")}</option>
                  <option value="random">{t("kind.random")}</option>
                  <option value="heuristic">{t("kind.heuristic")}</option>
                  <option value="pimc">{t("kind.pimc")}</option>
                  <option value="ismcts">{t("kind.ismcts")}</option>
                  <option value="best">{t("kind.best")}</option>
                </select>
              )}
            </label>
          ))}
        </div>
        {dummy !== undefined ? (
          <p class="note">{t("lobby.dummyNote")}</p>
        ) : null}
      </fieldset>

      <fieldset>
        <legend>{t("lobby.clock")}</legend>
        <div class="form-grid">
          <NumberField
            name="move-ms"
            label={t("lobby.moveMs")}
            value={moveMs}
            set={setMoveMs}
          />
          <NumberField
            name="bank-ms"
            label={t("lobby.bankMs")}
            value={bankMs}
            set={setBankMs}
          />
          <label class="field">
            <span>{t("lobby.onTimeout")}</span>
            <select
              name="on-timeout"
              value={onTimeout}
              onChange={(e) =>
                setOnTimeout((e.currentTarget as HTMLSelectElement).value)
              }
            >
              <option value="bot">{t("lobby.timeout.bot")}</option>
              <option value="forfeit">{t("lobby.timeout.forfeit")}</option>
            </select>
          </label>
          <NumberField
            name="bot-delay-ms"
            label={t("lobby.botDelay")}
            value={botDelay}
            set={setBotDelay}
            max={10000}
          />
          <label class="field">
            <span>{t("lobby.seed")}</span>
            <input
              name="seed"
              type="text"
              inputMode="numeric"
              pattern="[0-9]*"
              value={seed}
              onInput={(e) =>
                setSeed((e.currentTarget as HTMLInputElement).value)
              }
            />
          </label>
        </div>
        {seed.trim() !== "" ? <p class="hint">{t("lobby.seedNote")}</p> : null}
      </fieldset>

      {error ? (
        <p class="error" role="alert">
          {error}
        </p>
      ) : null}
      <button type="submit" class="primary" disabled={busy}>
        {busy ? t("lobby.creating") : t("lobby.submit")}
      </button>
    </form>
  );
}

/** A whole number from a field (0 when empty or malformed). */
function toUint(s: string): number {
  const v = Number(s.trim());
  return Number.isSafeInteger(v) && v >= 0 ? v : 0;
}

function NumberField(props: {
  name: string;
  label: string;
  value: string;
  set: (v: string) => void;
  max?: number;
}): VNode {
  return (
    <label class="field">
      <span>{props.label}</span>
      <input
        name={props.name}
        type="number"
        min={0}
        max={props.max}
        step={1}
        value={props.value}
        onInput={(e) => props.set((e.currentTarget as HTMLInputElement).value)}
      />
    </label>
  );
}

/** The live list of tables. */
function TableList(props: {
  onJoin: (tableId: string, seat: number) => void;
  error: string;
}): VNode {
  const t = useT();
  const [tables, setTables] = useState<Table[] | undefined>(undefined);
  const [error, setError] = useState("");

  useEffect(() => {
    const stop = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = async () => {
      try {
        const r = await api().listTables(
          { pageSize: 100 },
          { signal: stop.signal },
        );
        setTables(r.tables);
        setError("");
      } catch (e) {
        if (stop.signal.aborted) return;
        setError(t("common.error", { message: errorText(e) }));
      }
      if (!stop.signal.aborted) timer = setTimeout(poll, POLL_MS);
    };
    void poll();
    return () => {
      stop.abort();
      clearTimeout(timer);
    };
    // The language does not change what is fetched; `t` is read when an error shows.
  }, []);

  return (
    <section class="panel tables" aria-labelledby="tables-title">
      <h2 id="tables-title">{t("lobby.list")}</h2>
      {props.error ? (
        <p class="error" role="alert">
          {props.error}
        </p>
      ) : null}
      {error ? <p class="error">{error}</p> : null}
      {tables === undefined ? (
        <p>{t("common.loading")}</p>
      ) : tables.length === 0 ? (
        <p>{t("lobby.empty")}</p>
      ) : (
        <ScrollTable label={t("lobby.list")}>
          <table class="lobby-table">
            <thead>
              <tr>
                <th scope="col">{t("lobby.col.table")}</th>
                <th scope="col">{t("lobby.col.game")}</th>
                <th scope="col">{t("lobby.col.state")}</th>
                <th scope="col">{t("lobby.col.seats")}</th>
                <th scope="col">{t("lobby.col.actions")}</th>
              </tr>
            </thead>
            <tbody>
              {tables.map((table) => (
                <TableRow
                  key={table.tableId}
                  table={table}
                  onJoin={props.onJoin}
                />
              ))}
            </tbody>
          </table>
        </ScrollTable>
      )}
    </section>
  );
}

/** One listed table. */
function TableRow(props: {
  table: Table;
  onJoin: (tableId: string, seat: number) => void;
}): VNode {
  const t = useT();
  const table = props.table;
  const state = stateName(table.state);
  const game = gameName(table.options?.game ?? 0);
  const mine = loadSeat(table.tableId);
  const open = state === "waiting" || state === "playing";
  return (
    <tr data-lobby-table={table.tableId} data-state={state}>
      <td>
        <span class="table-name">{table.name || table.tableId}</span>
        {table.name ? <span class="table-id">{table.tableId}</span> : null}
        <DealMark table={table} />
      </td>
      <td>{t(`game.${game}`)}</td>
      <td>
        {t(`state.${state}`)}
        {table.handsCompleted > 0 ? (
          <span class="sub">
            {t("lobby.hands", { n: table.handsCompleted })}
          </span>
        ) : null}
      </td>
      <td>
        <ul class="seat-list">
          {table.seats.map((s) => (
            <li key={s.seat}>
              <span class="seat-no">{s.seat + 1}.</span>{" "}
              {s.taken && s.playerName
                ? s.playerName
                : t(`kind.${kindName(s.kind)}`)}
            </li>
          ))}
        </ul>
      </td>
      <td class="row-actions">
        {mine && open ? (
          <a
            class="button"
            href={href({ page: "table", tableId: table.tableId })}
          >
            {t("lobby.resume")}
          </a>
        ) : null}
        {open
          ? table.seats
              .filter((s) => s.kind === SeatKind.OPEN && !s.taken)
              .map((s) => (
                <button
                  key={s.seat}
                  type="button"
                  data-join-seat={s.seat}
                  onClick={() => props.onJoin(table.tableId, s.seat)}
                >
                  {t("lobby.join", { n: s.seat + 1 })}
                </button>
              ))
          : null}
        <a
          class="button"
          data-spectate
          href={href({ page: "table", tableId: table.tableId })}
        >
          {t("lobby.spectate")}
        </a>
        {state === "finished" ? (
          <a
            class="button"
            data-replay
            href={href({ page: "replay", tableId: table.tableId })}
          >
            {t("lobby.replay")}
          </a>
        ) : null}
      </td>
    </tr>
  );
}
