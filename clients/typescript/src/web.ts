/**
 * `@calabresella/client/web`: a {@link Client} over gRPC-web from a browser (fetch).
 */
import { createGrpcWebTransport } from "@connectrpc/connect-web";
import { Client, bearer } from "./client.js";

export * from "./index.js";

/**
 * A client of the server at `baseUrl` (e.g. `https://cards.example.org`), over gRPC-web;
 * `options.apiKey` sends a registered player's API key on every call (see `connectNode`).
 */
export function connectWeb(
  baseUrl: string,
  options: { apiKey?: string } = {},
): Client {
  return new Client(
    createGrpcWebTransport({
      baseUrl,
      interceptors:
        options.apiKey === undefined ? [] : [bearer(options.apiKey)],
    }),
  );
}
