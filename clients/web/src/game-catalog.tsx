/**
 * The games the server plays and their rule options (`ListGames`), asked for once for the
 * page's life and shared by every form that builds option fields from them; and
 * {@link WithGames}, which shows a form once they are here, or why they are not.
 */
import type { GameDescription } from "@calabresella/client";
import type { VNode } from "preact";
import { useEffect, useState } from "preact/hooks";
import { api, errorText } from "./api.js";
import { useT } from "./i18n-context.js";

/** The games once the server described them. */
let games: GameDescription[] | undefined;
/** The call in flight, shared by every form that waits; forgotten when it fails. */
let asking: Promise<GameDescription[]> | undefined;

/** What a form knows of the games: still asking, the games, or why they did not come. */
export type Catalog =
  | { state: "loading" }
  | { state: "ready"; games: GameDescription[] }
  | { state: "error"; error: unknown };

/** The games, asked for on first use; `retry` asks again after a failure. */
export function useGameCatalog(): Catalog & { retry: () => void } {
  const [catalog, setCatalog] = useState<Catalog>(
    games ? { state: "ready", games } : { state: "loading" },
  );
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    if (games) return;
    let live = true;
    asking ??= api().listGames();
    asking.then(
      (g) => {
        if (g.length === 0) {
          // Nothing to build a form from: a server fault, shown as one.
          asking = undefined;
          if (live)
            setCatalog({
              state: "error",
              error: new Error("the server describes no games"),
            });
          return;
        }
        games = g;
        if (live) setCatalog({ state: "ready", games: g });
      },
      (error: unknown) => {
        asking = undefined;
        if (live) setCatalog({ state: "error", error });
      },
    );
    return () => {
      live = false;
    };
  }, [attempt]);
  return {
    ...catalog,
    retry: () => {
      setCatalog({ state: "loading" });
      setAttempt((a) => a + 1);
    },
  };
}

/**
 * `render` with the games once they are here; until then a line saying they are being asked
 * for, or why they did not come with a button to ask again (never a blank form).
 */
export function WithGames(props: {
  render: (games: GameDescription[]) => VNode;
}): VNode {
  const t = useT();
  const catalog = useGameCatalog();
  if (catalog.state === "ready") return props.render(catalog.games);
  if (catalog.state === "loading") {
    return (
      <p data-games="loading" role="status">
        {t("games.loading")}
      </p>
    );
  }
  return (
    <div data-games="error">
      <p class="error" role="alert">
        {t("games.error", { message: errorText(catalog.error) })}
      </p>
      <button type="button" data-games-retry onClick={catalog.retry}>
        {t("games.retry")}
      </button>
    </div>
  );
}
