/**
 * The client's typed errors: {@link CalabresellaError} for every failed call (the gRPC code,
 * the `google.rpc.ErrorInfo` reason and the message), and the errors the client raises itself
 * (a broken stream order, an outage longer than the retry window, options that cannot be sent,
 * a closed client).
 */
import { Code, ConnectError } from "@connectrpc/connect";
import { ErrorInfoSchema } from "./gen/google/rpc/error_details_pb.js";

export { Code };

/** The canonical upper-case gRPC code names, as servers and other clients spell them. */
export type CodeName =
  | "OK"
  | "CANCELLED"
  | "UNKNOWN"
  | "INVALID_ARGUMENT"
  | "DEADLINE_EXCEEDED"
  | "NOT_FOUND"
  | "ALREADY_EXISTS"
  | "PERMISSION_DENIED"
  | "RESOURCE_EXHAUSTED"
  | "FAILED_PRECONDITION"
  | "ABORTED"
  | "OUT_OF_RANGE"
  | "UNIMPLEMENTED"
  | "INTERNAL"
  | "UNAVAILABLE"
  | "DATA_LOSS"
  | "UNAUTHENTICATED";

// Indexed by the numeric code (connect's `Code` uses the gRPC numbers).
const CODE_NAMES: readonly CodeName[] = [
  "OK",
  "CANCELLED",
  "UNKNOWN",
  "INVALID_ARGUMENT",
  "DEADLINE_EXCEEDED",
  "NOT_FOUND",
  "ALREADY_EXISTS",
  "PERMISSION_DENIED",
  "RESOURCE_EXHAUSTED",
  "FAILED_PRECONDITION",
  "ABORTED",
  "OUT_OF_RANGE",
  "UNIMPLEMENTED",
  "INTERNAL",
  "UNAVAILABLE",
  "DATA_LOSS",
  "UNAUTHENTICATED",
];

/** The canonical name of a gRPC code (`Code.PermissionDenied` is `"PERMISSION_DENIED"`). */
export function codeName(code: Code): CodeName {
  return CODE_NAMES[code] ?? "UNKNOWN";
}

/**
 * A call that failed: refused by the server (then `reason` is the `ErrorInfo` reason the
 * server always sends, such as `BAD_TOKEN`), or lost on the transport (then `reason` is empty).
 */
export class CalabresellaError extends Error {
  /** The gRPC status code. */
  readonly code: Code;
  /** The `google.rpc.ErrorInfo` reason (upper case, e.g. `STALE_DECISION`); "" without one. */
  readonly reason: string;
  /** The `ErrorInfo` domain (`calabresella.v1` for the server's own errors); "" without one. */
  readonly domain: string;
  /** The `ErrorInfo` metadata. */
  readonly metadata: Readonly<Record<string, string>>;
  /** The server's message, without the code prefix. */
  readonly rawMessage: string;

  constructor(
    code: Code,
    rawMessage: string,
    info: {
      reason?: string;
      domain?: string;
      metadata?: Record<string, string>;
    } = {},
    options?: { cause?: unknown },
  ) {
    const reason = info.reason ?? "";
    super(
      `${codeName(code)}${reason ? ` (${reason})` : ""}: ${rawMessage}`,
      options,
    );
    this.name = "CalabresellaError";
    this.code = code;
    this.reason = reason;
    this.domain = info.domain ?? "";
    this.metadata = info.metadata ?? {};
    this.rawMessage = rawMessage;
  }

  /** The canonical upper-case name of `code`, e.g. `PERMISSION_DENIED`. */
  get codeName(): CodeName {
    return codeName(this.code);
  }

  /** Whether the server answered this (an `ErrorInfo` came with it), not the transport. */
  get fromServer(): boolean {
    return this.reason !== "";
  }

  /** This error for `code` and `reason`. */
  is(code: Code | CodeName, reason?: string): boolean {
    const sameCode =
      typeof code === "string" ? this.codeName === code : this.code === code;
    return sameCode && (reason === undefined || this.reason === reason);
  }
}

/**
 * Whether `err` is a call's failure: a `ConnectError` (a refusal of the server, or the
 * transport's failure: connect turns everything that goes wrong on the wire into one), or the
 * {@link CalabresellaError} made of it. Anything else (a `TypeError`, an {@link OptionsError},
 * a bot's own exception) is the program's error, never the connection's.
 */
export function callFailure(
  err: unknown,
): err is ConnectError | CalabresellaError {
  return err instanceof CalabresellaError || err instanceof ConnectError;
}

/**
 * A call's failure as a {@link CalabresellaError}, the `ErrorInfo` detail decoded from the
 * `grpc-status-details-bin` trailer. Anything that is not a call's failure (see
 * {@link callFailure}: a program's error, the client's own errors) is returned unchanged, so
 * that it is never taken for a lost connection and retried.
 */
export function toCalabresellaError(
  err: ConnectError | CalabresellaError,
): CalabresellaError;
export function toCalabresellaError(err: unknown): unknown;
export function toCalabresellaError(err: unknown): unknown {
  if (err instanceof CalabresellaError || !(err instanceof ConnectError)) {
    return err;
  }
  const info = err.findDetails(ErrorInfoSchema)[0];
  return new CalabresellaError(
    err.code,
    err.rawMessage,
    info
      ? { reason: info.reason, domain: info.domain, metadata: info.metadata }
      : {},
    { cause: err },
  );
}

/** The stream broke its ordering promise: an update skipped or repeated a sequence number. */
export class StreamOrderError extends Error {
  /** The last sequence number accepted. */
  readonly last: bigint;
  /** The number received instead of `last + 1`. */
  readonly got: bigint;

  constructor(what: string, last: bigint, got: bigint) {
    super(`${what}: stream order broken: got seq ${got} after ${last}`);
    this.name = "StreamOrderError";
    this.last = last;
    this.got = got;
  }
}

/** The server stayed unreachable longer than the retry window allows; `cause` is the last failure. */
export class ConnectionLostError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "ConnectionLostError";
  }
}

/**
 * The client was closed (`Client.close()`): every later call, stream and play of it fails
 * with this at once, and those running when it closed end with it (never reconnecting).
 */
export class ClientClosedError extends Error {
  constructor() {
    super("the client is closed");
    this.name = "ClientClosedError";
  }
}

/**
 * What cannot be sent, refused before any call: an unknown game or seat kind, rule options not
 * in the `key=value` notation (the server judges the keys and values), entropy of the wrong size.
 */
export class OptionsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "OptionsError";
  }
}

/** Why a failed call may succeed if simply sent again (see {@link retryable}, {@link transient}). */
function lostOnTransport(e: CalabresellaError): boolean {
  // The server sends an ErrorInfo with every error it makes; one without came from the
  // transport (a connection refused or broken under the call, a call timed out here).
  return (
    !e.fromServer &&
    (e.code === Code.Canceled ||
      e.code === Code.Unknown ||
      e.code === Code.Internal ||
      e.code === Code.DeadlineExceeded)
  );
}

/**
 * Whether a failed unary call may succeed when sent again unchanged: the server is unreachable
 * or restarting (UNAVAILABLE, including its store refusing writes without changing anything),
 * the connection broke under the call, or the caller went over its rate (RESOURCE_EXHAUSTED
 * with reason RATE_LIMITED). The server's own refusals are final.
 */
export function retryable(e: CalabresellaError): boolean {
  return (
    e.code === Code.Unavailable ||
    lostOnTransport(e) ||
    (e.code === Code.ResourceExhausted && e.reason === "RATE_LIMITED")
  );
}

/**
 * Whether a stream failure passes when the stream is opened again (with `resume_after`): the
 * server is unreachable or restarting, it cut a slow consumer or has too many streams
 * (RESOURCE_EXHAUSTED), or the connection broke.
 */
export function transient(e: CalabresellaError): boolean {
  // The server never sends CANCELLED, UNKNOWN or INTERNAL itself: those mean a broken stream.
  return (
    e.code === Code.Unavailable ||
    e.code === Code.ResourceExhausted ||
    e.code === Code.Canceled ||
    e.code === Code.Unknown ||
    e.code === Code.Internal ||
    lostOnTransport(e)
  );
}

/**
 * Whether the server refused an answer itself (malformed, or illegal now), so another answer
 * may do. Other failed preconditions (the match is over, the turn passed) are settled by what
 * the stream says next.
 */
export function refusal(e: CalabresellaError): boolean {
  return (
    e.code === Code.InvalidArgument ||
    (e.code === Code.FailedPrecondition && e.reason === "ILLEGAL_ACTION")
  );
}
