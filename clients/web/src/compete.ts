/**
 * Playing the signed-in player's tournament matches in this tab: one `Compete` call, opened
 * on request, that receives each table the scheduler makes for the player (its seat token is
 * kept like a joined seat) and opens it when the tab is not already at a table. The call is
 * reopened after a drop (the server then hands back unfinished tables with fresh tokens) until
 * the person stops it or signs out. Only one per tab.
 */
import { useEffect, useState } from "preact/hooks";
import type { Account } from "./account.js";
import { api, errorText, isRefusal, withKey } from "./api.js";
import { navigate, parseRoute } from "./routes.js";
import { saveSeat } from "./session.js";

/** Where the tab's `Compete` call is. */
export type CompeteStatus =
  { state: "off" } | { state: "on"; tables: string[]; error: string };

let status: CompeteStatus = { state: "off" };
let stop: AbortController | undefined;
const listeners = new Set<(s: CompeteStatus) => void>();

function set(s: CompeteStatus): void {
  status = s;
  for (const l of listeners) l(s);
}

/** Seconds between reconnections after a drop. */
const RETRY_MS = 3000;

/** Starts playing `account`'s tournament matches in this tab (nothing if already on). */
export function startCompeting(account: Account): void {
  if (stop) return;
  const abort = new AbortController();
  stop = abort;
  set({ state: "on", tables: [], error: "" });
  void run(account, abort);
}

/** Stops the tab's `Compete` call (the tables it opened stay playable). */
export function stopCompeting(): void {
  stop?.abort();
  stop = undefined;
  set({ state: "off" });
}

async function run(account: Account, abort: AbortController): Promise<void> {
  const c = api();
  while (!abort.signal.aborted) {
    try {
      const stream = c.rpc.compete(
        { maxTables: 1, entropy: crypto.getRandomValues(new Uint8Array(32)) },
        withKey({ signal: abort.signal }, account.key),
      );
      for await (const r of stream) {
        const a = r.assignment;
        if (!a) continue;
        saveSeat(a.tableId, {
          seat: a.seat,
          token: a.seatToken,
          name: account.name,
        });
        if (status.state === "on") {
          const tables = status.tables.includes(a.tableId)
            ? status.tables
            : [...status.tables, a.tableId];
          set({ state: "on", tables, error: "" });
        }
        // Open the table unless the person is at one already.
        if (parseRoute(location.hash).page !== "table") {
          navigate({ page: "table", tableId: a.tableId });
        }
      }
    } catch (e) {
      if (abort.signal.aborted) return;
      if (
        isRefusal(e, "UNAUTHENTICATED") ||
        isRefusal(e, "RESOURCE_EXHAUSTED")
      ) {
        // A key the server no longer takes, or too many calls of this player: retrying
        // would not help.
        if (status.state === "on") set({ ...status, error: errorText(e) });
        stop = undefined;
        return;
      }
      if (status.state === "on") set({ ...status, error: errorText(e) });
    }
    await new Promise((res) => setTimeout(res, RETRY_MS));
  }
}

/** The tab's `Compete` status, following changes. */
export function useCompete(): CompeteStatus {
  const [s, setS] = useState(status);
  useEffect(() => {
    listeners.add(setS);
    setS(status);
    return () => {
      listeners.delete(setS);
    };
  }, []);
  return s;
}
