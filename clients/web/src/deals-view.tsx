/**
 * How a table's deals are made, on the page: the commitment a committed table published (the
 * lobby and the table view), the mark of a table its creator seeded, and, in the replay, the
 * deals checked in the browser from the record (src/fair.ts).
 */
import type { Table } from "@calabresella/client";
import type { VNode } from "preact";
import { useEffect, useMemo, useState } from "preact/hooks";
import { api, errorText } from "./api.js";
import { SCHEME, checkDeals, type DealsCheck, type Problem } from "./fair.js";
import type { Translate } from "./i18n/index.js";
import { useT } from "./i18n-context.js";

/** The first digits of a commitment, enough to compare by eye; the whole one is the title. */
export function shortCommitment(c: string): string {
  return c.length > 12 ? `${c.slice(0, 12)}…` : c;
}

/**
 * A table's deal mark: its commitment, or that it is seeded (nothing from an older server);
 * `long` words the seeded mark in full (the table view), else it says "seeded" (the lobby).
 */
export function DealMark(props: {
  table: Table | undefined;
  long?: boolean;
}): VNode | null {
  const t = useT();
  const table = props.table;
  if (!table) return null;
  if (table.seeded) {
    return (
      <span class="deal-mark seeded" data-seeded title={t("deals.seededLong")}>
        {props.long ? t("deals.seededLong") : t("deals.seeded")}
      </span>
    );
  }
  if (!table.commitment) return null;
  return (
    <span
      class="deal-mark"
      data-commitment={table.commitment}
      title={t("deals.commitmentTitle", { commitment: table.commitment })}
    >
      {t("deals.commitment", {
        commitment: shortCommitment(table.commitment),
      })}
    </span>
  );
}

/** A problem in the page's language; seats and hands counted from 1, as the page shows them. */
export function problemLabel(
  t: Translate,
  p: Problem,
  seatName: (seat: number) => string,
): string {
  switch (p.kind) {
    case "field":
      return t("deals.problem.field", { field: p.field });
    case "scheme":
      return t("deals.problem.scheme", { scheme: p.scheme });
    case "commitment":
      return t("deals.problem.commitment", { commitment: p.commitment });
    case "firstDealer":
      return t("deals.problem.firstDealer", {
        recorded: seatName(p.recorded),
        derived: seatName(p.derived),
      });
    case "deal":
      return p.part === "seat"
        ? t("deals.problem.seat", {
            hand: p.hand + 1,
            seat: seatName(p.seat ?? 0),
          })
        : t(
            p.part === "monte" ? "deals.problem.monte" : "deals.problem.stock",
            {
              hand: p.hand + 1,
            },
          );
  }
}

/** What the replay shows while the record is fetched, and if it cannot be. */
type Loaded =
  | { state: "loading" }
  | { state: "error"; message: string }
  | { state: "done"; check: DealsCheck };

/**
 * The replay's check of the deals: the record fetched (`GetRecord`) and checked here, again
 * when the match ends while the page is open (`matchOver`).
 */
export function DealsCheckView(props: {
  tableId: string;
  matchOver: boolean;
  seatName: (seat: number) => string;
}): VNode {
  const t = useT();
  const [loaded, setLoaded] = useState<Loaded>({ state: "loading" });
  useEffect(() => {
    const stop = new AbortController();
    api()
      .getRecord(props.tableId, { signal: stop.signal })
      .then((r) => {
        let record: unknown;
        try {
          record = JSON.parse(r.recordJson);
        } catch {
          record = undefined;
        }
        setLoaded({ state: "done", check: checkDeals(record) });
      })
      .catch((e: unknown) => {
        if (!stop.signal.aborted) {
          setLoaded({ state: "error", message: errorText(e) });
        }
      });
    return () => stop.abort();
  }, [props.tableId, props.matchOver]);

  const text = useMemo(() => {
    if (loaded.state === "loading") return t("deals.checking");
    if (loaded.state === "error") {
      return t("deals.unavailable", { message: loaded.message });
    }
    const c = loaded.check;
    switch (c.status) {
      case "verified":
        return t("deals.verified");
      case "seeded":
        return t("deals.seededLong");
      case "pending":
        return t("deals.pending");
      case "failed":
        return t("deals.failed", {
          problem: problemLabel(t, c.problem, props.seatName),
        });
    }
  }, [loaded, t, props.seatName]);

  const c = loaded.state === "done" ? loaded.check : undefined;
  const status =
    loaded.state === "loading"
      ? "checking"
      : loaded.state === "error"
        ? "unavailable"
        : c!.status;
  const problem = c?.status === "failed" ? c.problem : undefined;
  const where =
    problem?.kind === "deal"
      ? {
          "data-deals-hand": String(problem.hand),
          "data-deals-part": problem.part,
          "data-deals-seat":
            problem.seat === undefined ? undefined : String(problem.seat),
        }
      : problem
        ? { "data-deals-part": problem.kind }
        : {};
  return (
    <div
      class={`deals-check deals-${status}`}
      data-deals={status}
      role="status"
      {...where}
    >
      <strong>{text}</strong>
      {c?.status === "verified" ? (
        <span class="sub">
          {t("deals.verifiedDetail", {
            n: c.hands,
            scheme: SCHEME,
            commitment: c.commitment,
          })}
        </span>
      ) : null}
      {c?.status === "seeded" && c.seed !== undefined ? (
        <span class="sub">{t("deals.seed", { seed: c.seed, n: c.hands })}</span>
      ) : null}
    </div>
  );
}
