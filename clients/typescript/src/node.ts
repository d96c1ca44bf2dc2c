/**
 * `@calabresella/client/node`: a {@link Client} over HTTP/2 gRPC from Node.
 */
import {
  createGrpcTransport,
  Http2SessionManager,
} from "@connectrpc/connect-node";
import { Client } from "./client.js";

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
}

/**
 * A client of the server at `address` (`host:port`, or an `http://` or `https://` URL), over
 * gRPC on HTTP/2. Connections are made on first use and remade after a failure; `close()`
 * closes the client for good and drops them.
 */
export function connectNode(
  address: string,
  options: NodeConnectOptions = {},
): Client {
  const baseUrl = /^https?:\/\//.test(address) ? address : `http://${address}`;
  const sessionManager = new Http2SessionManager(baseUrl, {
    pingIntervalMs: options.pingIntervalMs ?? 10_000,
    pingTimeoutMs: options.pingTimeoutMs ?? 5_000,
  });
  const transport = createGrpcTransport({ baseUrl, sessionManager });
  return new Client(transport, () => sessionManager.abort());
}
