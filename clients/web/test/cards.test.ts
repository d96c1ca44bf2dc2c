// The 40 cards: notation, order, and pictures (an <svg> with a label for each).
import assert from "node:assert/strict";
import { test } from "node:test";
import {
  DECK,
  RANK_GLYPHS,
  cardBackSvg,
  cardName,
  cardSvg,
  compareCards,
  parseCard,
  svgMarkup,
} from "../src/cards.js";
import { translator } from "../src/i18n/index.js";

test("the deck holds 40 distinct cards in canonical notation", () => {
  assert.equal(DECK.length, 40);
  assert.equal(new Set(DECK.map((c) => c.notation)).size, 40);
  for (const c of DECK) assert.match(c.notation, /^[32AKCF7654][bcds]$/);
});

test("notation parses in any case and round-trips", () => {
  assert.deepEqual(parseCard(" ad "), { rank: "A", suit: "d", notation: "Ad" });
  assert.equal(parseCard("KC")?.notation, "Kc");
  for (const c of DECK)
    assert.equal(parseCard(c.notation)?.notation, c.notation);
  for (const bad of ["", "A", "1d", "Ax", "Add", "10d"]) {
    assert.equal(parseCard(bad), undefined, bad);
  }
});

test("cards sort by suit, then trick order", () => {
  const sorted = ["4d", "3b", "Ad", "Kb", "2s", "3d"].sort(compareCards);
  assert.deepEqual(sorted, ["3b", "Kb", "3d", "Ad", "4d", "2s"]);
});

test("every card draws an <svg> labelled with its name, in every language", () => {
  for (const lang of ["en", "it", "de", "nl", "fr"] as const) {
    const t = translator(lang);
    for (const c of DECK) {
      const label = cardName(t, c.notation);
      const svg = cardSvg(c, label);
      const markup = svgMarkup(svg);
      assert.equal(svg.tag, "svg");
      assert.ok(markup.startsWith("<svg "), c.notation);
      assert.ok(markup.includes(`role="img"`));
      assert.ok(
        markup.includes(`aria-label="${label}"`),
        `${lang} ${c.notation}`,
      );
      assert.ok(markup.includes(`<title>${label}</title>`));
      // The rank mark is drawn in the corners, as strokes (no text to read besides the label).
      assert.ok(markup.includes(`d="${RANK_GLYPHS[c.rank]}"`));
      assert.ok(!markup.includes("<text"));
      // No style attribute: the server's Content-Security-Policy forbids inline styles.
      assert.ok(!markup.includes("style="), c.notation);
    }
  }
});

test("card names read naturally", () => {
  assert.equal(cardName(translator("en"), "Ad"), "Ace of coins");
  assert.equal(cardName(translator("it"), "Ad"), "Asso di denari");
  assert.equal(cardName(translator("it"), "Kc"), "Re di coppe");
  assert.equal(cardName(translator("fr"), "Cs"), "Cavalier d'épées");
  assert.equal(cardName(translator("fr"), "Ad"), "As de deniers");
  assert.equal(cardName(translator("de"), "Fb"), "Bube der Stäbe");
  assert.equal(cardName(translator("nl"), "3s"), "Drie van zwaarden");
  assert.equal(cardName(translator("en"), "zz"), "zz");
});

test("a card inside a labelled button is hidden from screen readers", () => {
  const markup = svgMarkup(cardSvg(parseCard("7s")!));
  assert.ok(markup.includes(`aria-hidden="true"`));
  assert.ok(!markup.includes("aria-label"));
  assert.ok(svgMarkup(cardBackSvg()).includes(`aria-hidden="true"`));
});

test("labels are escaped in markup", () => {
  const markup = svgMarkup(cardSvg(parseCard("Ad")!, `<b>"x"&`));
  assert.ok(markup.includes("&lt;b&gt;&quot;x&quot;&amp;"));
});
