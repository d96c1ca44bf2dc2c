/**
 * The results: players by rating (`GetResults`), for all games or one, people only or with
 * the bots; and the finished matches (`ListRecords`), each with a link to its replay.
 */
import {
  EndReason,
  type GetResultsResponse,
  type RecordSummary,
} from "@calabresella/client";
import type { VNode } from "preact";
import { useEffect, useState } from "preact/hooks";
import { api, errorText } from "./api.js";
import { GAME_NAMES, gameName, type GameName } from "./games.js";
import { useLang, useT } from "./i18n-context.js";
import { PlayerLink } from "./player-link.js";
import { href } from "./routes.js";
import { ScrollTable } from "./scroll-table.js";

/** The results page. */
export function Results(): VNode {
  const t = useT();
  const [game, setGame] = useState<GameName | "">("");
  const [peopleOnly, setPeopleOnly] = useState(false);
  return (
    <div class="results">
      <h1>{t("results.title")}</h1>
      <div class="filters" role="group" aria-label={t("results.filter")}>
        <label class="field inline">
          <span>{t("results.filter")}</span>
          <select
            name="results-game"
            value={game}
            onChange={(e) =>
              setGame(
                (e.currentTarget as HTMLSelectElement).value as GameName | "",
              )
            }
          >
            <option value="">{t("results.allGames")}</option>
            {GAME_NAMES.map((g) => (
              <option key={g} value={g}>
                {t(`game.${g}`)}
              </option>
            ))}
          </select>
        </label>
        <label class="field inline check">
          <input
            type="checkbox"
            name="people-only"
            checked={peopleOnly}
            onChange={(e) =>
              setPeopleOnly((e.currentTarget as HTMLInputElement).checked)
            }
          />
          <span>{t("results.peopleOnly")}</span>
        </label>
      </div>
      <Ratings game={game} peopleOnly={peopleOnly} />
      <Records game={game} />
    </div>
  );
}

function Ratings(props: { game: GameName | ""; peopleOnly: boolean }): VNode {
  const t = useT();
  const lang = useLang();
  const [data, setData] = useState<GetResultsResponse | undefined>(undefined);
  const [error, setError] = useState("");
  useEffect(() => {
    const stop = new AbortController();
    api()
      .getResults(
        { game: props.game || undefined, peopleOnly: props.peopleOnly },
        { signal: stop.signal },
      )
      .then((r) => {
        setData(r);
        setError("");
      })
      .catch((e: unknown) => {
        if (!stop.signal.aborted)
          setError(t("common.error", { message: errorText(e) }));
      });
    return () => stop.abort();
  }, [props.game, props.peopleOnly]);
  const num = new Intl.NumberFormat(lang, {
    maximumFractionDigits: 2,
    minimumFractionDigits: 2,
  });
  return (
    <section class="panel" aria-labelledby="ratings-title">
      <h2 id="ratings-title">{t("results.players")}</h2>
      {error ? (
        <p class="error" role="alert">
          {error}
        </p>
      ) : null}
      {!data ? (
        error ? null : (
          <p>{t("common.loading")}</p>
        )
      ) : data.players.length === 0 ? (
        <p>{t("results.noPlayers")}</p>
      ) : (
        <ScrollTable label={t("results.players")}>
          <table data-results>
            <thead>
              <tr>
                <th scope="col">#</th>
                <th scope="col">{t("results.col.player")}</th>
                <th scope="col">{t("results.col.matches")}</th>
                <th scope="col">{t("results.col.wins")}</th>
                <th scope="col">{t("results.col.draws")}</th>
                <th scope="col">{t("results.col.points")}</th>
                <th scope="col">{t("results.col.rating")}</th>
              </tr>
            </thead>
            <tbody>
              {data.players.map((p, i) => (
                <tr key={p.playerName} data-player={p.playerName}>
                  <td class="num">{i + 1}</td>
                  <th scope="row">
                    {p.guest ? (
                      p.playerName
                    ) : (
                      <PlayerLink name={p.playerName} bot={p.bot} />
                    )}
                  </th>
                  <td class="num">{p.matches}</td>
                  <td class="num">{p.wins}</td>
                  <td class="num">{p.draws}</td>
                  <td class="num">{String(p.signedPoints)}</td>
                  <td
                    class="num"
                    title={`μ ${num.format(p.mu)} · σ ${num.format(p.sigma)}`}
                  >
                    {num.format(p.rating)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollTable>
      )}
    </section>
  );
}

function reasonKey(
  r: EndReason,
): "completed" | "forfeit" | "abandoned" | "shutdown" {
  switch (r) {
    case EndReason.FORFEIT:
      return "forfeit";
    case EndReason.ABANDONED:
      return "abandoned";
    case EndReason.SHUTDOWN:
      return "shutdown";
    default:
      return "completed";
  }
}

function Records(props: { game: GameName | "" }): VNode {
  const t = useT();
  const lang = useLang();
  const [records, setRecords] = useState<RecordSummary[] | undefined>(
    undefined,
  );
  const [error, setError] = useState("");
  useEffect(() => {
    const stop = new AbortController();
    api()
      .listRecords(
        { game: props.game || undefined, pageSize: 50 },
        { signal: stop.signal },
      )
      .then((r) => {
        setRecords(r.records);
        setError("");
      })
      .catch((e: unknown) => {
        if (!stop.signal.aborted)
          setError(t("common.error", { message: errorText(e) }));
      });
    return () => stop.abort();
  }, [props.game]);
  const date = new Intl.DateTimeFormat(lang, {
    dateStyle: "short",
    timeStyle: "short",
  });
  return (
    <section class="panel" aria-labelledby="records-title">
      <h2 id="records-title">{t("results.records")}</h2>
      {error ? (
        <p class="error" role="alert">
          {error}
        </p>
      ) : null}
      {!records ? (
        error ? null : (
          <p>{t("common.loading")}</p>
        )
      ) : records.length === 0 ? (
        <p>{t("results.none")}</p>
      ) : (
        <ScrollTable label={t("results.records")}>
          <table data-records>
            <thead>
              <tr>
                <th scope="col">{t("results.col.ended")}</th>
                <th scope="col">{t("results.col.game")}</th>
                <th scope="col">{t("results.col.players")}</th>
                <th scope="col">{t("results.col.result")}</th>
                <th scope="col">{t("lobby.col.actions")}</th>
              </tr>
            </thead>
            <tbody>
              {records.map((r) => {
                const winners = r.result?.winners ?? [];
                const names = winners
                  .map((w) => r.playerNames[w] ?? String(w + 1))
                  .join(", ");
                return (
                  <tr key={r.tableId} data-record={r.tableId}>
                    <td>
                      {r.endedUnixMs > 0n
                        ? date.format(new Date(Number(r.endedUnixMs)))
                        : ""}
                    </td>
                    <td>{t(`game.${gameName(r.game)}`)}</td>
                    <td>{r.playerNames.join(", ")}</td>
                    <td>
                      {r.result
                        ? winners.length > 0
                          ? t("table.winners", { names })
                          : t("table.draw")
                        : ""}
                      <span class="sub">
                        {" "}
                        ({t(`results.reason.${reasonKey(r.endReason)}`)})
                      </span>
                    </td>
                    <td>
                      <a
                        class="button"
                        data-replay
                        href={href({ page: "replay", tableId: r.tableId })}
                      >
                        {t("lobby.replay")}
                      </a>
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
