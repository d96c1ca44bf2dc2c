/**
 * The tournaments (`ListTournaments`, polled): upcoming, running and finished, each a link to
 * its page; and the organiser's form that creates one with the server's admin key
 * (`CreateTournament`). The admin key is kept in memory only, for this page's life.
 */
import {
  TimeoutPolicy,
  TournamentFormat,
  TournamentState,
  type GameDescription,
  type Tournament,
  gameOptions,
} from "@calabresella/client";
import type { VNode } from "preact";
import { useEffect, useState } from "preact/hooks";
import { api, errorText, isRefusal, withKey } from "./api.js";
import { WithGames } from "./game-catalog.js";
import { gameName } from "./games.js";
import { GameSelect } from "./game-select.js";
import { OptionFields } from "./option-fields.js";
import {
  changedSettings,
  defaultValues,
  type OptionValues,
} from "./option-values.js";
import { useLang, useT } from "./i18n-context.js";
import { href, navigate } from "./routes.js";
import { ScrollTable } from "./scroll-table.js";

/** How often the list is fetched again. */
const POLL_MS = 3000;

/** The short name of a tournament's state (`registering`, `running`, `finished`). */
export function tournamentState(
  s: TournamentState,
): "registering" | "running" | "finished" {
  switch (s) {
    case TournamentState.RUNNING:
      return "running";
    case TournamentState.FINISHED:
      return "finished";
    default:
      return "registering";
  }
}

/** The short name of a format (`round-robin`, `swiss`, `duplicate`). */
export function formatName(
  f: TournamentFormat,
): "round-robin" | "swiss" | "duplicate" {
  switch (f) {
    case TournamentFormat.SWISS:
      return "swiss";
    case TournamentFormat.DUPLICATE:
      return "duplicate";
    default:
      return "round-robin";
  }
}

/** The tournaments page. */
export function Tournaments(): VNode {
  const t = useT();
  const [list, setList] = useState<Tournament[] | undefined>(undefined);
  const [error, setError] = useState("");
  useEffect(() => {
    const stop = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const load = () => {
      api()
        .call((o) => api().rpc.listTournaments({}, o), { signal: stop.signal })
        .then((r) => {
          setList(r.tournaments);
          setError("");
        })
        .catch((e: unknown) => {
          if (!stop.signal.aborted)
            setError(t("common.error", { message: errorText(e) }));
        })
        .finally(() => {
          if (!stop.signal.aborted) timer = setTimeout(load, POLL_MS);
        });
    };
    load();
    return () => {
      stop.abort();
      clearTimeout(timer);
    };
  }, []);
  const groups = (["running", "registering", "finished"] as const).map(
    (state) => ({
      state,
      items: (list ?? []).filter((x) => tournamentState(x.state) === state),
    }),
  );
  return (
    <div class="tournaments">
      <h1>{t("tournaments.title")}</h1>
      {error ? (
        <p class="error" role="alert">
          {error}
        </p>
      ) : null}
      {!list ? (
        error ? null : (
          <p>{t("common.loading")}</p>
        )
      ) : list.length === 0 ? (
        <p data-tournaments-empty>{t("tournaments.none")}</p>
      ) : (
        groups.map((g) =>
          g.items.length === 0 ? null : (
            <section
              key={g.state}
              class="panel"
              aria-labelledby={`tournaments-${g.state}`}
            >
              <h2 id={`tournaments-${g.state}`}>
                {t(`tournaments.group.${g.state}`)}
              </h2>
              <TournamentTable items={g.items} />
            </section>
          ),
        )
      )}
      <CreateTournament />
    </div>
  );
}

function TournamentTable(props: { items: Tournament[] }): VNode {
  const t = useT();
  const lang = useLang();
  const date = new Intl.DateTimeFormat(lang, {
    dateStyle: "short",
    timeStyle: "short",
  });
  return (
    <ScrollTable label={t("tournaments.title")}>
      <table data-tournament-list>
        <thead>
          <tr>
            <th scope="col">{t("tournament.name")}</th>
            <th scope="col">{t("lobby.game")}</th>
            <th scope="col">{t("tournament.format")}</th>
            <th scope="col">{t("tournament.start")}</th>
            <th scope="col">{t("tournament.progress")}</th>
          </tr>
        </thead>
        <tbody>
          {props.items.map((x) => (
            <tr
              key={x.tournamentId}
              data-tournament-row={x.tournamentId}
              data-state={tournamentState(x.state)}
            >
              <th scope="row">
                <a
                  href={href({
                    page: "tournament",
                    tournamentId: x.tournamentId,
                  })}
                >
                  {x.name}
                </a>
              </th>
              <td>{x.options ? t(`game.${gameName(x.options.game)}`) : ""}</td>
              <td>{t(`tournament.format.${formatName(x.format)}`)}</td>
              <td>{date.format(new Date(Number(x.startUnixMs)))}</td>
              <td class="num">
                {t("tournament.matchesOver", {
                  finished: x.finished,
                  matches: x.matches,
                })}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollTable>
  );
}

/** The organiser's panel: the form once the server described its games. */
function CreateTournament(): VNode {
  const t = useT();
  return (
    <section class="panel" aria-labelledby="create-tournament-title">
      <h2 id="create-tournament-title">{t("tournaments.create")}</h2>
      <p class="sub">{t("tournaments.createNote")}</p>
      <WithGames render={(games) => <TournamentForm games={games} />} />
    </section>
  );
}

/** The organiser's form. */
function TournamentForm(props: { games: readonly GameDescription[] }): VNode {
  const t = useT();
  const [adminKey, setAdminKey] = useState("");
  const [name, setName] = useState("");
  const [game, setGame] = useState<GameDescription>(props.games[0]!);
  const [values, setValues] = useState<OptionValues>(() =>
    defaultValues(props.games[0]!),
  );
  const [format, setFormat] = useState<"round-robin" | "swiss" | "duplicate">(
    "round-robin",
  );
  const [deals, setDeals] = useState("1");
  const [entrants, setEntrants] = useState("");
  const [moveMs, setMoveMs] = useState("5000");
  const [startInS, setStartInS] = useState("0");
  const [openRegistration, setOpenRegistration] = useState(false);
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);

  const submit = async (e: Event) => {
    e.preventDefault();
    if (adminKey.trim() === "") {
      setError(t("tournaments.needAdminKey"));
      return;
    }
    const list = entrants
      .split(/[,\n]/)
      .map((s) => s.trim())
      .filter((s) => s !== "");
    setBusy(true);
    setError("");
    try {
      const c = api();
      const start = Math.max(0, Number(startInS) || 0);
      const r = await c.call((o) =>
        c.rpc.createTournament(
          {
            name: name.trim(),
            options: gameOptions(game.name, changedSettings(game, values)),
            clock: {
              moveMs: Math.max(0, Number(moveMs) || 0),
              bankMs: 0,
              onTimeout: TimeoutPolicy.BOT,
            },
            format:
              format === "swiss"
                ? TournamentFormat.SWISS
                : format === "duplicate"
                  ? TournamentFormat.DUPLICATE
                  : TournamentFormat.ROUND_ROBIN,
            deals: Math.max(0, Number(deals) || 0),
            startUnixMs: start > 0 ? BigInt(Date.now() + start * 1000) : 0n,
            entrants: list,
            openRegistration,
          },
          withKey(o, adminKey),
        ),
      );
      const id = r.tournament?.tournamentId ?? "";
      if (id !== "") navigate({ page: "tournament", tournamentId: id });
    } catch (err) {
      setError(
        isRefusal(err, "UNAUTHENTICATED") ||
          isRefusal(err, "RESOURCE_EXHAUSTED", "TOO_MANY_BAD_KEYS")
          ? t("tournaments.badAdminKey")
          : t("common.error", { message: errorText(err) }),
      );
    } finally {
      setBusy(false);
    }
  };

  const text = (
    label: string,
    value: string,
    set: (v: string) => void,
    attrs: Record<string, string | number | boolean> = {},
  ) => (
    <label class="field">
      <span>{label}</span>
      <input
        {...attrs}
        value={value}
        onInput={(e) => set((e.currentTarget as HTMLInputElement).value)}
      />
    </label>
  );

  const chooseGame = (name: string) => {
    const g = props.games.find((x) => x.name === name);
    if (!g) return;
    setGame(g);
    setValues(defaultValues(g));
  };

  return (
    <form data-create-tournament onSubmit={submit}>
      {text(t("tournaments.adminKey"), adminKey, setAdminKey, {
        type: "password",
        name: "admin-key",
        autoComplete: "off",
      })}
      {text(t("tournament.name"), name, setName, {
        name: "tournament-name",
        maxLength: 100,
        required: true,
      })}
      <GameSelect
        name="tournament-game"
        games={props.games}
        value={game.name}
        onChange={chooseGame}
      />
      <label class="field">
        <span>{t("tournament.format")}</span>
        <select
          name="tournament-format"
          value={format}
          onChange={(e) =>
            setFormat(
              (e.currentTarget as HTMLSelectElement).value as typeof format,
            )
          }
        >
          {(["round-robin", "swiss", "duplicate"] as const).map((f) => (
            <option key={f} value={f}>
              {t(`tournament.format.${f}`)}
            </option>
          ))}
        </select>
      </label>
      <fieldset>
        <legend>{t("lobby.options")}</legend>
        <OptionFields
          form="tournament"
          game={game}
          values={values}
          onChange={(key, value) => setValues({ ...values, [key]: value })}
        />
      </fieldset>
      {text(t("tournaments.deals"), deals, setDeals, {
        name: "tournament-deals",
        type: "number",
        min: 1,
        max: 100,
      })}
      <label class="field">
        <span>{t("tournaments.entrants")}</span>
        <textarea
          name="tournament-entrants"
          rows={3}
          value={entrants}
          onInput={(e) =>
            setEntrants((e.currentTarget as HTMLTextAreaElement).value)
          }
        />
      </label>
      {text(t("lobby.moveMs"), moveMs, setMoveMs, {
        name: "tournament-move-ms",
        type: "number",
        min: 0,
      })}
      {text(t("tournaments.startInS"), startInS, setStartInS, {
        name: "tournament-start-in-s",
        type: "number",
        min: 0,
      })}
      <label class="field inline check">
        <input
          type="checkbox"
          name="tournament-open"
          checked={openRegistration}
          onChange={(e) =>
            setOpenRegistration((e.currentTarget as HTMLInputElement).checked)
          }
        />
        <span>{t("tournaments.openRegistration")}</span>
      </label>
      {error ? (
        <p class="error" role="alert" data-create-tournament-error>
          {error}
        </p>
      ) : null}
      <button type="submit" disabled={busy}>
        {busy ? t("lobby.creating") : t("tournaments.submit")}
      </button>
    </form>
  );
}
