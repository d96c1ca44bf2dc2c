/**
 * The decision due: every legal action (and only those) as an enabled element carrying
 * `data-action`, and the own hand as cards, playable by mouse or keyboard.
 */
import type { VNode } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import { actionLabel, handCardOf, parseAction, signalName } from "./actions.js";
import { cardName, compareCards } from "./cards.js";
import { CardButton } from "./card-view.js";
import { type SeatNamer } from "./events.js";
import { useT } from "./i18n-context.js";
import { notations, type TableModel } from "./state.js";
import { phaseName } from "./wire.js";

/**
 * The decision due: whose it is; for this viewer, the actions that are not a card of a hand
 * (bids, pass, calls, takes, and any other), each an enabled button with `data-action`.
 */
export function Decision(props: {
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
export function Hands(props: {
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
