/**
 * One tournament's page (`GetTournament`, polled until it is over): its settings, entrants,
 * live standings, cross-table, rounds and pairings with each table (watch it live, replay it
 * once finished), the standings as CSV, and, for a signed-in player, entering it while
 * registration is open.
 */
import {
  TableState,
  TimeoutPolicy,
  TournamentFormat,
  type GetTournamentResponse,
  type TournamentMatch,
} from "@calabresella/client";
import type { VNode } from "preact";
import { useEffect, useState } from "preact/hooks";
import { useAccount } from "./account.js";
import { api, errorText, isRefusal, withKey } from "./api.js";
import { gameName } from "./games.js";
import { useLang, useT } from "./i18n-context.js";
import { href } from "./routes.js";
import { ScrollTable } from "./scroll-table.js";
import { formatName, tournamentState } from "./tournaments.js";
import { PlayerLink } from "./player-link.js";
import { standingsCsv } from "./csv.js";
import { rulesText } from "./rules-text.js";
import { startCompeting, useCompete } from "./compete.js";
import { setAccount } from "./account.js";

/** How often a tournament that is not over is fetched again. */
const POLL_MS = 2000;

function download(name: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: "text/csv" }));
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** The tournament page. */
export function TournamentPage(props: { tournamentId: string }): VNode {
  const t = useT();
  const lang = useLang();
  const account = useAccount();
  const [data, setData] = useState<GetTournamentResponse | undefined>(
    undefined,
  );
  const [error, setError] = useState("");
  const [enterError, setEnterError] = useState("");
  const [reload, setReload] = useState(0);
  const [entering, setEntering] = useState(false);
  const compete = useCompete();
  useEffect(() => {
    const stop = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const load = () => {
      const c = api();
      c.call(
        (o) => c.rpc.getTournament({ tournamentId: props.tournamentId }, o),
        {
          signal: stop.signal,
        },
      )
        .then((r) => {
          setData(r);
          setError("");
          if (tournamentState(r.tournament?.state ?? 0) !== "finished") {
            timer = setTimeout(load, POLL_MS);
          }
        })
        .catch((e: unknown) => {
          if (stop.signal.aborted) return;
          if (isRefusal(e, "NOT_FOUND") || isRefusal(e, "INVALID_ARGUMENT")) {
            // No such tournament: asking again will not make one.
            setError(t("tournament.notFound", { id: props.tournamentId }));
            return;
          }
          setError(t("common.error", { message: errorText(e) }));
          timer = setTimeout(load, POLL_MS * 5);
        });
    };
    load();
    return () => {
      stop.abort();
      clearTimeout(timer);
    };
  }, [props.tournamentId, reload]);

  if (!data?.tournament) {
    return (
      <div class="tournament">
        <h1>{t("tournament.title")}</h1>
        {error ? (
          <p class="error" role="alert">
            {error}
          </p>
        ) : (
          <p>{t("common.loading")}</p>
        )}
      </div>
    );
  }
  const tn = data.tournament;
  const state = tournamentState(tn.state);
  const date = new Intl.DateTimeFormat(lang, {
    dateStyle: "medium",
    timeStyle: "medium",
  });
  const bots = new Set(
    data.standings.filter((s) => s.bot).map((s) => s.entrant),
  );
  const entered =
    account !== undefined &&
    tn.entrants.some((e) => e.toLowerCase() === account.name.toLowerCase());
  const enter = async () => {
    if (!account || entering) return;
    setEnterError("");
    setEntering(true);
    try {
      const c = api();
      await c.call((o) =>
        c.rpc.enterTournament(
          { tournamentId: tn.tournamentId },
          withKey(o, account.key),
        ),
      );
      setReload((n) => n + 1);
    } catch (e) {
      if (isRefusal(e, "UNAUTHENTICATED", "BAD_KEY")) {
        // The key was rotated or its player disabled: sign the tab out.
        setAccount(undefined);
        setEnterError(t("account.signedOut"));
      } else {
        setEnterError(t("common.error", { message: errorText(e) }));
      }
    } finally {
      setEntering(false);
    }
  };
  // A duplicate tournament's other seatings show the same deals: while it runs, its tables
  // are neither watched nor replayed from here.
  const secretDeals =
    tn.format === TournamentFormat.DUPLICATE && state !== "finished";
  return (
    <div
      class="tournament"
      data-tournament={tn.tournamentId}
      data-state={state}
    >
      <h1>{tn.name}</h1>
      <p class="tournament-state">
        <span class={`badge state-${state}`}>
          {t(`tournaments.group.${state}`)}
        </span>{" "}
        {t("tournament.matchesOver", {
          finished: tn.finished,
          matches: tn.matches,
        })}
        {tn.playing > 0
          ? ` · ${t("tournament.playing", { n: tn.playing })}`
          : ""}
      </p>
      {error ? (
        <p class="error" role="alert">
          {error}
        </p>
      ) : null}
      <section class="panel" aria-labelledby="tn-settings">
        <h2 id="tn-settings">{t("tournament.settings")}</h2>
        <dl class="facts">
          <dt>{t("lobby.game")}</dt>
          <dd>{tn.options ? t(`game.${gameName(tn.options.game)}`) : ""}</dd>
          <dt>{t("tournament.rules")}</dt>
          <dd class="mono" data-tournament-rules>
            {rulesText(tn.options) || t("tournament.defaultRules")}
          </dd>
          <dt>{t("tournament.format")}</dt>
          <dd>{t(`tournament.format.${formatName(tn.format)}`)}</dd>
          <dt>{t("tournaments.deals")}</dt>
          <dd>{tn.deals}</dd>
          <dt>{t("tournament.moveMs")}</dt>
          <dd>{tn.clock ? String(tn.clock.moveMs) : ""}</dd>
          <dt>{t("lobby.onTimeout")}</dt>
          <dd>
            {t(
              tn.clock?.onTimeout === TimeoutPolicy.FORFEIT
                ? "lobby.timeout.forfeit"
                : "lobby.timeout.bot",
            )}
          </dd>
          <dt>{t("tournament.registration")}</dt>
          <dd>
            {t(
              tn.openRegistration && state === "registering"
                ? "tournament.registrationOpen"
                : "tournament.registrationClosed",
            )}
          </dd>
          <dt>{t("tournament.start")}</dt>
          <dd>{date.format(new Date(Number(tn.startUnixMs)))}</dd>
          <dt>{t("tournament.deals")}</dt>
          <dd class="mono">
            {tn.seeded
              ? t("tournament.seeded")
              : tn.secret !== ""
                ? t("tournament.secret", { secret: tn.secret })
                : t("tournament.commitment", { commitment: tn.commitment })}
          </dd>
        </dl>
        <h3>{t("tournament.entrants")}</h3>
        <ul class="entrants" data-entrants>
          {tn.entrants.map((e) => (
            <li key={e}>
              <PlayerLink name={e} bot={bots.has(e)} />
            </li>
          ))}
        </ul>
        {account && tn.openRegistration && state === "registering" ? (
          entered ? (
            <p data-entered>{t("tournament.entered")}</p>
          ) : (
            <button
              type="button"
              data-enter-tournament
              disabled={entering}
              onClick={enter}
            >
              {t("tournament.enter")}
            </button>
          )
        ) : null}
        {account && entered && state !== "finished" ? (
          compete.state === "on" ? (
            <p data-competing>{t("compete.here")}</p>
          ) : (
            <div class="compete-offer">
              <button
                type="button"
                data-compete-start
                onClick={() => startCompeting(account)}
              >
                {t("compete.start")}
              </button>
              <p class="sub">{t("compete.note")}</p>
            </div>
          )
        ) : null}
        {enterError ? (
          <p class="error" role="alert">
            {enterError}
          </p>
        ) : null}
      </section>
      <Standings data={data} />
      <CrossTable data={data} />
      <Matches matches={data.matches} bots={bots} secretDeals={secretDeals} />
    </div>
  );
}

function Standings(props: { data: GetTournamentResponse }): VNode {
  const t = useT();
  const lang = useLang();
  const num = new Intl.NumberFormat(lang, {
    maximumFractionDigits: 2,
    minimumFractionDigits: 2,
  });
  const tn = props.data.tournament!;
  return (
    <section class="panel" aria-labelledby="tn-standings">
      <h2 id="tn-standings">{t("tournament.standings")}</h2>
      <ScrollTable label={t("tournament.standings")}>
        <table data-standings>
          <thead>
            <tr>
              <th scope="col">#</th>
              <th scope="col">{t("tournament.entrant")}</th>
              <th scope="col">{t("results.col.matches")}</th>
              <th scope="col">{t("tournament.hands")}</th>
              <th scope="col">{t("tournament.perHand")}</th>
              <th scope="col">{t("results.col.wins")}</th>
              <th scope="col">{t("results.col.rating")}</th>
              <th scope="col">{t("tournament.timeouts")}</th>
              <th scope="col">{t("tournament.illegal")}</th>
              <th scope="col">{t("tournament.disconnects")}</th>
              <th scope="col">{t("tournament.forfeits")}</th>
            </tr>
          </thead>
          <tbody>
            {props.data.standings.map((s, i) => (
              <tr key={s.entrant} data-standing={s.entrant}>
                <td class="num">{i + 1}</td>
                <th scope="row">
                  <PlayerLink name={s.entrant} bot={s.bot} />
                </th>
                <td class="num">{s.matches}</td>
                <td class="num">{s.hands}</td>
                <td class="num">
                  {num.format(s.pointsPerHand)}
                  <span class="sub"> ± {num.format(s.ci95)}</span>
                </td>
                <td class="num">{s.wins}</td>
                <td class="num">{num.format(s.rating)}</td>
                <td class="num">{s.timeouts}</td>
                <td class="num">{s.illegal}</td>
                <td class="num">{s.disconnects}</td>
                <td class="num">{s.forfeits}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollTable>
      <button
        type="button"
        class="secondary"
        data-download-csv
        onClick={() =>
          download(
            `${tn.name.replace(/[^\p{L}\p{N}_-]+/gu, "-")}-standings.csv`,
            standingsCsv(props.data.standings),
          )
        }
      >
        {t("tournament.csv")}
      </button>
    </section>
  );
}

function CrossTable(props: { data: GetTournamentResponse }): VNode | null {
  const t = useT();
  const names = props.data.standings.map((s) => s.entrant);
  if (props.data.crossTable.length === 0) return null;
  const cell = new Map(
    props.data.crossTable.map((c) => [`${c.entrant}\u0000${c.opponent}`, c]),
  );
  return (
    <section class="panel" aria-labelledby="tn-cross">
      <h2 id="tn-cross">{t("tournament.cross")}</h2>
      <p class="sub">{t("tournament.crossNote")}</p>
      <ScrollTable label={t("tournament.cross")}>
        <table data-cross-table>
          <thead>
            <tr>
              <td />
              {names.map((n) => (
                <th key={n} scope="col">
                  {n}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {names.map((row) => (
              <tr key={row}>
                <th scope="row">{row}</th>
                {names.map((col) => {
                  const c = cell.get(`${row}\u0000${col}`);
                  return (
                    <td
                      key={col}
                      class="num"
                      data-cross={row}
                      data-opponent={col}
                    >
                      {row === col
                        ? "—"
                        : c
                          ? `${c.wins}–${c.draws}–${c.losses}`
                          : ""}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollTable>
    </section>
  );
}

function matchState(m: TournamentMatch): "scheduled" | "playing" | "finished" {
  if (m.state === TableState.FINISHED) return "finished";
  if (m.tableId !== "") return "playing";
  return "scheduled";
}

function Matches(props: {
  matches: TournamentMatch[];
  bots: Set<string>;
  secretDeals: boolean;
}): VNode {
  const t = useT();
  const rounds = new Set(props.matches.map((m) => m.round));
  return (
    <section class="panel" aria-labelledby="tn-matches">
      <h2 id="tn-matches">{t("tournament.matches")}</h2>
      {props.matches.length === 0 ? (
        <p>{t("tournament.noMatches")}</p>
      ) : (
        <ScrollTable label={t("tournament.matches")}>
          <table data-tournament-matches>
            <thead>
              <tr>
                <th scope="col">#</th>
                {rounds.size > 1 ? (
                  <th scope="col">{t("tournament.round")}</th>
                ) : null}
                <th scope="col">{t("tournament.seats")}</th>
                <th scope="col">{t("tournament.result")}</th>
                <th scope="col">{t("lobby.col.actions")}</th>
              </tr>
            </thead>
            <tbody>
              {props.matches.map((m) => {
                const state = matchState(m);
                return (
                  <tr
                    key={m.number}
                    data-tournament-match={m.number}
                    data-state={state}
                  >
                    <td class="num">{m.number}</td>
                    {rounds.size > 1 ? (
                      <td class="num">{m.round + 1}</td>
                    ) : null}
                    <td>
                      {m.seats.map((s, i) => (
                        <span key={i} class={m.won[i] ? "winner" : undefined}>
                          {i > 0 ? ", " : ""}
                          <PlayerLink name={s} bot={props.bots.has(s)} />
                          {m.won[i] ? (
                            <span class="visually-hidden">
                              {" "}
                              ({t("player.won")})
                            </span>
                          ) : null}
                        </span>
                      ))}
                    </td>
                    <td class="num">
                      {state !== "finished"
                        ? t(`tournament.match.${state}`)
                        : m.totals.length > 0
                          ? m.totals.map((x) => String(x)).join(" – ")
                          : t("tournament.noResult")}
                    </td>
                    <td>
                      {props.secretDeals && state !== "scheduled" ? (
                        <span class="sub">
                          {t("tournament.hiddenUntilOver")}
                        </span>
                      ) : state === "playing" ? (
                        <a
                          class="button"
                          data-watch
                          href={href({ page: "table", tableId: m.tableId })}
                        >
                          {t("lobby.spectate")}
                        </a>
                      ) : state === "finished" ? (
                        <a
                          class="button"
                          data-replay
                          href={href({ page: "replay", tableId: m.tableId })}
                        >
                          {t("lobby.replay")}
                        </a>
                      ) : null}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </ScrollTable>
      )}
    </section>
  );
}
