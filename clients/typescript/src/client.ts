/**
 * {@link Client}: the server's calls over any connect `Transport` (gRPC on Node, gRPC-web in a
 * browser): tables, joining a seat, the public stream, records and results. Nothing here
 * imports a Node module, so a browser front end can use it as it is.
 *
 * Which calls retry: only `Seat.act` (idempotent) and the streams' reopening ride out an
 * outage; every other call fails at once (UNAVAILABLE when the server cannot be reached), so
 * the program decides, as in every client of the server.
 */
import { create } from "@bufbuild/protobuf";
import {
  Code,
  createClient,
  type CallOptions,
  type Client as RpcClient,
  type Interceptor,
  type Transport,
} from "@connectrpc/connect";
import type { GameOptions, Game } from "./gen/calabresella/v1/game_pb.js";
import {
  ClockSchema,
  TableService,
  type Assignment,
  TableState,
  TimeoutPolicy,
  type GameDescription,
  type GetRecordResponse,
  type GetResultsResponse,
  type ListRecordsRequest,
  type ListRecordsResponse,
  type ListTablesResponse,
  SeatKind,
  type Table,
  type Update,
} from "./gen/calabresella/v1/table_service_pb.js";
import {
  CalabresellaError,
  ClientClosedError,
  toCalabresellaError,
} from "./errors.js";
import {
  gameByName,
  gameOptions,
  seatChoice,
  type OptionsInput,
} from "./options.js";
import { entropyBytes, type EntropyInput } from "./entropy.js";
import { callOnce, type CallOpts, type Connection } from "./connection.js";
import { Seat } from "./seat.js";
import { SequenceTracker, type ResumePoint } from "./sequence.js";
import { Closer, type LinkedSignal } from "./signals.js";
import { followUpdates, type FollowOptions } from "./stream.js";
import { describe } from "./turns.js";

/** The table to create. */
export interface TableSpec {
  /** The game's name (`calabresella`, `tressette`...), or whole `GameOptions`. */
  game: string | GameOptions;
  /**
   * Rule options in the `key=value` notation (only with a game name), sent as
   * `GameOptions.settings` for the server to read ({@link Client.listGames} describes them).
   */
  options?: OptionsInput;
  /** Each seat's kind in order (`open`, `random`, `heuristic`, or a search bot, `pimc`,
   * `ismcts` or `best`, with an optional budget: `pimc:ms=50`); empty or absent: all open. */
  seats?: readonly (string | SeatKind)[];
  /**
   * Seed of the deals, for a reproducible simulation: the table is then marked `seeded` and
   * only its creator may take its seats. Absent: committed deals (`Table.commitment`, see
   * docs/RECORDS.md), which nobody can know in advance.
   */
  seed?: bigint | number;
  /** A display name. */
  name?: string;
  /** The clock; unset fields take the server's defaults. */
  clock?: { moveMs?: number; bankMs?: number; onTimeout?: TimeoutPolicy };
  /** Free-form labels. */
  metadata?: Record<string, string>;
  /** The first dealer; absent: drawn from the deals' generator. */
  firstDealer?: number;
  /** Pause before each built-in bot decision, in milliseconds. */
  botDelayMs?: number;
}

/** A filter of finished matches ({@link Client.listRecords}). */
export type RecordFilter = Partial<
  Omit<ListRecordsRequest, "$typeName" | "$unknown" | "game">
> & {
  /** Only this game (by name or enum). */
  game?: string | Game;
};

/**
 * An interceptor that sends `authorization: Bearer <key>` on every call: a registered
 * player's API key, or the server's admin key.
 */
export function bearer(key: string): Interceptor {
  const value = `Bearer ${key.trim()}`;
  return (next) => (req) => {
    req.header.set("authorization", value);
    return next(req);
  };
}

/** A connection to a Calabresella server. */
export class Client implements Connection {
  /**
   * The generated connect client, for anything this class does not wrap (through
   * {@link Client.call}, so that {@link Client.close} ends it too).
   */
  readonly rpc: RpcClient<typeof TableService>;
  /** Closed by {@link Client.close}, with a `ClientClosedError`. */
  readonly #closer = new Closer();

  /**
   * A client over `transport` (see `connectNode` and `connectWeb` for ready-made ones).
   * @param onClose releases the transport's connections ({@link Client.close}).
   */
  constructor(
    readonly transport: Transport,
    private readonly onClose?: () => void,
  ) {
    this.rpc = createClient(TableService, transport);
  }

  /** Whether {@link Client.close} was called. */
  get closed(): boolean {
    return this.#closer.closed;
  }

  /**
   * A signal that aborts when `signal` does, or with a `ClientClosedError` when the client is
   * closed (at once if it is): what every call, stream and play of the client runs under.
   * Call `dispose()` once done with it.
   */
  link(signal?: AbortSignal): LinkedSignal {
    return this.#closer.link(signal);
  }

  /**
   * Runs one call of this client, once (`run` is given the call options to pass to
   * {@link Client.rpc}): it fails at once with `ClientClosedError` when the client is closed,
   * and is cancelled with it when the client closes meanwhile; a failure of the call rejects
   * as a `CalabresellaError`.
   */
  async call<T>(
    run: (options: CallOptions) => Promise<T>,
    opts: CallOpts = {},
  ): Promise<T> {
    const link = this.#closer.link(opts.signal);
    try {
      link.signal.throwIfAborted();
      return await callOnce(run, { ...opts, signal: link.signal });
    } finally {
      link.dispose();
    }
  }

  /**
   * Creates a table and returns its public state. Throws `OptionsError` for an unknown game or
   * seat kind, or options not in the `key=value` notation, before any call; the server answers
   * INVALID_ARGUMENT for what it refuses: BAD_OPTIONS (an option the game does not have, a
   * value it does not take, with the server's message), BAD_SEATS...
   */
  async createTable(spec: TableSpec, opts?: CallOpts): Promise<Table> {
    return (await this.createTableWithKey(spec, opts)).table;
  }

  /**
   * {@link Client.createTable}, with the table's creator key: for a seeded table with open
   * seats, the key that takes them (`join(id, { creatorKey })`); empty otherwise.
   */
  async createTableWithKey(
    spec: TableSpec,
    opts?: CallOpts,
  ): Promise<{ table: Table; creatorKey: string }> {
    const options =
      typeof spec.game === "string"
        ? gameOptions(spec.game, spec.options)
        : spec.game;
    const choices = (spec.seats ?? []).map(seatChoice);
    const seats = choices.map((c) => c.kind);
    const seatBots = choices.some((c) => c.kind === SeatKind.BOT_NAMED)
      ? choices.map((c) => c.bot)
      : [];
    const r = await this.call(
      (o) =>
        this.rpc.createTable(
          {
            name: spec.name ?? "",
            options,
            seats,
            seatBots,
            clock: spec.clock ? create(ClockSchema, spec.clock) : undefined,
            metadata: spec.metadata ?? {},
            seed: spec.seed === undefined ? undefined : BigInt(spec.seed),
            firstDealer: spec.firstDealer,
            botDelayMs: spec.botDelayMs ?? 0,
          },
          o,
        ),
      opts,
    );
    return { table: r.table!, creatorKey: r.creatorKey };
  }

  /**
   * The tables a tournament schedules for the registered player whose API key the client
   * sends (`apiKey` of `connectNode`): each an `Assignment` (table, seat, seat token; play it
   * with {@link Client.seat}), first the player's unfinished tables with fresh tokens. The
   * server gives it `maxTables` (1 to 16) tables at once (a number, or `{ maxTables, entropy }`:
   * the player's contribution to those tables' deals, 32 random bytes when absent, see
   * {@link EntropyInput}). Ends when the server closes the call; a failure throws a
   * `CalabresellaError` (call again to reconnect).
   */
  async *compete(
    tables: number | { maxTables?: number; entropy?: EntropyInput } = 1,
    opts: CallOpts = {},
  ): AsyncGenerator<Assignment, void, undefined> {
    const { maxTables = 1, entropy } =
      typeof tables === "number" ? { maxTables: tables } : tables;
    const bytes = entropyBytes(entropy);
    const link = this.#closer.link(opts.signal);
    try {
      for await (const r of this.rpc.compete(
        { maxTables, entropy: bytes },
        { signal: link.signal },
      )) {
        if (r.assignment) yield r.assignment;
      }
    } catch (e) {
      throw toCalabresellaError(e);
    } finally {
      link.dispose();
    }
  }

  /**
   * Matchmaking for the registered player whose API key the client sends: resolves with the
   * seat once the server pairs it with other seekers of the same game, options and clock, or
   * fills the missing seats with built-in bots after `request.botsAfterMs`. `request.entropy`
   * is the player's contribution to the table's deals (32 random bytes when absent, see
   * {@link EntropyInput}). Aborting `opts.signal` cancels the seek.
   */
  async seek(
    request: {
      game: string | GameOptions;
      options?: OptionsInput;
      clock?: { moveMs?: number; bankMs?: number; onTimeout?: TimeoutPolicy };
      botsAfterMs?: number;
      ratingWindow?: number;
      entropy?: EntropyInput;
    },
    opts: CallOpts = {},
  ): Promise<Assignment> {
    const options =
      typeof request.game === "string"
        ? gameOptions(request.game, request.options)
        : request.game;
    const entropy = entropyBytes(request.entropy);
    const link = this.#closer.link(opts.signal);
    try {
      for await (const r of this.rpc.seek(
        {
          options,
          clock: request.clock ? create(ClockSchema, request.clock) : undefined,
          botsAfterMs: request.botsAfterMs ?? 0,
          ratingWindow: request.ratingWindow ?? 0,
          entropy,
        },
        { signal: link.signal },
      )) {
        if (r.event.case === "seated") return r.event.value;
      }
    } catch (e) {
      throw toCalabresellaError(e);
    } finally {
      link.dispose();
    }
    throw new CalabresellaError(
      Code.Unavailable,
      "the seek ended without a seat",
      {},
    );
  }

  /**
   * Every game the server plays, in the server's order, with its seats (`minPlayers` to
   * `maxPlayers`, `defaultPlayers`) and the description of each of its rule options (`key`,
   * `kind`: flag, number from `min` to `max` or one of `choices`; `defaultValue`, `doc`): the
   * keys and values that `options` of {@link TableSpec} take. A server from before
   * `ListGames` answers UNIMPLEMENTED (it takes only the typed rules).
   */
  async listGames(opts?: CallOpts): Promise<GameDescription[]> {
    const r = await this.call((o) => this.rpc.listGames({}, o), opts);
    return r.games;
  }

  /** One page of tables, newest first, optionally only those in `state`. */
  listTables(
    query: { state?: TableState; pageSize?: number; pageToken?: string } = {},
    opts?: CallOpts,
  ): Promise<ListTablesResponse> {
    return this.call((o) => this.rpc.listTables(query, o), opts);
  }

  /** Every table (newest first, optionally only those in `state`), page after page. */
  async *tables(
    query: { state?: TableState; pageSize?: number } = {},
    opts?: CallOpts,
  ): AsyncGenerator<Table, void, undefined> {
    let pageToken = "";
    do {
      const page = await this.listTables({ ...query, pageToken }, opts);
      yield* page.tables;
      pageToken = page.nextPageToken;
    } while (pageToken !== "");
  }

  /** One table's public state. Throws NOT_FOUND (TABLE_NOT_FOUND) for an unknown id. */
  async getTable(tableId: string, opts?: CallOpts): Promise<Table> {
    const r = await this.call((o) => this.rpc.getTable({ tableId }, o), opts);
    return r.table!;
  }

  /**
   * Takes a seat (`seat`, or the lowest open one) as `playerName` and returns its handle,
   * which holds the secret seat token: keep `seat.token` to resume after a restart (the seat
   * never shows it when logged). `who.entropy` is the player's contribution to the table's
   * committed deals: absent, 32 fresh random bytes; the caller's own 1 to 64 bytes; or `false`
   * for none (see {@link EntropyInput}). Bytes out of range throw `OptionsError` before any call.
   * A seeded table seats only its creator: `who.creatorKey` is the `creatorKey` that
   * `createTable`'s answer carried.
   */
  async join(
    tableId: string,
    who: {
      playerName: string;
      seat?: number;
      entropy?: EntropyInput;
      creatorKey?: string;
    },
    opts?: CallOpts,
  ): Promise<Seat> {
    const entropy = entropyBytes(who.entropy);
    const r = await this.call(
      (o) =>
        this.rpc.joinTable(
          {
            tableId,
            seat: who.seat,
            playerName: who.playerName,
            entropy,
            creatorKey: who.creatorKey ?? "",
          },
          o,
        ),
      opts,
    );
    return new Seat(this, tableId, r.seat, r.seatToken);
  }

  /**
   * The handle of a seat already joined, from its table id, number and token (kept from
   * {@link Client.join}); `from` is a stream position kept from before, to resume there.
   */
  seat(tableId: string, seat: number, token: string, from?: ResumePoint): Seat {
    return new Seat(this, tableId, seat, token, from);
  }

  /** The public stream of a table, as a handle that keeps its position between follows. */
  spectator(tableId: string, from?: ResumePoint): Spectator {
    return new Spectator(this, tableId, from);
  }

  /** The public stream of a table in order to `MatchEnded` (see {@link Spectator.updates}). */
  spectate(
    tableId: string,
    opts?: FollowOptions,
  ): AsyncGenerator<Update, void, undefined> {
    return this.spectator(tableId).updates(opts);
  }

  /** A table's game record (JSON, format `calabresella-record/1`) of its completed hands. */
  getRecord(tableId: string, opts?: CallOpts): Promise<GetRecordResponse> {
    return this.call((o) => this.rpc.getRecord({ tableId }, o), opts);
  }

  /**
   * One page of finished matches, newest first, filtered. Rejects with `OptionsError` for an
   * unknown game name, before any call.
   */
  async listRecords(
    filter: RecordFilter = {},
    opts?: CallOpts,
  ): Promise<ListRecordsResponse> {
    const { game: name, ...rest } = filter;
    // Names are resolved before the call: a bad one is the program's error, not the call's.
    const game = typeof name === "string" ? gameByName(name) : name;
    return this.call((o) => this.rpc.listRecords({ ...rest, game }, o), opts);
  }

  /**
   * The results table, best rating first; optionally one game only, or people only. Rejects
   * with `OptionsError` for an unknown game name, before any call.
   */
  async getResults(
    query: { game?: string | Game; peopleOnly?: boolean } = {},
    opts?: CallOpts,
  ): Promise<GetResultsResponse> {
    const game =
      typeof query.game === "string" ? gameByName(query.game) : query.game;
    return this.call(
      (o) =>
        this.rpc.getResults({ game, peopleOnly: query.peopleOnly ?? false }, o),
      opts,
    );
  }

  /**
   * Closes the client for good: the calls, streams and plays running end with
   * `ClientClosedError` (they do not reconnect), every later one fails with it at once, and
   * the transport's connections are released (when the client was made with a way to:
   * `connectNode`). Closing again does nothing.
   */
  close(): void {
    if (this.closed) return;
    // First the signal, so what is running sees a closed client, not a broken connection.
    this.#closer.close(new ClientClosedError());
    this.onClose?.();
  }
}

/** A table's public stream, keeping its position so a later follow resumes after it. */
export class Spectator {
  /** The stream's position (continuity check and resume point). */
  readonly position: SequenceTracker;

  /**
   * A handle on the public stream of table `tableId` through `client` (see
   * {@link Client.spectator}), starting fresh, or after `from`, a position kept from before.
   * Throws `TypeError` for a table id that is not a string.
   */
  constructor(
    /** The client the stream goes through. */
    readonly client: Client,
    /** The table's id. */
    readonly tableId: string,
    from?: ResumePoint,
  ) {
    if (typeof tableId !== "string") {
      throw new TypeError(`a table id is a string, not ${describe(tableId)}`);
    }
    this.position = new SequenceTracker(from, `table ${tableId} (spectator)`);
  }

  /**
   * The public updates in order, to `MatchEnded` (the last one yielded), every number checked;
   * a dropped stream is resumed by itself within the outage window. Breaking out of the loop
   * ends the stream; following again resumes after the last update seen. `ClientClosedError`
   * once the client is closed.
   */
  async *updates(
    opts: FollowOptions = {},
  ): AsyncGenerator<Update, void, undefined> {
    const link = this.client.link(opts.signal);
    try {
      yield* followUpdates(
        (from, signal) =>
          this.client.rpc.spectate(
            { tableId: this.tableId, ...from },
            { signal },
          ),
        this.position,
        { ...opts, signal: link.signal },
      );
    } finally {
      link.dispose();
    }
  }
}

export { TableState, TimeoutPolicy };
// Kept here too: they were first exported from this module.
export { callOnce, type CallOpts };
