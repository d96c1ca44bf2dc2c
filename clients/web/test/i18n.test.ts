// Every language has every text, with the same placeholders as English.
import assert from "node:assert/strict";
import { test } from "node:test";
import { en } from "../src/i18n/en.js";
import {
  LANGUAGES,
  MESSAGES,
  initialLanguage,
  placeholders,
  translator,
} from "../src/i18n/index.js";

const keys = Object.keys(en).sort();

for (const lang of LANGUAGES) {
  test(`${lang}: every key, no extra key, same placeholders`, () => {
    const m = MESSAGES[lang] as Record<string, string>;
    assert.deepEqual(Object.keys(m).sort(), keys);
    for (const k of keys) {
      const text = m[k]!;
      assert.equal(typeof text, "string", k);
      assert.notEqual(text.trim(), "", `${lang} ${k} is empty`);
      assert.deepEqual(
        placeholders(text),
        placeholders(en[k as keyof typeof en]),
        `${lang} ${k}: placeholders`,
      );
    }
  });
}

test("the language menu offers the five languages", () => {
  assert.deepEqual([...LANGUAGES], ["en", "it", "de", "nl", "fr"]);
});

test("the first language: kept choice, else the browser's, else English", () => {
  assert.equal(initialLanguage("fr", ["it-IT"]), "fr");
  assert.equal(initialLanguage(null, ["it-CH", "en"]), "it");
  assert.equal(initialLanguage("xx", ["es", "nl-BE"]), "nl");
  assert.equal(initialLanguage(undefined, ["es", "pt"]), "en");
  assert.equal(initialLanguage(null, []), "en");
});

test("placeholders are filled with plain text", () => {
  const t = translator("en");
  assert.equal(t("table.hand", { n: 3 }), "Hand 3");
  assert.equal(
    t("table.waitingFor", { name: "<img src=x onerror=alert(1)>" }),
    "Waiting for <img src=x onerror=alert(1)>",
  );
  // A missing value stays visible.
  assert.equal(t("table.hand"), "Hand {n}");
  assert.equal(translator("it")("table.hand", { n: 2 }), "Mano 2");
});
