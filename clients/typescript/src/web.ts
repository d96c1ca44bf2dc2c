/**
 * `@calabresella/client/web`: a {@link Client} over gRPC-web from a browser (fetch).
 */
import { createGrpcWebTransport } from "@connectrpc/connect-web";
import { Client } from "./client.js";

export * from "./index.js";

/** A client of the server at `baseUrl` (e.g. `https://cards.example.org`), over gRPC-web. */
export function connectWeb(baseUrl: string): Client {
  return new Client(createGrpcWebTransport({ baseUrl }));
}
