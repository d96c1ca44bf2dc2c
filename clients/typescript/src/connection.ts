/**
 * What a seat needs of its connection ({@link Connection}) and the options of one call: the
 * layer below both `Client` (which is a `Connection`) and `Seat` (which holds one), so that
 * neither imports the other's module back.
 */
import type { CallOptions, Client as RpcClient } from "@connectrpc/connect";
import type { TableService } from "./gen/calabresella/v1/table_service_pb.js";
import { toCalabresellaError } from "./errors.js";
import type { LinkedSignal } from "./signals.js";

/** Options of a single call. */
export interface CallOpts {
  /** Cancels the call; it then rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Fails the call with DEADLINE_EXCEEDED after this many milliseconds. */
  timeoutMs?: number;
}

/**
 * Runs one call, turning its failure into a `CalabresellaError` (or the abort's reason); an
 * error that is not a call's failure (a program's error) passes unchanged. No retry.
 */
export async function callOnce<T>(
  run: (options: CallOptions) => Promise<T>,
  opts: CallOpts = {},
): Promise<T> {
  try {
    return await run({ signal: opts.signal, timeoutMs: opts.timeoutMs });
  } catch (err) {
    if (opts.signal?.aborted) throw opts.signal.reason;
    throw toCalabresellaError(err);
  }
}

/**
 * A connection to the server, as a seat uses it: `Client` is the one implementation. Its
 * calls end when the connection is closed.
 */
export interface Connection {
  /** The generated connect client. */
  readonly rpc: RpcClient<typeof TableService>;
  /**
   * A signal that aborts when `signal` does or when the connection is closed; call
   * `dispose()` once done with it.
   */
  link(signal?: AbortSignal): LinkedSignal;
  /** Runs one call once, under the connection's closing; failures as `CalabresellaError`. */
  call<T>(
    run: (options: CallOptions) => Promise<T>,
    opts?: CallOpts,
  ): Promise<T>;
}
