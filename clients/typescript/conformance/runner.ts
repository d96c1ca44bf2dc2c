/**
 * The conformance runner (tests/conformance/README.md): runs every scenario of the scenarios
 * file against a real server through this package's public API, as a user would, and prints
 * `PASS <name>` / `FAIL <name>: <why>` / `BENCH ...` lines and a summary.
 *
 *   node dist/conformance/runner.js --scenarios PATH --server HOST:PORT|https://HOST:PORT
 *     [--ca-cert PATH] [--bench] [--only NAME]...
 */
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import {
  connectNode,
  dueTurn,
  CalabresellaError,
  DEAL_SCHEME,
  EndReason,
  SeatKind,
  sameAction,
  type Client,
  type MatchEnded,
  type Seat,
  type Table,
  type Turn,
  type Update,
} from "../src/node.js";

const CLIENT = "typescript";
const PLAYER = `conformance-${CLIENT}`;
const TIME_LIMIT_MS = 120_000;

/** One scenario, as the file holds it. */
interface Scenario {
  name: string;
  kind: string;
  game?: string;
  options?: Record<string, string>;
  seats?: string[];
  seat?: number;
  seed?: number;
  expect?: { code: string; reason: string };
  drop_after_updates?: number;
  try?: string[];
  token?: string;
  table_id?: string;
  restart_at_decision?: number;
  matches?: number;
  bot_delay_ms?: number;
}

/** A scenario's failure, with the reason printed on its FAIL line. */
class Fail extends Error {}

function check(ok: boolean, why: string): asserts ok {
  if (!ok) throw new Fail(why);
}

/** What one run needs: the client, the abort signal of the time limit. */
interface Ctx {
  client: Client;
  signal: AbortSignal;
}

/** The bot of every scenario: the first legal action. */
const firstLegal = (turn: Turn) => turn.legalActions[0]!;

/** Creates the scenario's table. */
async function createTable(s: Scenario, ctx: Ctx, seed = s.seed) {
  return ctx.client.createTable(
    {
      botDelayMs: s.bot_delay_ms ?? 0,
      game: s.game!,
      options: s.options ?? {},
      seats: s.seats ?? [],
      seed: seed === undefined ? undefined : BigInt(seed),
      name: `conformance ${s.name}`,
    },
    { signal: ctx.signal },
  );
}

/** Creates the table and joins the scenario's seat. */
async function createAndJoin(
  s: Scenario,
  ctx: Ctx,
  seed = s.seed,
): Promise<Seat> {
  const table = await createTable(s, ctx, seed);
  return ctx.client.join(
    table.tableId,
    { playerName: PLAYER, seat: s.seat },
    { signal: ctx.signal },
  );
}

/** Runs `$CALABRESELLA_BIN replay -` on a record. */
function replay(recordJson: string, signal: AbortSignal): Promise<any> {
  const bin = process.env.CALABRESELLA_BIN;
  if (!bin) throw new Fail("CALABRESELLA_BIN is not set");
  return new Promise((resolve, reject) => {
    const child = execFile(
      bin,
      ["replay", "-"],
      { signal, maxBuffer: 64 << 20 },
      (err, stdout, stderr) => {
        if (err) reject(new Fail(`replay failed: ${err.message} ${stderr}`));
        else resolve(JSON.parse(stdout));
      },
    );
    child.stdin!.end(recordJson);
  });
}

/** Runs `$CALABRESELLA_BIN verify -` on a record; resolves with its output line. */
function verify(recordJson: string, signal: AbortSignal): Promise<string> {
  const bin = process.env.CALABRESELLA_BIN;
  if (!bin) throw new Fail("CALABRESELLA_BIN is not set");
  return new Promise((resolve, reject) => {
    const child = execFile(
      bin,
      ["verify", "-"],
      { signal, maxBuffer: 64 << 20 },
      (err, stdout, stderr) => {
        if (err)
          reject(new Fail(`verify failed: ${err.message} ${stdout} ${stderr}`));
        else resolve(stdout.trim());
      },
    );
    child.stdin!.end(recordJson);
  });
}

/** The summary check: the record's replay against the MatchEnded the client received. */
async function summaryCheck(
  ctx: Ctx,
  tableId: string,
  ended: MatchEnded,
): Promise<void> {
  const rec = await ctx.client.getRecord(tableId, { signal: ctx.signal });
  check(rec.matchOver, "the record says the match is not over");
  const r = await replay(rec.recordJson, ctx.signal);
  check(
    ended.reason === EndReason.COMPLETED,
    `MatchEnded reason is ${EndReason[ended.reason]}, not COMPLETED`,
  );
  const result = ended.result;
  check(result !== undefined, "MatchEnded has no result");
  const winners = [...result.winners].sort();
  const seats = r.match.winning_seats as number[] | undefined;
  check(
    seats !== undefined,
    "the replay has no match.winning_seats (an older calabresella binary?)",
  );
  const want = [...seats].sort();
  check(
    JSON.stringify(winners) === JSON.stringify(want),
    `winners ${JSON.stringify(winners)} but the replay's winning seats are ${JSON.stringify(want)}`,
  );
  check(
    result.draw === r.match.draw,
    `draw ${result.draw} but the replay says ${r.match.draw}`,
  );
  check(
    JSON.stringify(result.signedTotals) === JSON.stringify(r.match.totals),
    `signed totals ${JSON.stringify(result.signedTotals)} but the replay says ${JSON.stringify(r.match.totals)}`,
  );
  check(
    result.hands === r.hands.length,
    `hands ${result.hands} but the replay has ${r.hands.length}`,
  );
}

/** Expects `run` to fail with the scenario's code and reason. */
async function expectError(
  s: Scenario,
  run: () => Promise<unknown>,
): Promise<void> {
  const want = s.expect!;
  try {
    await run();
  } catch (e) {
    if (!(e instanceof CalabresellaError)) throw e;
    check(
      e.codeName === want.code && e.reason === want.reason,
      `failed with ${e.codeName} ${e.reason || "(no reason)"}, expected ${want.code} ${want.reason}: ${e.rawMessage}`,
    );
    return;
  }
  throw new Fail(`succeeded, expected ${want.code} ${want.reason}`);
}

/** The first turn due to the seat on its stream (the stream is left). */
async function firstTurn(seat: Seat, ctx: Ctx): Promise<Turn> {
  for await (const u of seat.updates({ signal: ctx.signal })) {
    const t = dueTurn(u, seat.seat);
    if (t) return t;
  }
  throw new Fail("the match ended before the seat had a turn");
}

async function runMatch(s: Scenario, ctx: Ctx): Promise<void> {
  const seat = await createAndJoin(s, ctx);
  let asked = 0;
  const summary = await seat.play(
    (turn) => {
      asked++;
      return firstLegal(turn);
    },
    { signal: ctx.signal },
  );
  check(asked > 0, "the bot was never asked");
  await summaryCheck(ctx, seat.tableId, summary.ended);
}

async function runResume(s: Scenario, ctx: Ctx): Promise<void> {
  const seat = await createAndJoin(s, ctx);
  const seen: Update[] = [];
  let answered: bigint | undefined;
  const answer = async (u: Update) => {
    const t = dueTurn(u, seat.seat);
    if (t && t.decision !== answered) {
      await seat.act(t.decision, firstLegal(t), { signal: ctx.signal });
      answered = t.decision;
    }
  };
  for await (const u of seat.updates({ signal: ctx.signal })) {
    seen.push(u);
    await answer(u);
    if (seen.length >= s.drop_after_updates!) break;
  }
  check(
    seen.length === s.drop_after_updates,
    `the stream ended after ${seen.length} updates`,
  );
  const last = seat.position.lastSeq;
  const before = seen.length;
  let ended: MatchEnded | undefined;
  for await (const u of seat.updates({ signal: ctx.signal })) {
    if (seen.length === before) {
      check(
        u.seq === last + 1n && u.kind.case !== "snapshot",
        `the first update after the resume is seq ${u.seq} (${u.kind.case}), expected ${last + 1n} and no snapshot`,
      );
    }
    seen.push(u);
    await answer(u);
    if (u.kind.case === "matchEnded") ended = u.kind.value;
  }
  for (let i = 1; i < seen.length; i++) {
    check(
      seen[i]!.seq === seen[i - 1]!.seq + 1n,
      `update ${i} has seq ${seen[i]!.seq} after ${seen[i - 1]!.seq}`,
    );
  }
  check(ended !== undefined, "the stream did not end with MatchEnded");
  await summaryCheck(ctx, seat.tableId, ended);
}

async function runDuplicate(s: Scenario, ctx: Ctx): Promise<void> {
  const seat = await createAndJoin(s, ctx);
  const t = await firstTurn(seat, ctx);
  const a = firstLegal(t);
  const first = await seat.act(t.decision, a, { signal: ctx.signal });
  const again = await seat.act(t.decision, a, { signal: ctx.signal });
  check(!first.duplicate, "the first answer is marked duplicate");
  check(again.duplicate, "the second answer is not marked duplicate");
  check(
    first.action !== undefined &&
      again.action !== undefined &&
      sameAction(first.action, again.action),
    `the answers differ: ${first.action?.notation} and ${again.action?.notation}`,
  );
}

async function runStale(s: Scenario, ctx: Ctx): Promise<void> {
  const seat = await createAndJoin(s, ctx);
  let answered: bigint | undefined;
  for await (const u of seat.updates({ signal: ctx.signal })) {
    const t = dueTurn(u, seat.seat);
    if (!t || t.decision === answered) continue;
    if (t.legalActions.length >= 2) {
      await seat.act(t.decision, t.legalActions[0]!, { signal: ctx.signal });
      await expectError(s, () =>
        seat.act(t.decision, t.legalActions[1]!, { signal: ctx.signal }),
      );
      return;
    }
    await seat.act(t.decision, firstLegal(t), { signal: ctx.signal });
    answered = t.decision;
  }
  throw new Fail("no turn with two legal actions before the match ended");
}

async function runIllegal(s: Scenario, ctx: Ctx): Promise<void> {
  const seat = await createAndJoin(s, ctx);
  const t = await firstTurn(seat, ctx);
  const legal = new Set(t.legalActions.map((a) => a.notation));
  const illegal = (s.try ?? []).find((n) => !legal.has(n));
  check(
    illegal !== undefined,
    `every action of try is legal: ${[...legal].join(", ")}`,
  );
  await expectError(s, () =>
    seat.act(t.decision, illegal, { signal: ctx.signal }),
  );
}

async function runBadToken(s: Scenario, ctx: Ctx): Promise<void> {
  const seat = await createAndJoin(s, ctx);
  const wrong = ctx.client.seat(seat.tableId, seat.seat, s.token ?? "");
  await expectError(s, () => wrong.act(0, "pass", { signal: ctx.signal }));
}

async function runUnknownTable(s: Scenario, ctx: Ctx): Promise<void> {
  await expectError(s, () =>
    ctx.client.getTable(s.table_id!, { signal: ctx.signal }),
  );
}

async function runSpectate(s: Scenario, ctx: Ctx): Promise<void> {
  const table = await createTable(s, ctx);
  let prev: bigint | undefined;
  const revealed = new Map<number, number>();
  let ended: MatchEnded | undefined;
  const noLegal = (t: Turn | undefined, where: string) =>
    check(
      t === undefined || t.legalActions.length === 0,
      `${where} shows legal actions`,
    );
  for await (const u of ctx.client.spectate(table.tableId, {
    signal: ctx.signal,
  })) {
    check(
      prev === undefined || u.seq === prev + 1n,
      `seq ${u.seq} after ${prev}`,
    );
    prev = u.seq;
    switch (u.kind.case) {
      case "snapshot": {
        const o = u.kind.value.observation;
        check(
          o === undefined ||
            (o.hand.length === 0 &&
              o.visibleHands.length === 0 &&
              o.legalActions.length === 0),
          `the snapshot at seq ${u.seq} shows hidden cards or legal actions`,
        );
        noLegal(u.kind.value.turn, `the snapshot's turn at seq ${u.seq}`);
        break;
      }
      case "turn":
        noLegal(u.kind.value, `the turn at seq ${u.seq}`);
        break;
      case "handRevealed": {
        const h = u.kind.value.handNumber;
        revealed.set(h, (revealed.get(h) ?? 0) + 1);
        break;
      }
      case "matchEnded":
        ended = u.kind.value;
        break;
    }
    noLegal(u.nextTurn, `the next_turn at seq ${u.seq}`);
  }
  check(
    ended?.result !== undefined,
    "the stream did not end with a MatchEnded with a result",
  );
  const hands = ended.result.hands;
  for (let h = 0; h < hands; h++) {
    check(
      revealed.get(h) === 1,
      `hand ${h} was revealed ${revealed.get(h) ?? 0} times`,
    );
  }
  check(
    revealed.size === hands,
    `${revealed.size} hands revealed for ${hands} played`,
  );
  await summaryCheck(ctx, table.tableId, ended);
}

/** Runs `$CONFORMANCE_RESTART` (kills the server and starts it again). */
function restartServer(signal: AbortSignal): Promise<void> {
  const cmd = process.env.CONFORMANCE_RESTART;
  if (!cmd) throw new Fail("CONFORMANCE_RESTART is not set");
  return new Promise((resolve, reject) => {
    execFile("sh", ["-c", cmd], { signal }, (err, _out, stderr) =>
      err
        ? reject(new Fail(`the restart failed: ${err.message} ${stderr}`))
        : resolve(),
    );
  });
}

async function runRestart(s: Scenario, ctx: Ctx): Promise<void> {
  const seat = await createAndJoin(s, ctx);
  let asked = 0;
  let restarted = false;
  const summary = await seat.play(
    async (turn) => {
      asked++;
      if (asked === s.restart_at_decision) {
        await restartServer(ctx.signal);
        restarted = true;
      }
      return firstLegal(turn);
    },
    { signal: ctx.signal },
  );
  check(
    restarted,
    `the match ended after ${asked} decisions, before the restart`,
  );
  check(
    summary.reconnects > 0,
    "play never reopened its stream after the restart",
  );
  await summaryCheck(ctx, seat.tableId, summary.ended);
}

const HEX64 = /^[0-9a-f]{64}$/;
const toHex = (b: Uint8Array) => Buffer.from(b).toString("hex");

/** A committed table's marks, as `what` shows them. */
function checkCommitted(t: Table, what: string): void {
  check(
    t.dealScheme === DEAL_SCHEME,
    `${what}: deal_scheme is ${JSON.stringify(t.dealScheme)}, not ${DEAL_SCHEME}`,
  );
  check(
    HEX64.test(t.commitment),
    `${what}: the commitment ${JSON.stringify(t.commitment)} is not 64 lower-case hex digits`,
  );
  check(!t.seeded, `${what}: the table is marked seeded`);
}

async function runFairDeal(s: Scenario, ctx: Ctx): Promise<void> {
  check(s.seed === undefined, "a fair_deal scenario has no seed");
  const created = await createTable(s, ctx);
  checkCommitted(created, "the created table");
  const before = await ctx.client.getTable(created.tableId, {
    signal: ctx.signal,
  });
  checkCommitted(before, "GetTable before the join");
  check(
    before.commitment === created.commitment,
    `GetTable shows the commitment ${before.commitment}, CreateTable ${created.commitment}`,
  );
  // The plain join: the client contributes 32 random bytes of its own.
  const seat = await ctx.client.join(
    created.tableId,
    { playerName: PLAYER, seat: s.seat },
    { signal: ctx.signal },
  );
  const summary = await seat.play(firstLegal, { signal: ctx.signal });
  await summaryCheck(ctx, seat.tableId, summary.ended);

  const after = await ctx.client.getTable(seat.tableId, {
    signal: ctx.signal,
  });
  const mine = after.seats.find((x) => x.seat === seat.seat);
  check(mine !== undefined, `GetTable has no seat ${seat.seat}`);
  check(mine.contributed, `seat ${seat.seat} is not marked contributed`);
  check(
    mine.entropy.length === 32,
    `seat ${seat.seat} shows ${mine.entropy.length} bytes of entropy, not 32`,
  );
  for (const x of after.seats) {
    if (x.seat === seat.seat || x.kind === SeatKind.OPEN) continue;
    check(
      !x.contributed && x.entropy.length === 0,
      `bot seat ${x.seat} is marked contributed (${x.entropy.length} bytes)`,
    );
  }

  const rec = await ctx.client.getRecord(seat.tableId, { signal: ctx.signal });
  const deals = (JSON.parse(rec.recordJson) as { meta?: { deals?: any } }).meta
    ?.deals;
  check(deals !== undefined, "the record has no meta.deals");
  check(
    deals.scheme === DEAL_SCHEME,
    `meta.deals.scheme is ${JSON.stringify(deals.scheme)}`,
  );
  check(
    deals.commitment === created.commitment,
    `meta.deals.commitment is ${deals.commitment}, the table showed ${created.commitment}`,
  );
  check(
    typeof deals.secret === "string" && HEX64.test(deals.secret),
    `meta.deals.secret ${JSON.stringify(deals.secret)} is not 64 hex digits`,
  );
  const contributions = deals.contributions as unknown;
  check(
    Array.isArray(contributions) && contributions.length === after.seats.length,
    `meta.deals.contributions is ${JSON.stringify(contributions)}, not one per seat`,
  );
  check(
    contributions[seat.seat] === toHex(mine.entropy),
    `meta.deals.contributions[${seat.seat}] is ${JSON.stringify(contributions[seat.seat])}, the seat's entropy ${toHex(mine.entropy)}`,
  );
  await verify(rec.recordJson, ctx.signal);
}

async function runBench(s: Scenario, ctx: Ctx): Promise<string> {
  const matches = s.matches ?? 1;
  let decisions = 0;
  const started = performance.now();
  for (let i = 0; i < matches; i++) {
    const seat = await createAndJoin(s, ctx, (s.seed ?? 0) + i);
    const summary = await seat.play(firstLegal, { signal: ctx.signal });
    decisions += summary.decisions;
  }
  const seconds = (performance.now() - started) / 1000;
  return `BENCH ${CLIENT} ${s.name} decisions=${decisions} seconds=${seconds.toFixed(3)} decisions_per_second=${(decisions / seconds).toFixed(1)}`;
}

const KINDS: Record<string, (s: Scenario, ctx: Ctx) => Promise<void | string>> =
  {
    match: runMatch,
    resume: runResume,
    duplicate_act: runDuplicate,
    stale_decision: runStale,
    illegal_action: runIllegal,
    bad_token: runBadToken,
    unknown_table: runUnknownTable,
    spectate: runSpectate,
    restart: runRestart,
    fair_deal: runFairDeal,
    bench: runBench,
  };

/** Runs one scenario within the time limit; its output line. */
async function runOne(
  s: Scenario,
  client: Client,
): Promise<{ ok: boolean; line: string }> {
  const kind = KINDS[s.kind];
  if (!kind)
    return { ok: false, line: `FAIL ${s.name}: unknown kind "${s.kind}"` };
  const limit = new AbortController();
  const timer = setTimeout(
    () =>
      limit.abort(new Fail(`over the time limit of ${TIME_LIMIT_MS / 1000} s`)),
    TIME_LIMIT_MS,
  );
  try {
    // The race settles the scenario even if something ignores the abort.
    const out = await Promise.race([
      kind(s, { client, signal: limit.signal }),
      new Promise<never>((_, reject) =>
        limit.signal.addEventListener(
          "abort",
          () => reject(limit.signal.reason),
          { once: true },
        ),
      ),
    ]);
    return { ok: true, line: typeof out === "string" ? out : `PASS ${s.name}` };
  } catch (e) {
    const why =
      e instanceof Error
        ? `${e.name === "Fail" || e instanceof Fail ? "" : `${e.name}: `}${e.message}`
        : String(e);
    return { ok: false, line: `FAIL ${s.name}: ${why.replace(/\s+/g, " ")}` };
  } finally {
    clearTimeout(timer);
    limit.abort();
  }
}

function parseArgs(argv: string[]) {
  const args = {
    scenarios: "",
    server: "",
    caCert: undefined as string | undefined,
    bench: false,
    only: [] as string[],
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    if (a === "--scenarios") args.scenarios = value();
    else if (a === "--server") args.server = value();
    else if (a === "--ca-cert") args.caCert = value();
    else if (a === "--bench") args.bench = true;
    else if (a === "--only") args.only.push(value());
    else throw new Error(`unknown argument ${a}`);
  }
  if (!args.scenarios || !args.server) {
    throw new Error(
      "usage: runner --scenarios PATH --server HOST:PORT|https://HOST:PORT [--ca-cert PATH] [--bench] [--only NAME]...",
    );
  }
  return args;
}

async function main(): Promise<number> {
  const args = parseArgs(process.argv.slice(2));
  const file = JSON.parse(readFileSync(args.scenarios, "utf8")) as {
    scenarios: Scenario[];
  };
  const chosen = file.scenarios.filter(
    (s) =>
      (args.only.length === 0 || args.only.includes(s.name)) &&
      (s.kind === "bench") === args.bench,
  );
  const client = connectNode(args.server, { caCert: args.caCert });
  let passed = 0;
  let failed = 0;
  for (const s of chosen) {
    const { ok, line } = await runOne(s, client);
    console.log(line);
    if (ok) passed++;
    else failed++;
  }
  client.close();
  console.log(`${CLIENT}: ${passed} passed, ${failed} failed`);
  return failed === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(`runner: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(2);
  },
);
