/**
 * A tournament's standings as CSV, in the columns and order of `calabresella tournament
 * export`'s standings.csv, so that a file downloaded from the page and one exported from the
 * command line read the same.
 */
import type { Standing } from "@calabresella/client";

/** The columns, as `tournament export` writes them. */
const CSV_FIELDS = [
  "entrant",
  "bot",
  "matches",
  "hands",
  "points",
  "points_per_hand",
  "ci95",
  "wins",
  "rating",
  "timeouts",
  "illegal",
  "disconnects",
  "forfeits",
] as const;

/** A CSV field: quoted when it holds a comma, a quote or a line break. */
export function csvField(s: string): string {
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** The standings as CSV, as `tournament export` writes them. */
export function standingsCsv(standings: readonly Standing[]): string {
  const rows = standings.map((s) => {
    const v: Record<(typeof CSV_FIELDS)[number], string> = {
      entrant: csvField(s.entrant),
      bot: String(s.bot),
      matches: String(s.matches),
      hands: String(s.hands),
      points: String(s.points),
      points_per_hand: String(s.pointsPerHand),
      ci95: String(s.ci95),
      wins: String(s.wins),
      rating: String(s.rating),
      timeouts: String(s.timeouts),
      illegal: String(s.illegal),
      disconnects: String(s.disconnects),
      forfeits: String(s.forfeits),
    };
    return CSV_FIELDS.map((f) => v[f]).join(",");
  });
  return [CSV_FIELDS.join(","), ...rows].join("\n") + "\n";
}
