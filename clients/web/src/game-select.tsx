/** A labelled select of the games the server plays, for the forms that ask for one. */
import type { GameDescription } from "@calabresella/client";
import type { VNode } from "preact";
import { useT } from "./i18n-context.js";
import { MESSAGES, type MessageKey, type Translate } from "./i18n/index.js";

/** A game's name in the page's language, or as the server spells it when it has none. */
export function gameLabel(t: Translate, name: string): string {
  const key = `game.${name}`;
  return key in MESSAGES.en ? t(key as MessageKey) : name;
}

/** The field: `name` names the select (the DOM contract's hook). */
export function GameSelect(props: {
  name: string;
  games: readonly GameDescription[];
  value: string;
  onChange: (game: string) => void;
  disabled?: boolean;
}): VNode {
  const t = useT();
  return (
    <label class="field">
      <span>{t("lobby.game")}</span>
      <select
        name={props.name}
        value={props.value}
        disabled={props.disabled}
        onChange={(e) =>
          props.onChange((e.currentTarget as HTMLSelectElement).value)
        }
      >
        {props.games.map((g) => (
          <option key={g.name} value={g.name}>
            {gameLabel(t, g.name)}
          </option>
        ))}
      </select>
    </label>
  );
}
