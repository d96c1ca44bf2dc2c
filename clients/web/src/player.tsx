/**
 * A player's page (`GetPlayer`): whether it is a registered player or a built-in bot, its
 * rating in each game with the rating's history as a chart, its recent matches (each with its
 * replay), and its results against each opponent. For the signed-in player's own page, also
 * the tables it has in play.
 */
import {
  TableState,
  type GetPlayerResponse,
  type RatingPoint,
  type Table,
} from "@calabresella/client";
import type { VNode } from "preact";
import { useEffect, useState } from "preact/hooks";
import { useAccount } from "./account.js";
import { api, errorText, isRefusal } from "./api.js";
import { gameName } from "./games.js";
import { useLang, useT } from "./i18n-context.js";
import { PlayerLink } from "./player-link.js";
import { href } from "./routes.js";
import { ScrollTable } from "./scroll-table.js";

/** The player page. */
export function PlayerPage(props: { name: string }): VNode {
  const t = useT();
  const lang = useLang();
  const account = useAccount();
  const [data, setData] = useState<GetPlayerResponse | undefined>(undefined);
  const [error, setError] = useState("");
  useEffect(() => {
    const stop = new AbortController();
    setData(undefined);
    const c = api();
    c.call((o) => c.rpc.getPlayer({ playerName: props.name }, o), {
      signal: stop.signal,
    })
      .then((r) => {
        setData(r);
        setError("");
      })
      .catch((e: unknown) => {
        if (stop.signal.aborted) return;
        setError(
          isRefusal(e, "NOT_FOUND")
            ? t("player.notFound", { name: props.name })
            : t("common.error", { message: errorText(e) }),
        );
      });
    return () => stop.abort();
  }, [props.name]);
  if (!data) {
    return (
      <div class="player">
        <h1>{props.name}</h1>
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
  const kind = data.bot ? "bot" : data.registered ? "registered" : "player";
  const num = new Intl.NumberFormat(lang, {
    maximumFractionDigits: 2,
    minimumFractionDigits: 2,
  });
  const date = new Intl.DateTimeFormat(lang, {
    dateStyle: "short",
    timeStyle: "short",
  });
  const own = account?.name === data.playerName;
  return (
    <div class="player" data-player-page={data.playerName} data-kind={kind}>
      <h1>
        {data.playerName}{" "}
        <span class={`badge ${kind}`}>{t(`player.kind.${kind}`)}</span>
      </h1>
      {own ? <OwnTables name={data.playerName} /> : null}
      <section class="panel" aria-labelledby="player-ratings">
        <h2 id="player-ratings">{t("player.ratings")}</h2>
        {data.games.length === 0 ? (
          <p>{t("player.noMatches")}</p>
        ) : (
          <div class="rating-games">
            {data.games.map((g) => {
              const game = gameName(g.game);
              const r = g.result!;
              return (
                <article key={game} class="rating-game" data-player-game={game}>
                  <h3>{t(`game.${game}`)}</h3>
                  <p>
                    <strong data-rating>{num.format(r.rating)}</strong>{" "}
                    <span class="sub">
                      {t("player.record", {
                        matches: r.matches,
                        wins: r.wins,
                        draws: r.draws,
                      })}
                    </span>
                  </p>
                  <RatingChart
                    history={g.history}
                    label={t("player.chart", {
                      game: t(`game.${game}`),
                      n: g.history.length,
                      first: num.format(g.history[0]?.rating ?? 0),
                      last: num.format(r.rating),
                    })}
                  />
                </article>
              );
            })}
          </div>
        )}
      </section>
      <section class="panel" aria-labelledby="player-recent">
        <h2 id="player-recent">{t("player.recent")}</h2>
        {data.recent.length === 0 ? (
          <p>{t("player.noMatches")}</p>
        ) : (
          <ScrollTable label={t("player.recent")}>
            <table data-player-matches>
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
                {data.recent.map((m) => (
                  <tr
                    key={m.tableId}
                    data-player-match={m.tableId}
                    data-result={m.won ? "won" : m.draw ? "draw" : "lost"}
                  >
                    <td>{date.format(new Date(Number(m.endedUnixMs)))}</td>
                    <td>{t(`game.${gameName(m.game)}`)}</td>
                    <td>
                      {m.players.map((p, i) => (
                        <span key={i}>
                          {i > 0 ? ", " : ""}
                          {i === m.seat ? <strong>{p}</strong> : p}
                        </span>
                      ))}
                    </td>
                    <td>
                      {t(
                        m.won
                          ? "player.won"
                          : m.draw
                            ? "player.draw"
                            : "player.lost",
                      )}
                      <span class="sub"> ({String(m.points)})</span>
                    </td>
                    <td>
                      <a
                        class="button"
                        data-replay
                        href={href({ page: "replay", tableId: m.tableId })}
                      >
                        {t("lobby.replay")}
                      </a>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollTable>
        )}
      </section>
      <section class="panel" aria-labelledby="player-opponents">
        <h2 id="player-opponents">{t("player.opponents")}</h2>
        {data.opponents.length === 0 ? (
          <p>{t("player.noMatches")}</p>
        ) : (
          <ScrollTable label={t("player.opponents")}>
            <table data-player-opponents>
              <thead>
                <tr>
                  <th scope="col">{t("player.opponent")}</th>
                  <th scope="col">{t("results.col.matches")}</th>
                  <th scope="col">{t("player.ahead")}</th>
                  <th scope="col">{t("results.col.draws")}</th>
                  <th scope="col">{t("player.behind")}</th>
                </tr>
              </thead>
              <tbody>
                {data.opponents.map((o) => (
                  <tr
                    key={`${o.opponent}${o.guest}`}
                    data-opponent={o.opponent}
                  >
                    <th scope="row">
                      {o.guest ? (
                        <span>
                          {o.opponent}{" "}
                          <span class="sub">({t("player.guest")})</span>
                        </span>
                      ) : (
                        <PlayerLink name={o.opponent} bot={o.bot} />
                      )}
                    </th>
                    <td class="num">{o.matches}</td>
                    <td class="num">{o.wins}</td>
                    <td class="num">{o.draws}</td>
                    <td class="num">{o.losses}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollTable>
        )}
      </section>
    </div>
  );
}

/** The chart's size in SVG units (it scales to the width of its box). */
const W = 320;
const H = 120;
const PAD = 8;
/** Room on the left for the scale's labels. */
const LEFT = 40;

/** The rating history as a line, oldest left. */
function RatingChart(props: { history: RatingPoint[]; label: string }): VNode {
  const lang = useLang();
  const fmt = new Intl.NumberFormat(lang, { maximumFractionDigits: 1 });
  const pts = props.history;
  if (pts.length === 0) return <p class="sub">{props.label}</p>;
  const ys = pts.map((p) => p.rating);
  const lo = Math.min(...ys);
  const hi = Math.max(...ys);
  const span = hi - lo || 1;
  const x = (i: number) =>
    pts.length === 1
      ? (LEFT + W) / 2
      : LEFT + (i * (W - LEFT - PAD)) / (pts.length - 1);
  const y = (v: number) => H - PAD - ((v - lo) * (H - 2 * PAD)) / span;
  const line = pts
    .map((p, i) => `${x(i).toFixed(1)},${y(p.rating).toFixed(1)}`)
    .join(" ");
  return (
    <svg
      class="rating-chart"
      data-rating-chart
      data-points={pts.length}
      viewBox={`0 0 ${W} ${H}`}
      role="img"
      aria-label={props.label}
    >
      <g class="scale" aria-hidden="true">
        <line x1={LEFT - 4} x2={W} y1={y(hi)} y2={y(hi)} />
        <line x1={LEFT - 4} x2={W} y1={y(lo)} y2={y(lo)} />
        <text x={LEFT - 6} y={y(hi) + 4} text-anchor="end">
          {fmt.format(hi)}
        </text>
        <text x={LEFT - 6} y={y(lo) + 4} text-anchor="end">
          {fmt.format(lo)}
        </text>
      </g>
      <polyline
        points={line}
        fill="none"
        stroke="currentColor"
        stroke-width="2"
      />
      {pts.map((p, i) => (
        <circle
          key={p.tableId}
          cx={x(i)}
          cy={y(p.rating)}
          r="3"
          fill="currentColor"
        />
      ))}
    </svg>
  );
}

/** The signed-in player's tables in play (where this tab can sit back down). */
function OwnTables(props: { name: string }): VNode | null {
  const t = useT();
  const [tables, setTables] = useState<Table[]>([]);
  useEffect(() => {
    const stop = new AbortController();
    const c = api();
    c.call(
      (o) => c.rpc.listTables({ state: TableState.PLAYING, pageSize: 500 }, o),
      {
        signal: stop.signal,
      },
    )
      .then((r) =>
        setTables(
          r.tables.filter((tb) =>
            tb.seats.some((s) => s.playerName === props.name && !s.guest),
          ),
        ),
      )
      .catch(() => {
        // Only a convenience: the rest of the page stands without it.
      });
    return () => stop.abort();
  }, [props.name]);
  if (tables.length === 0) return null;
  return (
    <section class="panel" aria-labelledby="player-own">
      <h2 id="player-own">{t("player.inPlay")}</h2>
      <ul data-own-tables>
        {tables.map((tb) => (
          <li key={tb.tableId}>
            <a
              href={href({ page: "table", tableId: tb.tableId })}
              data-own-table={tb.tableId}
            >
              {tb.name || tb.tableId}
            </a>{" "}
            <span class="sub">
              ({t(`game.${gameName(tb.options?.game ?? 0)}`)})
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
