/** A labelled select of the five games, for the forms that ask for one. */
import type { VNode } from "preact";
import { GAME_NAMES, type GameName } from "./games.js";
import { useT } from "./i18n-context.js";

/** The field: `name` names the select (the DOM contract's hook). */
export function GameSelect(props: {
  name: string;
  value: GameName;
  onChange: (game: GameName) => void;
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
          props.onChange(
            (e.currentTarget as HTMLSelectElement).value as GameName,
          )
        }
      >
        {GAME_NAMES.map((g) => (
          <option key={g} value={g}>
            {t(`game.${g}`)}
          </option>
        ))}
      </select>
    </label>
  );
}
