/**
 * A game's rule options as form fields, built from the server's description (`ListGames`):
 * a flag is a checkbox, a number an input within its bounds, a choice a select (with a "not
 * set" entry when the option has no default, as a preset), anything else a text input. Each
 * field is named after its key (the DOM contract) and labelled by it, with what it does, the
 * description's own text, below.
 */
import {
  OptionKind,
  type GameDescription,
  type OptionDescription,
} from "@calabresella/client";
import type { VNode } from "preact";
import { useT } from "./i18n-context.js";
import { keyLabel, offered, type OptionValues } from "./option-values.js";

/** The fields of every option of `game` a form offers. `form` makes the element ids unique. */
export function OptionFields(props: {
  form: string;
  game: GameDescription;
  values: Readonly<OptionValues>;
  onChange: (key: string, value: string) => void;
}): VNode {
  return (
    <div class="form-grid options">
      {props.game.options.filter(offered).map((o) => (
        <OptionField
          key={`${props.game.name}-${o.key}`}
          id={`${props.form}-${props.game.name}-${o.key}`}
          option={o}
          value={props.values[o.key] ?? ""}
          onChange={(v) => props.onChange(o.key, v)}
        />
      ))}
    </div>
  );
}

function OptionField(props: {
  id: string;
  option: OptionDescription;
  value: string;
  onChange: (v: string) => void;
}): VNode {
  const t = useT();
  const o = props.option;
  const docId = `${props.id}-doc`;
  const label = keyLabel(o.key);
  const doc = (
    <span id={docId} class="hint">
      {o.doc}
    </span>
  );
  const text = (e: Event) =>
    props.onChange(
      (e.currentTarget as HTMLInputElement | HTMLSelectElement).value,
    );
  if (o.kind === OptionKind.FLAG) {
    return (
      <div class="field option">
        <label class="check">
          <input
            type="checkbox"
            name={o.key}
            checked={props.value === "true"}
            aria-describedby={docId}
            onChange={(e) =>
              props.onChange(
                (e.currentTarget as HTMLInputElement).checked
                  ? "true"
                  : "false",
              )
            }
          />
          <span>{label}</span>
        </label>
        {doc}
      </div>
    );
  }
  let control: VNode;
  if (o.kind === OptionKind.CHOICE) {
    control = (
      <select
        name={o.key}
        value={props.value}
        aria-describedby={docId}
        onChange={text}
      >
        {o.defaultValue === "" ? (
          <option value="">{t("options.unset")}</option>
        ) : null}
        {o.choices.map((c) => (
          <option key={c} value={c}>
            {c}
          </option>
        ))}
      </select>
    );
  } else if (o.kind === OptionKind.NUMBER) {
    control = (
      <input
        type="number"
        name={o.key}
        min={o.min}
        max={o.max}
        step={1}
        placeholder={o.defaultValue}
        value={props.value}
        aria-describedby={docId}
        onInput={text}
      />
    );
  } else {
    control = (
      <input
        type="text"
        name={o.key}
        placeholder={o.defaultValue}
        value={props.value}
        aria-describedby={docId}
        onInput={text}
      />
    );
  }
  return (
    <div class="field option">
      <label class="field">
        <span>{label}</span>
        {control}
      </label>
      {doc}
    </div>
  );
}
