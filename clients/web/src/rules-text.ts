/**
 * A game's options as `key=value` text (`target=11, accusi=true`): the settings as they were
 * sent (a tournament's options come back as given), or the typed rules (a table's options come
 * back as those), read from the wire message through its descriptor, so that every option and
 * enum value is named as the contract names it.
 */
import { GameOptionsSchema, type GameOptions } from "@calabresella/client";

/** The options set in `o` as `key=value` pairs (empty: every default). */
export function rulesText(o: GameOptions | undefined): string {
  const settings = Object.keys(o?.settings ?? {}).sort();
  if (settings.length > 0) {
    return settings.map((k) => `${k}=${o!.settings[k]}`).join(", ");
  }
  const rules = o?.rules;
  if (!rules || rules.case === undefined) return "";
  const field = GameOptionsSchema.fields.find(
    (f) => f.localName === rules.case,
  );
  if (!field || field.fieldKind !== "message") return "";
  const value = rules.value as unknown as Record<string, unknown>;
  const pairs: string[] = [];
  for (const f of field.message.fields) {
    const v = value[f.localName];
    if (v === undefined || v === null) continue;
    if (f.fieldKind === "enum") {
      const e = f.enum.values.find((x) => x.number === v);
      if (!e || e.number === 0) continue;
      // `MATCH_END_POOLED` is `pooled`, as the option notation writes it.
      const prefix = f.enum.sharedPrefix ?? "";
      pairs.push(
        `${f.name}=${e.name.slice(prefix.length).toLowerCase() || e.name}`,
      );
    } else if (f.fieldKind === "scalar") {
      pairs.push(`${f.name}=${String(v)}`);
    }
  }
  return pairs.join(", ");
}
