/**
 * A player's name as a link to the player's page, with a "bot" badge where the server marks
 * the name as a built-in bot's, so that people and bots are told apart at a glance. A tournament's filler
 * seats (`~...`) are not players and stay plain text.
 */
import type { VNode } from "preact";
import { useT } from "./i18n-context.js";
import { href } from "./routes.js";

/** A link to `name`'s page. */
export function PlayerLink(props: { name: string; bot?: boolean }): VNode {
  const t = useT();
  if (props.name === "" || props.name.startsWith("~")) {
    return <span>{props.name}</span>;
  }
  return (
    <span class="player-link">
      <a
        href={href({ page: "player", name: props.name })}
        data-player-link={props.name}
      >
        {props.name}
      </a>
      {props.bot ? (
        <span class="badge bot" data-bot-badge>
          {t("player.botBadge")}
        </span>
      ) : null}
    </span>
  );
}
