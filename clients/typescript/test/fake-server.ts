/**
 * An in-process gRPC server (connect-node's adapter on an HTTP/2 server) with a scriptable
 * `TableService`, so the client's real transport, trailers and retries are tested without
 * the game server.
 */
import http2 from "node:http2";
import type { AddressInfo } from "node:net";
import { Code, ConnectError, type ServiceImpl } from "@connectrpc/connect";
import { connectNodeAdapter } from "@connectrpc/connect-node";
import { ErrorInfoSchema } from "../src/gen/google/rpc/error_details_pb.js";
import { TableService } from "../src/gen/calabresella/v1/table_service_pb.js";
import { connectNode, type Client } from "../src/node.js";

/** A server error as the game server makes it: a code and an ErrorInfo reason. */
export function serverError(
  code: Code,
  reason: string,
  message = reason.toLowerCase(),
) {
  return new ConnectError(message, code, undefined, [
    { desc: ErrorInfoSchema, value: { reason, domain: "calabresella.v1" } },
  ]);
}

/** A running fake server and a client connected to it. */
export interface Fake {
  client: Client;
  address: string;
  close(): Promise<void>;
}

/** Serves `impl` on a free port of 127.0.0.1 and connects a client to it. */
export async function startFake(
  impl: Partial<ServiceImpl<typeof TableService>>,
): Promise<Fake> {
  const server = http2.createServer(
    connectNodeAdapter({
      grpc: true,
      grpcWeb: false,
      connect: false,
      routes: (router) => router.service(TableService, impl),
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  const client = connectNode(address);
  return {
    client,
    address,
    close: async () => {
      client.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Resolves when `cond` holds, polling. */
export async function until(cond: () => boolean): Promise<void> {
  while (!cond()) await new Promise((r) => setTimeout(r, 2));
}
