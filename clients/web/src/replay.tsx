/**
 * A match's record replayed step by step (`GetReplay`): every seat's cards at each position
 * (every hand revealed), the trick, the action just taken, and the score once a hand is over.
 * Buttons and the left and right arrow keys step through it; a menu jumps between hands. Once
 * the match is over, its analysis shows each step's decision valued (analysis-view.tsx).
 */
import type { Analysis, GetReplayResponse } from "@calabresella/client";
import type { VNode } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import { actionLabel } from "./actions.js";
import { AnalysisPanel, DecisionValues, decisionAt } from "./analysis-view.js";
import { errorText, getReplay, isRefusal } from "./api.js";
import { compareCards } from "./cards.js";
import { CardImage } from "./card-view.js";
import { DealsCheckView } from "./deals-view.js";
import { eventText, resultText, type SeatNamer } from "./events.js";
import { gameName } from "./games.js";
import { useT } from "./i18n-context.js";
import { href } from "./routes.js";
import { notations } from "./state.js";
import { TrickCards } from "./trick-view.js";

/** The replay page of `tableId`. */
export function Replay(props: { tableId: string }): VNode {
  const t = useT();
  const [step, setStep] = useState(0);
  const [data, setData] = useState<GetReplayResponse | undefined>(undefined);
  const [error, setError] = useState("");
  const [notReady, setNotReady] = useState(false);
  const [analysis, setAnalysis] = useState<Analysis | undefined>(undefined);
  const cache = useRef(new Map<number, Promise<GetReplayResponse>>());

  const load = (s: number): Promise<GetReplayResponse> => {
    let p = cache.current.get(s);
    if (!p) {
      p = getReplay(props.tableId, s);
      cache.current.set(s, p);
      // A failure is not kept: asking again may work.
      p.catch(() => cache.current.delete(s));
    }
    return p;
  };

  useEffect(() => {
    let live = true;
    load(step)
      .then((r) => {
        if (!live) return;
        setData(r);
        setError("");
        // The next position is fetched ahead, so stepping forward feels instant.
        if (r.step + 1 < r.steps) void load(r.step + 1).catch(() => undefined);
      })
      .catch((e: unknown) => {
        if (!live) return;
        if (isRefusal(e, "OUT_OF_RANGE")) setNotReady(true);
        else setError(t("common.error", { message: errorText(e) }));
      });
    return () => {
      live = false;
    };
  }, [step, props.tableId]);

  const steps = data?.steps ?? 0;
  const go = (s: number) => {
    if (steps === 0) return;
    setStep(Math.max(0, Math.min(steps - 1, s)));
  };

  // The arrow keys step, unless a form field has the focus (a menu uses them itself).
  const goRef = useRef(go);
  goRef.current = go;
  const stepRef = useRef(step);
  stepRef.current = step;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const target = e.target as HTMLElement | null;
      if (target && /^(INPUT|SELECT|TEXTAREA)$/.test(target.tagName)) return;
      if (e.altKey || e.ctrlKey || e.metaKey) return;
      if (e.key === "ArrowRight") {
        e.preventDefault();
        goRef.current(stepRef.current + 1);
      } else if (e.key === "ArrowLeft") {
        e.preventDefault();
        goRef.current(stepRef.current - 1);
      }
    };
    addEventListener("keydown", onKey);
    return () => removeEventListener("keydown", onKey);
  }, []);

  const names = data?.playerNames ?? [];
  const name: SeatNamer = (seat) => {
    if (seat === undefined) return "?";
    const n = names[seat];
    if (!n) return t("common.seat", { n: seat + 1 });
    // Bots share a name: the seat tells them apart.
    return names.filter((x) => x === n).length > 1
      ? `${n} (${t("common.seat", { n: seat + 1 })})`
      : n;
  };

  return (
    <section
      class="replay-view"
      aria-labelledby="replay-title"
      data-replay={props.tableId}
      data-step={data ? String(data.step) : ""}
      data-steps={data ? String(data.steps) : ""}
      data-hand={data ? String(data.handNumber) : ""}
    >
      <h1 id="replay-title">{t("replay.title", { id: props.tableId })}</h1>
      {notReady ? <p>{t("replay.notReady")}</p> : null}
      {error ? (
        <p class="error" role="alert">
          {error}
        </p>
      ) : null}
      {data && !data.matchOver ? <p class="note">{t("replay.live")}</p> : null}
      {data || notReady ? (
        <DealsCheckView
          tableId={props.tableId}
          matchOver={data?.matchOver ?? false}
          seatName={(s) => name(s)}
        />
      ) : null}
      <div
        class="replay-controls"
        role="group"
        aria-label={t("replay.title", { id: props.tableId })}
      >
        <button
          type="button"
          data-replay-step="first"
          onClick={() => go(0)}
          disabled={!data || step <= 0}
        >
          {t("replay.first")}
        </button>
        <button
          type="button"
          data-replay-step="prev"
          onClick={() => go(step - 1)}
          disabled={!data || step <= 0}
        >
          ◀ {t("replay.prev")}
        </button>
        <span class="step-count" aria-live="polite">
          {data
            ? t("replay.step", { step: data.step + 1, steps: data.steps })
            : t("common.loading")}
        </span>
        <button
          type="button"
          data-replay-step="next"
          onClick={() => go(step + 1)}
          disabled={!data || step >= steps - 1}
        >
          {t("replay.next")} ▶
        </button>
        <button
          type="button"
          data-replay-step="last"
          onClick={() => go(steps - 1)}
          disabled={!data || step >= steps - 1}
        >
          {t("replay.last")}
        </button>
        {data && data.handStarts.length > 1 ? (
          <label class="field inline">
            <span>{t("replay.hand")}</span>
            <select
              name="replay-hand"
              value={String(data.handNumber)}
              onChange={(e) => {
                const h = Number((e.currentTarget as HTMLSelectElement).value);
                const s = data.handStarts[h];
                if (s !== undefined) go(s);
              }}
            >
              {data.handStarts.map((_, h) => (
                <option key={h} value={String(h)}>
                  {t("replay.handOption", { n: h + 1 })}
                </option>
              ))}
            </select>
          </label>
        ) : null}
      </div>
      <p class="hint">{t("replay.keys")}</p>
      {data?.matchOver ? (
        <AnalysisPanel
          tableId={props.tableId}
          analysis={analysis}
          onDone={setAnalysis}
          name={name}
        />
      ) : null}
      {data ? (
        <ReplayPosition data={data} name={name} analysis={analysis} />
      ) : null}
      <p>
        <a href={href({ page: "results" })}>{t("nav.results")}</a>
        {" · "}
        <a href={href({ page: "lobby" })}>{t("common.back")}</a>
      </p>
    </section>
  );
}

/** One position: the action just taken, every seat's cards, the trick, events and result. */
function ReplayPosition(props: {
  data: GetReplayResponse;
  name: SeatNamer;
  analysis: Analysis | undefined;
}): VNode {
  const t = useT();
  const d = props.data;
  const o = d.observation;
  const game = gameName(o?.options?.game ?? 0);
  const seats = Math.max(
    d.playerNames.length,
    d.deal.length,
    o?.handSizes.length ?? 0,
  );
  const cardsOf = (seat: number): string[] => {
    const v = o?.visibleHands.find((h) => h.seat === seat);
    return v ? notations(v.cards).sort(compareCards) : [];
  };
  const events = o?.events ?? [];
  // The decision taken from this position (the hand's next action), if it had a choice.
  const next = decisionAt(props.analysis, d.handNumber, d.actionIndex);
  // A card play's notation is `play CARD` (and perhaps a signal after it): that card is
  // marked in its holder's hand.
  const best = next?.best.startsWith("play ")
    ? next.best.split(" ")[1]
    : undefined;
  return (
    <div class="replay-position">
      <h2>
        {t("table.hand", { n: d.handNumber + 1 })}
        {" · "}
        {d.action
          ? t("replay.action", {
              name: props.name(d.seat),
              action: actionLabel(t, d.action),
            })
          : t("replay.dealt")}
      </h2>
      <div class="replay-seats">
        {Array.from({ length: seats }, (_, i) => (
          <section
            key={i}
            class="panel replay-seat"
            aria-label={t("replay.cardsOf", { name: props.name(i) })}
          >
            <h3>
              {props.name(i)}
              {o?.dealer === i ? ` · ${t("table.dealer")}` : ""}
            </h3>
            <div class="card-row wrap" data-seat-cards={i}>
              {cardsOf(i).map((c) => (
                <CardImage
                  key={c}
                  card={c}
                  class={c === best ? "small best" : "small"}
                  attrs={
                    c === best
                      ? { "data-card": c, "data-best-card": "true" }
                      : { "data-card": c }
                  }
                />
              ))}
            </div>
          </section>
        ))}
      </div>
      {next ? <DecisionValues decision={next} name={props.name} /> : null}
      <section class="trick-area" aria-labelledby="replay-trick">
        <h2 id="replay-trick">{t("table.trick")}</h2>
        <TrickCards
          trick={o?.trick ?? []}
          name={props.name}
          cardAttr="data-trick-card"
        />
      </section>
      {o?.outcome ? (
        <p class="result">
          <strong>{resultText(t, o.outcome, game, props.name)}</strong>
        </p>
      ) : null}
      <section class="panel events" aria-labelledby="replay-events">
        <h2 id="replay-events">{t("table.events")}</h2>
        <ol class="event-list">
          {events.slice(-8).map((e, i) => (
            <li key={i}>{eventText(t, e, props.name)}</li>
          ))}
        </ol>
      </section>
    </div>
  );
}
