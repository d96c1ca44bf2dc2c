/**
 * The seats this browser tab holds, kept in `sessionStorage` (per tab, survives a reload)
 * under `calabresella.seat.<table_id>` as `{"seat": n, "token": "...", "name": "..."}`. The
 * token is the only proof of a seat: it never goes into the address, a log or the page.
 */

/** A seat held by this tab. */
export interface StoredSeat {
  /** The seat number. */
  seat: number;
  /** The secret seat token. */
  token: string;
  /** The name the seat was joined with. */
  name: string;
}

/** The storage key of a table's seat. */
export function seatKey(tableId: string): string {
  return `calabresella.seat.${tableId}`;
}

/** The storage in use: the tab's session storage, or none (blocked by the browser). */
function storage(): Storage | undefined {
  try {
    return globalThis.sessionStorage;
  } catch {
    // Storage can be disabled (privacy settings): the app still works, without resuming.
    return undefined;
  }
}

/** Whether a parsed value is a well-formed stored seat. */
export function isStoredSeat(v: unknown): v is StoredSeat {
  if (typeof v !== "object" || v === null) return false;
  const o = v as Record<string, unknown>;
  return (
    Number.isSafeInteger(o.seat) &&
    (o.seat as number) >= 0 &&
    typeof o.token === "string" &&
    o.token !== "" &&
    typeof o.name === "string"
  );
}

/** The seat this tab holds at a table, if any (a malformed entry counts as none). */
export function loadSeat(
  tableId: string,
  store: Storage | undefined = storage(),
): StoredSeat | undefined {
  const raw = store?.getItem(seatKey(tableId));
  if (!raw) return undefined;
  try {
    const v: unknown = JSON.parse(raw);
    return isStoredSeat(v) ? v : undefined;
  } catch {
    return undefined;
  }
}

/** Keeps the seat joined at a table. */
export function saveSeat(
  tableId: string,
  seat: StoredSeat,
  store: Storage | undefined = storage(),
): void {
  store?.setItem(
    seatKey(tableId),
    JSON.stringify({ seat: seat.seat, token: seat.token, name: seat.name }),
  );
}

/** Forgets the seat at a table (its token was refused). */
export function forgetSeat(
  tableId: string,
  store: Storage | undefined = storage(),
): void {
  store?.removeItem(seatKey(tableId));
}

/** The storage key of the creator key of a seeded table this tab created. */
function creatorKeyKey(tableId: string): string {
  return `calabresella.creator.${tableId}`;
}

/**
 * Keeps the creator key of a seeded table this tab created (its seats are the creator's own,
 * and the key takes them, behind a proxy too). Like a token, it never goes into the address,
 * a log or the page.
 */
export function saveCreatorKey(
  tableId: string,
  key: string,
  store: Storage | undefined = storage(),
): void {
  if (key !== "") store?.setItem(creatorKeyKey(tableId), key);
}

/** The creator key this tab keeps for a table ("" for none). */
export function loadCreatorKey(
  tableId: string,
  store: Storage | undefined = storage(),
): string {
  return store?.getItem(creatorKeyKey(tableId)) ?? "";
}
