/**
 * The app's frame: the header (title, navigation, language), the page of the current route
 * in `<main>`, and the chosen language for every view.
 */
import { useEffect, useMemo, useState } from "preact/hooks";
import type { VNode } from "preact";
import {
  LANGUAGE_KEY,
  LANGUAGE_NAMES,
  LANGUAGES,
  initialLanguage,
  isLang,
  translator,
  type Lang,
} from "./i18n/index.js";
import { I18nContext, useT } from "./i18n-context.js";
import { CompeteBanner } from "./compete-banner.js";
import { Lobby } from "./lobby.js";
import { PlayerPage } from "./player.js";
import { SignIn } from "./sign-in.js";
import { TournamentPage } from "./tournament.js";
import { Tournaments } from "./tournaments.js";
import { Replay } from "./replay.js";
import { Results } from "./results.js";
import { href, useRoute, type Route } from "./routes.js";
import { TableView } from "./table.js";

/** Reads the kept language (storage may be blocked: then nothing is kept). */
function storedLanguage(): string | null {
  try {
    return localStorage.getItem(LANGUAGE_KEY);
  } catch {
    return null;
  }
}

function keepLanguage(lang: Lang): void {
  try {
    localStorage.setItem(LANGUAGE_KEY, lang);
  } catch {
    // Not kept: the choice holds for this page only.
  }
}

/** The whole app. */
export function App(): VNode {
  const [lang, setLang] = useState<Lang>(() =>
    initialLanguage(
      storedLanguage(),
      navigator.languages ?? [navigator.language],
    ),
  );
  const i18n = useMemo(() => ({ lang, t: translator(lang) }), [lang]);
  const route = useRoute();
  useEffect(() => {
    document.documentElement.lang = lang;
  }, [lang]);
  useEffect(() => {
    document.title = titleOf(route, i18n.t);
  }, [route, i18n]);
  const choose = (value: string) => {
    if (isLang(value)) {
      keepLanguage(value);
      setLang(value);
    }
  };
  return (
    <I18nContext.Provider value={i18n}>
      <a class="skip" href="#content" onClick={skipToContent}>
        {i18n.t("app.skip")}
      </a>
      <Header route={route} lang={lang} onLanguage={choose} />
      <CompeteBanner />
      <main id="content" tabIndex={-1}>
        <Page route={route} />
      </main>
    </I18nContext.Provider>
  );
}

/** Moves focus to the content without touching the hash (which is the route). */
function skipToContent(e: Event): void {
  e.preventDefault();
  document.getElementById("content")?.focus();
}

function titleOf(route: Route, t: ReturnType<typeof translator>): string {
  const app = t("app.title");
  switch (route.page) {
    case "lobby":
      return `${t("lobby.title")} · ${app}`;
    case "results":
      return `${t("results.title")} · ${app}`;
    case "table":
      return `${route.tableId} · ${app}`;
    case "replay":
      return `${t("replay.title", { id: route.tableId })} · ${app}`;
    case "tournaments":
      return `${t("tournaments.title")} · ${app}`;
    case "tournament":
      return `${route.tournamentId} · ${app}`;
    case "player":
      return `${route.name} · ${app}`;
  }
}

function Header(props: {
  route: Route;
  lang: Lang;
  onLanguage: (lang: string) => void;
}): VNode {
  const t = useT();
  const current = props.route.page;
  return (
    <header class="site-header">
      <div class="brand">
        <a href={href({ page: "lobby" })} class="brand-link">
          <span class="brand-name">{t("app.title")}</span>
        </a>
        <span class="tagline">{t("app.tagline")}</span>
      </div>
      <nav aria-label={t("nav.label")}>
        <ul>
          <li>
            <a
              href={href({ page: "lobby" })}
              aria-current={current === "lobby" ? "page" : undefined}
            >
              {t("nav.lobby")}
            </a>
          </li>
          <li>
            <a
              href={href({ page: "tournaments" })}
              aria-current={
                current === "tournaments" || current === "tournament"
                  ? "page"
                  : undefined
              }
            >
              {t("nav.tournaments")}
            </a>
          </li>
          <li>
            <a
              href={href({ page: "results" })}
              aria-current={current === "results" ? "page" : undefined}
            >
              {t("nav.results")}
            </a>
          </li>
        </ul>
      </nav>
      <SignIn />
      <label class="language">
        <span>{t("language.label")}</span>
        <select
          data-language
          value={props.lang}
          onChange={(e) =>
            props.onLanguage((e.currentTarget as HTMLSelectElement).value)
          }
        >
          {LANGUAGES.map((l) => (
            <option key={l} value={l} lang={l}>
              {LANGUAGE_NAMES[l]}
            </option>
          ))}
        </select>
      </label>
    </header>
  );
}

function Page(props: { route: Route }): VNode {
  const r = props.route;
  switch (r.page) {
    case "lobby":
      return <Lobby />;
    case "results":
      return <Results />;
    case "table":
      return <TableView key={r.tableId} tableId={r.tableId} />;
    case "replay":
      return <Replay key={r.tableId} tableId={r.tableId} />;
    case "tournaments":
      return <Tournaments />;
    case "tournament":
      return (
        <TournamentPage key={r.tournamentId} tournamentId={r.tournamentId} />
      );
    case "player":
      return <PlayerPage key={r.name} name={r.name} />;
  }
}
