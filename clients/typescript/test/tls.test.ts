import { test } from "node:test";
import assert from "node:assert/strict";
import http2 from "node:http2";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connectNodeAdapter } from "@connectrpc/connect-node";
import { TableService } from "../src/gen/calabresella/v1/table_service_pb.js";
import {
  CalabresellaError,
  Code,
  connectNode,
  type NodeConnectOptions,
} from "../src/node.js";
import { newTestCA, type Issued } from "./certs.js";

/** A scratch directory for the PEM files of one test. */
function scratch(t: { after(fn: () => void): void }): string {
  const dir = mkdtempSync(join(tmpdir(), "calabresella-tls-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Writes `text` to `name` in `dir` and returns its path. */
function file(dir: string, name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

/** Serves GetTable over TLS (HTTP/2) with `cert` on a free port of 127.0.0.1; its port. */
async function serveTLS(
  t: { after(fn: () => Promise<void>): void },
  cert: Issued,
): Promise<number> {
  const server = http2.createSecureServer(
    { cert: cert.cert, key: cert.key, allowHTTP1: false },
    connectNodeAdapter({
      grpc: true,
      grpcWeb: false,
      connect: false,
      routes: (router) =>
        router.service(TableService, {
          getTable: (req) => ({ table: { tableId: req.tableId } }),
        }),
    }),
  );
  // A refused handshake makes the server emit tlsClientError: nothing to do with it here.
  server.on("tlsClientError", () => {});
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  t.after(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return (server.address() as AddressInfo).port;
}

/** GetTable("t1") on a new client of `address`: the table id, or the error. */
async function getTable(
  address: string,
  options?: NodeConnectOptions,
): Promise<string | unknown> {
  const client = connectNode(address, options);
  try {
    return (await client.getTable("t1")).tableId;
  } catch (e) {
    return e;
  } finally {
    client.close();
  }
}

test("TLS with the right CA reaches the server by IP address and by name", async (t) => {
  const ca = await newTestCA();
  const port = await serveTLS(t, await ca.issue(["localhost", "127.0.0.1"]));
  const caCert = file(scratch(t), "ca.pem", ca.cert);
  for (const host of ["127.0.0.1", "localhost"]) {
    assert.equal(
      await getTable(`https://${host}:${port}`, { caCert }),
      "t1",
      host,
    );
  }
});

test("a server signed by another CA is UNAVAILABLE, at once", async (t) => {
  const ca = await newTestCA();
  const port = await serveTLS(t, await ca.issue(["localhost", "127.0.0.1"]));
  const other = file(
    scratch(t),
    "other.pem",
    (await newTestCA("another CA")).cert,
  );
  const started = Date.now();
  const e = await getTable(`https://127.0.0.1:${port}`, { caCert: other });
  assert.ok(e instanceof CalabresellaError, String(e));
  assert.equal(e.code, Code.Unavailable, e.message);
  assert.ok(Date.now() - started < 5_000, "failed at once");
  // Without a CA file: Node's root certificates, which do not know the test CA either.
  const roots = await getTable(`https://127.0.0.1:${port}`);
  assert.ok(roots instanceof CalabresellaError, String(roots));
  assert.equal(roots.code, Code.Unavailable, roots.message);
});

test("a certificate for another host name is refused", async (t) => {
  const ca = await newTestCA();
  const port = await serveTLS(t, await ca.issue(["cards.example.org"]));
  const caCert = file(scratch(t), "ca.pem", ca.cert);
  const e = await getTable(`https://127.0.0.1:${port}`, { caCert });
  assert.ok(e instanceof CalabresellaError, String(e));
  assert.equal(e.code, Code.Unavailable, e.message);
});

test("the CA option's mistakes are caught when the client is made", async (t) => {
  const dir = scratch(t);
  const caCert = file(dir, "ca.pem", (await newTestCA()).cert);
  for (const address of ["127.0.0.1:50051", "http://127.0.0.1:50051"]) {
    assert.throws(
      () => connectNode(address, { caCert }),
      /ca cert given but the address is not https:\/\//,
    );
  }
  const missing = join(dir, "nowhere", "ca.pem");
  assert.throws(
    () => connectNode("https://127.0.0.1:50051", { caCert: missing }),
    (e: Error) => e.message.includes(missing),
  );
  const notPem = file(dir, "not.pem", "not a certificate\n");
  assert.throws(
    () => connectNode("https://127.0.0.1:50051", { caCert: notPem }),
    (e: Error) => e.message.includes(notPem),
  );
  connectNode("https://127.0.0.1:50051", { caCert }).close();
  connectNode("https://127.0.0.1:50051").close();
});
