/**
 * The 40 Italian cards: their notation (`Ad`, `3b`, `Kc`) and their pictures, drawn here as
 * SVG from simple shapes (a baton, a cup, a coin, a sword), so the app downloads no art and
 * the server's Content-Security-Policy (images from this origin only) holds.
 *
 * Drawing returns a plain tree ({@link SvgNode}) rather than DOM or Preact nodes: the same
 * tree is rendered by the views (`card-view.tsx`) and serialised by the unit tests, which run
 * in Node without a DOM. Every colour is a presentation attribute (`fill=`), never a `style`
 * attribute, which the policy forbids.
 */

/** The ranks in trick order, highest first (K re, C cavallo, F fante). */
export const RANKS = [
  "3",
  "2",
  "A",
  "K",
  "C",
  "F",
  "7",
  "6",
  "5",
  "4",
] as const;
/** The suits: bastoni, coppe, denari, spade. */
export const SUITS = ["b", "c", "d", "s"] as const;

/** A rank letter. */
export type Rank = (typeof RANKS)[number];
/** A suit letter. */
export type Suit = (typeof SUITS)[number];

/** A card, parsed. */
export interface CardId {
  /** The rank letter. */
  rank: Rank;
  /** The suit letter. */
  suit: Suit;
  /** The canonical notation, rank then suit: `Ad`. */
  notation: string;
}

/** Every card of the deck, suit by suit, each suit in trick order. */
export const DECK: readonly CardId[] = SUITS.flatMap((suit) =>
  RANKS.map((rank) => ({ rank, suit, notation: `${rank}${suit}` })),
);

/**
 * The card a notation names, in any letter case (`ad`, `AD`, ` Ad `), or undefined when it
 * names none. Canonical form: rank upper case, suit lower case.
 */
export function parseCard(text: string): CardId | undefined {
  const s = text.trim();
  if (s.length !== 2) return undefined;
  const rank = s[0]!.toUpperCase() as Rank;
  const suit = s[1]!.toLowerCase() as Suit;
  if (!RANKS.includes(rank) || !SUITS.includes(suit)) return undefined;
  return { rank, suit, notation: `${rank}${suit}` };
}

/** Orders cards for a hand on screen: by suit, then by trick order within the suit. */
export function compareCards(a: string, b: string): number {
  const x = parseCard(a);
  const y = parseCard(b);
  if (!x || !y) return a < b ? -1 : a > b ? 1 : 0;
  return (
    SUITS.indexOf(x.suit) - SUITS.indexOf(y.suit) ||
    RANKS.indexOf(x.rank) - RANKS.indexOf(y.rank)
  );
}

/** One element of an SVG picture: its tag, attributes and children (or text). */
export interface SvgNode {
  /** The element's tag (`svg`, `g`, `rect`...). */
  tag: string;
  /** Its attributes, by their SVG names (`stroke-width`, not `strokeWidth`). */
  attrs: Record<string, string | number>;
  /** Child elements. */
  children?: SvgNode[];
  /** Text content (for `text` and `title`). */
  text?: string;
}

function el(
  tag: string,
  attrs: Record<string, string | number>,
  children?: SvgNode[],
): SvgNode {
  return children ? { tag, attrs, children } : { tag, attrs };
}

/**
 * Each suit's colours: `ink` for the rank letters (dark enough for a 4.5:1 contrast on the
 * card's cream face), `main` and `dark` for the symbol. The four colours of Italian decks.
 */
export const SUIT_COLOURS: Record<
  Suit,
  { ink: string; main: string; dark: string }
> = {
  b: { ink: "#1d5626", main: "#3f7d2c", dark: "#5b3a12" },
  c: { ink: "#9b1822", main: "#c62832", dark: "#7a0f17" },
  d: { ink: "#7a5600", main: "#e0aa12", dark: "#7a5600" },
  s: { ink: "#1b4685", main: "#3b6fb6", dark: "#1f2f4f" },
};

/**
 * A suit's symbol, centred on (0, 0), about 44 units high: a knotted baton, a goblet, a coin,
 * a sword.
 */
export function suitSymbol(suit: Suit): SvgNode {
  const c = SUIT_COLOURS[suit];
  switch (suit) {
    case "b":
      return el("g", { transform: "rotate(-28)" }, [
        el("rect", {
          x: -5,
          y: -22,
          width: 10,
          height: 44,
          rx: 5,
          fill: c.dark,
        }),
        el("circle", { cx: 0, cy: -12, r: 3, fill: c.main }),
        el("circle", { cx: 0, cy: 0, r: 3, fill: c.main }),
        el("circle", { cx: 0, cy: 12, r: 3, fill: c.main }),
        el("path", { d: "M5 -6 Q13 -12 10 -20 Q5 -12 5 -6 Z", fill: c.main }),
      ]);
    case "c":
      return el("g", {}, [
        el("path", {
          d: "M-16 -18 L16 -18 Q16 4 0 6 Q-16 4 -16 -18 Z",
          fill: c.main,
          stroke: c.dark,
          "stroke-width": 2,
        }),
        el("rect", { x: -3, y: 5, width: 6, height: 11, fill: c.dark }),
        el("ellipse", { cx: 0, cy: 18, rx: 12, ry: 4, fill: c.dark }),
      ]);
    case "d":
      return el("g", {}, [
        el("circle", {
          cx: 0,
          cy: 0,
          r: 19,
          fill: c.main,
          stroke: c.dark,
          "stroke-width": 2.5,
        }),
        el("circle", {
          cx: 0,
          cy: 0,
          r: 11,
          fill: "none",
          stroke: c.dark,
          "stroke-width": 2,
        }),
        el("circle", { cx: 0, cy: 0, r: 3.5, fill: c.dark }),
      ]);
    case "s":
      return el("g", {}, [
        el("path", {
          d: "M0 -24 L5 -15 L4 9 L-4 9 L-5 -15 Z",
          fill: c.main,
          stroke: c.dark,
          "stroke-width": 1.5,
        }),
        el("rect", {
          x: -12,
          y: 9,
          width: 24,
          height: 4,
          rx: 1.5,
          fill: c.dark,
        }),
        el("rect", { x: -2.5, y: 13, width: 5, height: 7, fill: c.dark }),
        el("circle", { cx: 0, cy: 23, r: 3.5, fill: c.dark }),
      ]);
  }
}

/**
 * The rank marks, drawn as strokes in a 10 by 14 box rather than as text: the picture needs no
 * font, and a card button's visible content stays its label alone (no stray letters that a
 * screen reader or an accessibility checker would read besides the card's name).
 */
export const RANK_GLYPHS: Record<Rank, string> = {
  "3": "M1.5 1.5 H8.5 L4.5 6 C9 5.5 10 9 8.5 11.5 C7 14 3 13.5 1.5 12",
  "2": "M1.5 4 C2 0.5 8.5 0.5 8.5 4.5 C8.5 7 4 9 1.5 13 H9",
  A: "M1 13 L5 1 L9 13 M2.5 9 H7.5",
  K: "M2 1 V13 M9 1 L2 8 M4.5 5.5 L9 13",
  C: "M9 3 C7 0.5 1.5 0.5 1.5 7 C1.5 13.5 7 13.5 9 11",
  F: "M2 13 V1 H9 M2 7 H7",
  "7": "M1.5 1.5 H9 L4 13",
  "6": "M8.5 2 C6 0.5 1.5 1 1.5 8 C1.5 13.5 8.5 13.5 8.5 9.5 C8.5 6 3 5.5 1.5 9",
  "5": "M8.5 1.5 H2.5 L2 6.5 C5 5 9 6 9 9.5 C9 13.5 3.5 14 1.5 12",
  "4": "M7 13 V1 L1 9.5 H9.5",
};

/** Where the symbols of a number card go (card of 100 by 150 units). */
const PIPS: Partial<Record<Rank, [number, number][]>> = {
  "2": [
    [50, 52],
    [50, 100],
  ],
  "3": [
    [50, 44],
    [50, 76],
    [50, 108],
  ],
  "4": [
    [32, 52],
    [68, 52],
    [32, 100],
    [68, 100],
  ],
  "5": [
    [32, 48],
    [68, 48],
    [50, 76],
    [32, 104],
    [68, 104],
  ],
  "6": [
    [32, 44],
    [68, 44],
    [32, 76],
    [68, 76],
    [32, 108],
    [68, 108],
  ],
  "7": [
    [32, 44],
    [68, 44],
    [50, 60],
    [32, 76],
    [68, 76],
    [32, 108],
    [68, 108],
  ],
};

/** A court card's emblem above its symbol: a crown (re), a horseshoe (cavallo), a cap (fante). */
function emblem(rank: Rank, colour: string): SvgNode {
  switch (rank) {
    case "K":
      return el("path", {
        d: "M36 48 L36 34 L43 41 L50 30 L57 41 L64 34 L64 48 Z",
        fill: colour,
      });
    case "C":
      return el("path", {
        d: "M40 48 L40 40 A10 10 0 0 1 60 40 L60 48 L55 48 L55 40 A5 5 0 0 0 45 40 L45 48 Z",
        fill: colour,
      });
    default:
      return el("path", {
        d: "M38 47 Q50 26 62 47 Z M50 31 L58 26 L56 33 Z",
        fill: colour,
      });
  }
}

function place(x: number, y: number, scale: number, node: SvgNode): SvgNode {
  return el("g", { transform: `translate(${x} ${y}) scale(${scale})` }, [node]);
}

/**
 * The picture of a card, 100 by 150 units: its face, the rank letter in two corners, the suit's
 * symbol (as many as a number card's value, one large for the ace, with an emblem on the court
 * cards). With a `label` the picture is an image of its own (`role="img"`, `aria-label` and a
 * `<title>`); without one it is decoration, hidden from screen readers, for a card inside a
 * labelled button.
 */
export function cardSvg(card: CardId, label?: string): SvgNode {
  const c = SUIT_COLOURS[card.suit];
  const corner = (flip: boolean): SvgNode =>
    el("g", flip ? { transform: "rotate(180 50 75)" } : {}, [
      el("path", {
        d: RANK_GLYPHS[card.rank],
        transform: "translate(7 8) scale(1.25)",
        fill: "none",
        stroke: c.ink,
        "stroke-width": 2.3,
        "stroke-linecap": "round",
        "stroke-linejoin": "round",
      }),
      place(13, 40, 0.3, suitSymbol(card.suit)),
    ]);
  const body: SvgNode[] = [];
  const court = card.rank === "K" || card.rank === "C" || card.rank === "F";
  if (card.rank === "A") {
    body.push(place(50, 76, 1.35, suitSymbol(card.suit)));
  } else if (court) {
    body.push(
      el("rect", {
        x: 26,
        y: 24,
        width: 48,
        height: 102,
        rx: 6,
        fill: "#f3ead2",
        stroke: c.dark,
        "stroke-width": 1.5,
      }),
      emblem(card.rank, c.dark),
      place(50, 88, 0.9, suitSymbol(card.suit)),
    );
  } else {
    for (const [x, y] of PIPS[card.rank] ?? []) {
      body.push(place(x, y, 0.55, suitSymbol(card.suit)));
    }
  }
  const attrs: Record<string, string | number> = {
    xmlns: "http://www.w3.org/2000/svg",
    viewBox: "0 0 100 150",
    class: "card-svg",
    "data-svg-card": card.notation,
  };
  const children: SvgNode[] = [];
  if (label !== undefined) {
    attrs.role = "img";
    attrs["aria-label"] = label;
    children.push({ tag: "title", attrs: {}, text: label });
  } else {
    attrs["aria-hidden"] = "true";
    attrs.focusable = "false";
  }
  children.push(
    el("rect", {
      x: 1.5,
      y: 1.5,
      width: 97,
      height: 147,
      rx: 8,
      fill: "#fffdf5",
      stroke: "#3b3b3b",
      "stroke-width": 2,
    }),
    corner(false),
    corner(true),
    ...body,
  );
  return el("svg", attrs, children);
}

/** The back of a card (a hidden card): a plain patterned face. */
export function cardBackSvg(): SvgNode {
  return el(
    "svg",
    {
      xmlns: "http://www.w3.org/2000/svg",
      viewBox: "0 0 100 150",
      class: "card-svg",
      "aria-hidden": "true",
      focusable: "false",
    },
    [
      el("rect", {
        x: 1.5,
        y: 1.5,
        width: 97,
        height: 147,
        rx: 8,
        fill: "#27456e",
        stroke: "#3b3b3b",
        "stroke-width": 2,
      }),
      el("rect", {
        x: 10,
        y: 10,
        width: 80,
        height: 130,
        rx: 4,
        fill: "none",
        stroke: "#c9a227",
        "stroke-width": 2,
      }),
      place(50, 75, 0.9, suitSymbol("d")),
    ],
  );
}

const ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
};

/** Escapes text for XML markup. */
function escapeXml(s: string): string {
  return s.replace(/[&<>"]/g, (ch) => ESCAPES[ch]!);
}

/** A picture as SVG markup (for tests and for files written at build time). */
export function svgMarkup(node: SvgNode): string {
  const attrs = Object.entries(node.attrs)
    .map(([k, v]) => ` ${k}="${escapeXml(String(v))}"`)
    .join("");
  const inner =
    node.text !== undefined
      ? escapeXml(node.text)
      : (node.children ?? []).map(svgMarkup).join("");
  return `<${node.tag}${attrs}>${inner}</${node.tag}>`;
}

/** Looks up the words of a card's name (the app's `Translate`, kept structural here). */
type Words = (
  key: `rank.${Rank}` | `suit.${Suit}` | "card.name",
  vars?: Readonly<Record<string, string | number>>,
) => string;

/**
 * A card's name in the chosen language, for screen readers and labels: "Ace of coins",
 * "Asso di denari". An unknown notation is returned as it is.
 */
export function cardName(t: Words, notation: string): string {
  const c = parseCard(notation);
  if (!c) return notation;
  const name = t("card.name", {
    rank: t(`rank.${c.rank}`),
    suit: t(`suit.${c.suit}`),
  });
  // French elides "de" before a vowel ("As d'épées"); no other language's card name has a
  // lone "de" before a vowel.
  return name.replace(/ de ([aeiouéè])/i, " d'$1");
}
