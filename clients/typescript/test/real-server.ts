/**
 * The real game server, for the tests that hold the client to it rather than to a fake:
 * `$CALABRESELLA_BIN`, else the repository's `target/debug/calabresella`, serving on a free
 * port of 127.0.0.1 with a store in memory. Without a binary the tests that need it are
 * skipped, saying so (the test command builds it before it runs them: scripts/test.sh).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { connectNode, type Client } from "../src/node.js";

/** The binary: compiled, this file is `clients/typescript/dist/test/`, four below the root. */
const BIN =
  process.env.CALABRESELLA_BIN ||
  fileURLToPath(
    new URL("../../../../target/debug/calabresella", import.meta.url),
  );

/** Why the real server cannot run here, or "" when it can. */
export const NO_SERVER = existsSync(BIN)
  ? ""
  : `no server binary at ${BIN} (set CALABRESELLA_BIN)`;

/** A running server and a client connected to it. */
export interface RealServer {
  client: Client;
  address: string;
  close(): Promise<void>;
}

/** Starts the server and connects a client; resolves once the server listens. */
export async function startServer(): Promise<RealServer> {
  const child = spawn(
    BIN,
    ["serve", "--listen", "127.0.0.1:0", "--db", ":memory:", "--log", "error"],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  let log = "";
  child.stderr!.on("data", (b: Buffer) => (log += b.toString()));
  const address = await listening(child, () => log);
  const client = connectNode(address);
  return {
    client,
    address,
    close: async () => {
      client.close();
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once("exit", r));
        child.kill("SIGKILL");
        await exited;
      }
    },
  };
}

/** The address the server prints once it accepts connections (`calabresella: listening on`). */
function listening(child: ChildProcess, log: () => string): Promise<string> {
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.on("line", (line) => {
      const m = /^calabresella: listening on (\S+)/.exec(line);
      if (m) resolve(m[1]!);
    });
    child.once("exit", (code) =>
      reject(
        new Error(`the server exited (${code}) before listening: ${log()}`),
      ),
    );
    child.once("error", reject);
  });
}
