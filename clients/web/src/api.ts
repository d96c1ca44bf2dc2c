/**
 * The one client of the server this page talks to: gRPC-web to the origin that served the
 * page (the server answers the app and the calls on the same port), and the calls the
 * TypeScript client does not wrap yet (`GetReplay`, `AnalyseRecord`), made through its raw
 * `rpc`.
 */
import {
  type AnalyseRecordResponse,
  CalabresellaError,
  type Client,
  type GetReplayResponse,
} from "@calabresella/client";
import { connectWeb } from "@calabresella/client/web";

/** The options of one call of the generated stub. */
type CallOptions = Parameters<Parameters<Client["call"]>[0]>[0];

/**
 * The server's address, fixed at build time for development against a server on another
 * port (`node build.mjs --server=http://127.0.0.1:50051`); empty in a release build, where the
 * page's own origin is the server.
 */
declare const CALABRESELLA_SERVER: string;

let client: Client | undefined;

/** The client (made on first use). */
export function api(): Client {
  client ??= connectWeb(CALABRESELLA_SERVER || location.origin);
  return client;
}

/**
 * Call options that send `authorization: Bearer <key>` (a player's API key or the organiser's
 * admin key) on this one call only.
 */
export function withKey(o: CallOptions, key: string): CallOptions {
  return {
    ...o,
    headers: {
      ...(o.headers as Record<string, string> | undefined),
      authorization: `Bearer ${key.trim()}`,
    },
  };
}

/** One position of a table's record, every hand revealed (`GetReplay`). */
export function getReplay(
  tableId: string,
  step: number,
  signal?: AbortSignal,
): Promise<GetReplayResponse> {
  const c = api();
  return c.call((o) => c.rpc.getReplay({ tableId, step }, o), { signal });
}

/**
 * A finished match's analysis (`AnalyseRecord`) with the server's default budget, whose
 * figures are the same on any machine; the server keeps it, so a second look is instant.
 */
export function analyseRecord(
  tableId: string,
  signal?: AbortSignal,
): Promise<AnalyseRecordResponse> {
  const c = api();
  return c.call(
    (o) => c.rpc.analyseRecord({ tableId, budgetMs: 0, seed: 0n }, o),
    { signal },
  );
}

/** A failure as a short text for the page: the server's message, else the error's. */
export function errorText(e: unknown): string {
  if (e instanceof CalabresellaError) {
    return e.rawMessage || e.reason || e.codeName;
  }
  return e instanceof Error ? e.message : String(e);
}

/** Whether a failure is the server's refusal with this code (and reason, when given). */
export function isRefusal(e: unknown, code: string, reason?: string): boolean {
  return (
    e instanceof CalabresellaError &&
    e.codeName === code &&
    (reason === undefined || e.reason === reason)
  );
}
