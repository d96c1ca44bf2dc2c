/**
 * The bar under the header while this tab plays the signed-in player's tournament matches:
 * the tables it was given (links) and a button to stop.
 */
import type { VNode } from "preact";
import { stopCompeting, useCompete } from "./compete.js";
import { useT } from "./i18n-context.js";
import { href } from "./routes.js";

/** The bar, or nothing while the tab does not compete. */
export function CompeteBanner(): VNode | null {
  const t = useT();
  const s = useCompete();
  if (s.state === "off") return null;
  return (
    <div class="compete-banner" data-compete={s.error ? "error" : "on"}>
      <p role="status">
        {s.tables.length === 0 ? t("compete.waiting") : t("compete.playing")}
      </p>
      {s.tables.length > 0 ? (
        <ul>
          {s.tables.map((id) => (
            <li key={id}>
              <a
                href={href({ page: "table", tableId: id })}
                data-compete-table={id}
              >
                {id}
              </a>
            </li>
          ))}
        </ul>
      ) : null}
      {s.error ? (
        <p class="error" role="alert">
          {t("common.error", { message: s.error })}
        </p>
      ) : null}
      <button
        type="button"
        class="secondary"
        data-compete-stop
        onClick={stopCompeting}
      >
        {t("compete.stop")}
      </button>
    </div>
  );
}
