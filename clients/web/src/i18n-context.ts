/**
 * The chosen language for the views: a Preact context holding the lookup function, so every
 * component reads texts with `useT()` and the whole page follows a change of language.
 */
import { createContext } from "preact";
import { useContext } from "preact/hooks";
import { translator, type Lang, type Translate } from "./i18n/index.js";

/** The language in use and its lookup. */
export interface I18n {
  /** The language code. */
  lang: Lang;
  /** The lookup. */
  t: Translate;
}

/** The context (English until the app provides the chosen language). */
export const I18nContext = createContext<I18n>({
  lang: "en",
  t: translator("en"),
});

/** The lookup function of the language in use. */
export function useT(): Translate {
  return useContext(I18nContext).t;
}

/** The language in use. */
export function useLang(): Lang {
  return useContext(I18nContext).lang;
}
