/**
 * The app's languages: English, Italian, German, Dutch and French, one file each. Texts are
 * looked up by key with `{name}` placeholders; values put into a text are plain strings, so a
 * player's name stays text wherever it lands (the views never write markup from data).
 */
import { de } from "./de.js";
import { en, type MessageKey, type Messages } from "./en.js";
import { fr } from "./fr.js";
import { it } from "./it.js";
import { nl } from "./nl.js";

export type { MessageKey, Messages };

/** The languages offered, in the order of the language menu. */
export const LANGUAGES = ["en", "it", "de", "nl", "fr"] as const;

/** A language code. */
export type Lang = (typeof LANGUAGES)[number];

/** Every language's texts. */
export const MESSAGES: Record<Lang, Messages> = { en, it, de, nl, fr };

/** Each language's own name, for the language menu (always in that language). */
export const LANGUAGE_NAMES: Record<Lang, string> = {
  en: "English",
  it: "Italiano",
  de: "Deutsch",
  nl: "Nederlands",
  fr: "Français",
};

/** Where the chosen language is kept. */
export const LANGUAGE_KEY = "calabresella.language";

/** Whether `s` is one of the languages offered. */
export function isLang(s: unknown): s is Lang {
  return typeof s === "string" && (LANGUAGES as readonly string[]).includes(s);
}

/**
 * The language to start with: the one kept from a previous choice, else the first of the
 * browser's preferred languages the app has (by its primary subtag: `it-CH` is Italian),
 * else English.
 */
export function initialLanguage(
  stored: string | null | undefined,
  preferred: readonly string[],
): Lang {
  if (isLang(stored)) return stored;
  for (const tag of preferred) {
    const primary = tag.toLowerCase().split("-")[0];
    if (isLang(primary)) return primary;
  }
  return "en";
}

/** Values put into a text's placeholders. */
export type Vars = Readonly<Record<string, string | number>>;

/** A text looked up by key, with its placeholders filled. */
export type Translate = (key: MessageKey, vars?: Vars) => string;

/**
 * The lookup function of a language. A placeholder with no value is left as it is (visible in
 * the page, so the mistake is seen rather than hidden).
 */
export function translator(lang: Lang): Translate {
  const messages = MESSAGES[lang];
  return (key, vars) => {
    const text = messages[key] ?? en[key] ?? key;
    if (!vars) return text;
    return text.replace(/\{(\w+)\}/g, (whole, name: string) =>
      name in vars ? String(vars[name]) : whole,
    );
  };
}

/** The placeholders a text uses, sorted (the completeness test compares them). */
export function placeholders(text: string): string[] {
  return [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!).sort();
}
