/**
 * Clocks: the time left to answer a decision, counted down in the browser from the server's
 * `remaining_ms` (measured from when the update arrived, so the two machines' clocks need not
 * agree), and durations written as `m:ss`.
 */
import { useEffect, useState } from "preact/hooks";
import type { TurnInfo } from "./state.js";

/** A duration as `m:ss` (or `h:mm:ss` from an hour), rounded up to the second. */
export function formatMs(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const ss = String(s).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${ss}` : `${m}:${ss}`;
}

/** Milliseconds left on a turn's clock at `now` (undefined when the turn has no clock). */
export function timeLeft(
  turn: TurnInfo | undefined,
  now: number,
): number | undefined {
  if (!turn || turn.remainingMs <= 0) return undefined;
  return Math.max(0, turn.remainingMs - (now - turn.receivedAt));
}

/** The current time, updated every `everyMs` while `active` (else not at all). */
export function useNow(active: boolean, everyMs = 250): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    setNow(Date.now());
    const id = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(id);
  }, [active, everyMs]);
  return now;
}
