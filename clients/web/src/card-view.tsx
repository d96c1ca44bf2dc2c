/**
 * Cards on the page: the SVG pictures of `cards.ts` as Preact elements, as images, as buttons
 * (a card to play, discard, give back or call) and as face-down backs.
 */
import { h, type ComponentChildren, type VNode } from "preact";
import {
  cardBackSvg,
  cardName,
  cardSvg,
  parseCard,
  type SvgNode,
} from "./cards.js";
import { useT } from "./i18n-context.js";

/** A picture tree as Preact elements. */
export function svgElement(node: SvgNode, key?: number): VNode {
  const children =
    node.text !== undefined
      ? node.text
      : (node.children ?? []).map((c, i) => svgElement(c, i));
  return h(
    node.tag,
    key === undefined ? node.attrs : { ...node.attrs, key },
    children,
  );
}

/** A card as a labelled image (the trick, the revealed deal, other hands). */
export function CardImage(props: {
  card: string;
  /** Extra attributes for the wrapper (`data-card`, `data-played-by`). */
  attrs?: Record<string, string | number>;
  class?: string;
}): VNode {
  const t = useT();
  const c = parseCard(props.card);
  if (!c) return <span class="card card-unknown">{props.card}</span>;
  return (
    <span class={`card ${props.class ?? ""}`} {...props.attrs}>
      {svgElement(cardSvg(c, cardName(t, c.notation)))}
    </span>
  );
}

/** A face-down card. */
export function CardBack(props: { class?: string }): VNode {
  return (
    <span class={`card card-back ${props.class ?? ""}`}>
      {svgElement(cardBackSvg())}
    </span>
  );
}

/**
 * A card as a button: enabled with `data-action` when `action` is given (the click answers
 * it), else shown but unavailable (`aria-disabled`, no `data-action`): such a button stays
 * focusable, so the arrow keys still move through the whole hand.
 */
export function CardButton(props: {
  card: string;
  action?: string;
  label: string;
  onAct: (action: string) => void;
  tabIndex: number;
  attrs?: Record<string, string | number>;
  onKeyDown?: (e: KeyboardEvent) => void;
  onFocus?: () => void;
  onBlur?: (e: FocusEvent) => void;
  buttonRef?: (el: HTMLButtonElement | null) => void;
  children?: ComponentChildren;
  keyshortcuts?: string;
  class?: string;
}): VNode {
  const c = parseCard(props.card);
  const enabled = props.action !== undefined;
  return (
    <button
      type="button"
      ref={props.buttonRef}
      class={`card card-button ${enabled ? "legal" : "unavailable"} ${props.class ?? ""}`}
      aria-label={props.label}
      aria-disabled={enabled ? undefined : "true"}
      aria-keyshortcuts={props.keyshortcuts}
      data-action={props.action}
      tabIndex={props.tabIndex}
      onClick={() => {
        if (props.action !== undefined) props.onAct(props.action);
      }}
      onKeyDown={props.onKeyDown}
      onFocus={props.onFocus}
      onBlur={props.onBlur}
      {...props.attrs}
    >
      {c ? svgElement(cardSvg(c)) : props.card}
      {props.children}
    </button>
  );
}
