/**
 * A finished match's analysis (`AnalyseRecord`, docs/ANALYSIS.md) on the replay page: a
 * button asks the server for it; then each seat's figures, a chart of the points each
 * player's choices were worth along the match, and, at each step of the replay, the values
 * of the decision taken there with the best action highlighted.
 */
import type { Analysis, AnalysedDecision } from "@calabresella/client";
import type { VNode } from "preact";
import { useState } from "preact/hooks";
import { actionLabel } from "./actions.js";
import { analyseRecord, errorText } from "./api.js";
import type { SeatNamer } from "./events.js";
import { useT } from "./i18n-context.js";

/** Points with two decimals and a sign (`+1.25`, `-0.50`). */
function points(v: number): string {
  return `${v >= 0 ? "+" : "−"}${Math.abs(v).toFixed(2)}`;
}

/** The button, then the seats' figures and the chart once the analysis is in. */
export function AnalysisPanel(props: {
  tableId: string;
  analysis: Analysis | undefined;
  onDone: (a: Analysis) => void;
  name: SeatNamer;
}): VNode {
  const t = useT();
  const [state, setState] = useState<"idle" | "running" | "failed">("idle");
  const [error, setError] = useState("");
  const a = props.analysis;
  const run = () => {
    setState("running");
    analyseRecord(props.tableId)
      .then((r) => {
        if (r.analysis) props.onDone(r.analysis);
        setState("idle");
      })
      .catch((e: unknown) => {
        setError(errorText(e));
        setState("failed");
      });
  };
  return (
    <section
      class="panel analysis"
      aria-labelledby="analysis-title"
      data-analysis={a ? "done" : state}
    >
      <h2 id="analysis-title">{t("analysis.title")}</h2>
      {a ? null : (
        <p>
          <button
            type="button"
            data-analyse
            onClick={run}
            disabled={state === "running"}
          >
            {state === "running" ? t("analysis.running") : t("analysis.run")}
          </button>
        </p>
      )}
      {state === "failed" ? (
        <p class="error" role="alert">
          {t("analysis.failed", { message: error })}
        </p>
      ) : null}
      {a ? (
        <>
          <p class="hint">{t("analysis.intro", { budget: a.budget })}</p>
          <table class="analysis-seats">
            <thead>
              <tr>
                <th scope="col">{t("analysis.col.player")}</th>
                <th scope="col">{t("analysis.col.decisions")}</th>
                <th scope="col">{t("analysis.col.meanLoss")}</th>
                <th scope="col">{t("analysis.col.large")}</th>
                <th scope="col">{t("analysis.col.accuracy")}</th>
              </tr>
            </thead>
            <tbody>
              {a.seats.map((s) => (
                <tr key={s.seat} data-analysis-seat={s.seat}>
                  <th scope="row">{props.name(s.seat)}</th>
                  <td>{s.decisions}</td>
                  <td data-mean-loss={s.meanLoss.toFixed(3)}>
                    {s.meanLoss.toFixed(2)}
                  </td>
                  <td>{s.largeErrors}</td>
                  <td>{s.accuracy.toFixed(0)}%</td>
                </tr>
              ))}
            </tbody>
          </table>
          <Chart analysis={a} name={props.name} />
        </>
      ) : null}
    </section>
  );
}

/** Colours of the seats' lines (at most five seats). */
const COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e"];

/**
 * The points each player's choice was worth at each of its decisions (the chosen action's
 * value for its side), one line per seat along the match.
 */
function Chart(props: { analysis: Analysis; name: SeatNamer }): VNode {
  const t = useT();
  const ds = props.analysis.decisions;
  const width = 600;
  const height = 160;
  const values = ds.map(
    (d) => d.actions.find((v) => v.action === d.chosen)?.value ?? 0,
  );
  const top = Math.max(1, ...values.map((v) => Math.abs(v)));
  const x = (i: number) => (ds.length > 1 ? (i / (ds.length - 1)) * width : 0);
  const y = (v: number) => height / 2 - (v / top) * (height / 2 - 4);
  const seats = props.analysis.seats.map((s) => s.seat);
  return (
    <figure class="analysis-chart">
      <svg
        viewBox={`0 0 ${width} ${height}`}
        role="img"
        aria-label={t("analysis.chart")}
        data-analysis-chart={ds.length}
      >
        <line x1={0} x2={width} y1={y(0)} y2={y(0)} stroke="#999" />
        {seats.map((seat) => {
          const pts = ds
            .map((d, i) => [d, i] as const)
            .filter(([d]) => d.seat === seat)
            .map(
              ([, i]) => `${x(i).toFixed(1)},${y(values[i] ?? 0).toFixed(1)}`,
            );
          return (
            <polyline
              key={seat}
              points={pts.join(" ")}
              fill="none"
              stroke={COLOURS[seat % COLOURS.length]}
              stroke-width={1.5}
            />
          );
        })}
      </svg>
      <figcaption>
        {t("analysis.chart")}:{" "}
        {seats.map((seat) => (
          <span key={seat} style={{ color: COLOURS[seat % COLOURS.length] }}>
            {" ■ "}
            {props.name(seat)}
          </span>
        ))}
      </figcaption>
    </figure>
  );
}

/** The decision taken at `(hand, index)` of the match, if it had a choice. */
export function decisionAt(
  a: Analysis | undefined,
  hand: number,
  index: number,
): AnalysedDecision | undefined {
  return a?.decisions.find((d) => d.hand === hand && d.index === index);
}

/** One decision's values: every legal action, the best highlighted, the chosen marked. */
export function DecisionValues(props: {
  decision: AnalysedDecision;
  name: SeatNamer;
}): VNode {
  const t = useT();
  const d = props.decision;
  return (
    <section
      class="panel decision-values"
      aria-labelledby="decision-title"
      data-decision={`${d.hand}:${d.index}`}
      data-loss={d.loss.toFixed(3)}
    >
      <h2 id="decision-title">
        {t("analysis.decision", {
          name: props.name(d.seat),
          action: actionLabel(t, d.chosen),
          loss: d.loss.toFixed(2),
        })}
        {d.large ? ` · ${t("analysis.largeError")}` : ""}
      </h2>
      <ul class="action-values">
        {d.actions.map((v) => (
          <li
            key={v.action}
            class={[
              v.action === d.best ? "best" : "",
              v.action === d.chosen ? "chosen" : "",
            ].join(" ")}
            data-action-value={v.action}
            data-best={v.action === d.best ? "true" : undefined}
          >
            <span class="action">{actionLabel(t, v.action)}</span>{" "}
            <span class="value">{points(v.value)}</span>
            {v.exact !== undefined ? (
              <span class="exact">
                {" "}
                ({t("analysis.exact", { value: points(v.exact) })})
              </span>
            ) : null}
            {v.action === d.best ? ` · ${t("analysis.best")}` : ""}
          </li>
        ))}
      </ul>
    </section>
  );
}
