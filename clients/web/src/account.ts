/**
 * The registered player this tab is signed in as: the name and API key, kept in the tab's
 * `sessionStorage` under `calabresella.account` (gone when the tab closes). Like a seat
 * token, the key never goes into the address, a log or the page.
 */
import { useEffect, useState } from "preact/hooks";

/** A signed-in player. */
export interface Account {
  /** The registered name the server gave back. */
  name: string;
  /** The player's API key. */
  key: string;
}

/** The storage key of the account. */
export const ACCOUNT_KEY = "calabresella.account";

function storage(): Storage | undefined {
  try {
    return globalThis.sessionStorage;
  } catch {
    // Storage disabled: the sign-in holds for this page only.
    return undefined;
  }
}

let memory: Account | undefined;
const listeners = new Set<(a: Account | undefined) => void>();

/** Whether a parsed value is a well-formed account. */
export function isAccount(v: unknown): v is Account {
  if (typeof v !== "object" || v === null) return false;
  const o = v as Record<string, unknown>;
  return (
    typeof o.name === "string" &&
    o.name !== "" &&
    typeof o.key === "string" &&
    o.key !== ""
  );
}

/** The account this tab is signed in as, if any. */
export function loadAccount(
  store: Storage | undefined = storage(),
): Account | undefined {
  if (memory) return memory;
  const raw = store?.getItem(ACCOUNT_KEY);
  if (!raw) return undefined;
  try {
    const v: unknown = JSON.parse(raw);
    return isAccount(v) ? v : undefined;
  } catch {
    return undefined;
  }
}

/** Signs in (or out, with `undefined`) and tells every view. */
export function setAccount(
  a: Account | undefined,
  store: Storage | undefined = storage(),
): void {
  memory = a;
  if (a)
    store?.setItem(ACCOUNT_KEY, JSON.stringify({ name: a.name, key: a.key }));
  else store?.removeItem(ACCOUNT_KEY);
  for (const l of listeners) l(a);
}

/** The signed-in account, following sign-ins and sign-outs. */
export function useAccount(): Account | undefined {
  const [account, set] = useState(() => loadAccount());
  useEffect(() => {
    listeners.add(set);
    return () => {
      listeners.delete(set);
    };
  }, []);
  return account;
}
