/**
 * `@calabresella/client`: the TypeScript client of the Calabresella game server, over any
 * connect transport. On Node use `connectNode` from `@calabresella/client/node`; in a browser
 * `connectWeb` from `@calabresella/client/web`.
 */
export { Client, Spectator, callOnce } from "./client.js";
export type { RecordFilter, TableSpec } from "./client.js";
export type { CallOpts, Connection } from "./connection.js";
export {
  DEAL_SCHEME,
  DEFAULT_ENTROPY_BYTES,
  MAX_ENTROPY_BYTES,
  SEEDED_SCHEME,
  entropyBytes,
  randomEntropy,
} from "./entropy.js";
export type { EntropyInput } from "./entropy.js";
export { Seat } from "./seat.js";
export { play } from "./play.js";
export type {
  Bot,
  PlayingSeat,
  PlayOptions,
  PlaySummary,
  TurnContext,
} from "./play.js";
export {
  CalabresellaError,
  ClientClosedError,
  Code,
  ConnectionLostError,
  OptionsError,
  StreamOrderError,
  callFailure,
  codeName,
  refusal,
  retryable,
  toCalabresellaError,
  transient,
} from "./errors.js";
export type { CodeName } from "./errors.js";
export {
  GAMES,
  SEARCH_BOTS,
  SEAT_KINDS,
  gameByName,
  gameName,
  gameOptions,
  optionSettings,
  seatChoice,
  seatKind,
} from "./options.js";
export type { GameName, OptionsInput, SeatChoice } from "./options.js";
export {
  MAX_REFUSALS,
  Outage,
  RECONNECT_FOR_MS,
  backoffDelay,
  sleep,
  withRetry,
} from "./retry.js";
export type { RetryOptions } from "./retry.js";
export { SequenceTracker } from "./sequence.js";
export type { LinkedSignal } from "./signals.js";
export type { ResumePoint } from "./sequence.js";
export { followUpdates } from "./stream.js";
export type { FollowOptions, OpenStream } from "./stream.js";
export { dueTurn, sameAction, toAction, toDecision, turnOf } from "./turns.js";
export type { ActionInput } from "./turns.js";
// The wire messages and enums, as generated from the contract.
export * from "./gen/calabresella/v1/cards_pb.js";
export * from "./gen/calabresella/v1/game_pb.js";
export * from "./gen/calabresella/v1/table_service_pb.js";
