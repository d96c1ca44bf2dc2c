/**
 * `@calabresella/client/node`: a {@link Client} over HTTP/2 gRPC from Node.
 */
import { X509Certificate } from "node:crypto";
import { readFileSync } from "node:fs";
import { Code, ConnectError, type Interceptor } from "@connectrpc/connect";
import {
  createGrpcTransport,
  Http2SessionManager,
} from "@connectrpc/connect-node";
import { Client, bearer } from "./client.js";

export * from "./index.js";

/** Options of {@link connectNode}. */
export interface NodeConnectOptions {
  /**
   * How often to ping a connection that has calls in flight, in milliseconds, so a server
   * host that vanished is noticed and streams resume (default 10 s).
   */
  pingIntervalMs?: number;
  /** How long a ping may go unanswered before the connection counts as broken (default 5 s). */
  pingTimeoutMs?: number;
  /**
   * The path of a PEM file of the CA certificate(s) that signed the server's certificate, for
   * an `https://` address: they are trusted instead of Node's root certificates. The server's
   * host name or IP address is still checked against its certificate. The file is read by
   * {@link connectNode}, which throws when it cannot be read or holds no certificate, or when
   * the address is not `https://`.
   */
  caCert?: string;
  /**
   * A registered player's API key (`calabresella players add`), or the server's admin key for
   * organiser calls: every call then carries `authorization: Bearer <key>`, so `join` seats the
   * player under its registered name and {@link Client.compete} and {@link Client.seek} work.
   * Send keys over TLS (`https://`).
   */
  apiKey?: string;
}

/**
 * A client of the server at `address`, over gRPC on HTTP/2: `https://host:port` connects over
 * TLS, checking the server's certificate against Node's root certificates (or the CA of
 * `options.caCert`) and its host name or IP address; `host:port` or `http://host:port` connects
 * in plain text. Connections are made on first use and remade after a failure; a server whose
 * certificate does not check out fails the calls with UNAVAILABLE, as one that cannot be
 * reached. `close()` closes the client for good and drops them.
 */
export function connectNode(
  address: string,
  options: NodeConnectOptions = {},
): Client {
  const tls = address.startsWith("https://");
  const baseUrl = /^https?:\/\//.test(address) ? address : `http://${address}`;
  if (options.caCert !== undefined && !tls) {
    throw new Error(
      `ca cert given but the address is not https://: ${address}`,
    );
  }
  const sessionManager = new Http2SessionManager(
    baseUrl,
    {
      pingIntervalMs: options.pingIntervalMs ?? 10_000,
      pingTimeoutMs: options.pingTimeoutMs ?? 5_000,
    },
    options.caCert === undefined
      ? undefined
      : { ca: readCaCert(options.caCert) },
  );
  const transport = createGrpcTransport({
    baseUrl,
    sessionManager,
    interceptors: [
      ...(tls ? [tlsFailureUnavailable] : []),
      ...(options.apiKey === undefined ? [] : [bearer(options.apiKey)]),
    ],
  });
  return new Client(transport, () => sessionManager.abort());
}

/** The CA file's PEM text, checked to hold a certificate. */
function readCaCert(path: string): string {
  let pem: string;
  try {
    pem = readFileSync(path, "utf8");
  } catch (e) {
    throw new Error(
      `cannot read the CA certificate ${path}: ${(e as Error).message}`,
      { cause: e },
    );
  }
  try {
    if (!pem.includes("-----BEGIN CERTIFICATE-----")) throw new Error("none");
    new X509Certificate(pem); // the first one must parse
  } catch (e) {
    throw new Error(`no PEM certificate in the CA certificate file ${path}`, {
      cause: e,
    });
  }
  return pem;
}

/**
 * Node's errors of a TLS handshake that failed: the certificate checks (OpenSSL's verify codes,
 * the host name), and the protocol's own failures.
 */
const TLS_FAILURE =
  /^(ERR_TLS_|ERR_SSL_|EPROTO$|HOSTNAME_MISMATCH$|INVALID_CA$|INVALID_PURPOSE$|PATH_LENGTH_EXCEEDED$|CERT_|UNABLE_TO_|DEPTH_ZERO_SELF_SIGNED_CERT$|SELF_SIGNED_CERT_IN_CHAIN$)/;

/** Whether a TLS handshake's failure is in `err`'s chain of causes. */
function tlsFailed(err: unknown): boolean {
  for (let e = err, depth = 0; e instanceof Error && depth < 10; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && TLS_FAILURE.test(code)) return true;
    e = e.cause;
  }
  return false;
}

/**
 * connect reports a failed TLS handshake as INTERNAL; to the program it is a server that
 * cannot be reached (UNAVAILABLE, with the handshake's error as the cause), as in the other
 * clients.
 */
const tlsFailureUnavailable: Interceptor = (next) => async (req) => {
  try {
    return await next(req);
  } catch (e) {
    if (
      e instanceof ConnectError &&
      e.code !== Code.Unavailable &&
      tlsFailed(e)
    ) {
      throw new ConnectError(
        `TLS: ${e.rawMessage}`,
        Code.Unavailable,
        e.metadata,
        undefined,
        e.cause ?? e,
      );
    }
    throw e;
  }
};
