/**
 * Turns and actions: which decision an update makes due for a seat, and an action or a
 * decision number from the forms a program gives (an `Action` message, its notation such as
 * `"play 4c"`, a plain object; a `bigint` or a `number`).
 */
import { create, isMessage } from "@bufbuild/protobuf";
import { ActionSchema, type Action } from "./gen/calabresella/v1/cards_pb.js";
import type { Turn, Update } from "./gen/calabresella/v1/table_service_pb.js";

/**
 * An action as a program gives it: the message, its notation (`"pass"`, `"bid 2 80"`), or a
 * plain object with the notation (`{ notation: "pass" }`) or the numeric `id`, as a bot
 * written in JavaScript may return.
 */
export type ActionInput =
  Action | string | { notation: string } | { id: number };

/**
 * The `Action` of `input`: a notation string, or a plain object with a `notation` string (or
 * else a numeric `id`), becomes an `Action` with only that form set (the server accepts any
 * one form alone); an `Action` message is taken as it is. Undefined for anything else.
 */
export function toAction(input: unknown): Action | undefined {
  if (typeof input === "string") {
    return input.trim() === ""
      ? undefined
      : create(ActionSchema, { notation: input.trim() });
  }
  if (isMessage(input, ActionSchema)) return input;
  if (typeof input === "object" && input !== null) {
    // Only the forms taken are copied: a field of the wrong type would fail the encoding,
    // and a failed encoding must not look like a lost connection.
    const { notation, id } = input as { notation?: unknown; id?: unknown };
    if (typeof notation === "string" && notation.trim() !== "") {
      return create(ActionSchema, { notation: notation.trim() });
    }
    if (
      notation === undefined &&
      typeof id === "number" &&
      Number.isInteger(id) &&
      id >= 0 &&
      id <= 0xffff_ffff
    ) {
      return create(ActionSchema, { id });
    }
  }
  return undefined;
}

/** The largest decision number the wire carries (uint64). */
const MAX_DECISION = (1n << 64n) - 1n;

/**
 * The decision number `input` names: a `bigint` in uint64 range, or a non-negative safe
 * integer. Throws `TypeError` for anything else, before any call is made.
 */
export function toDecision(input: unknown): bigint {
  if (typeof input === "bigint" && input >= 0n && input <= MAX_DECISION) {
    return input;
  }
  if (typeof input === "number" && Number.isSafeInteger(input) && input >= 0) {
    return BigInt(input);
  }
  throw new TypeError(
    `a decision is a bigint or a non-negative safe integer (a Turn's decision), not ${describe(input)}`,
  );
}

/** A value as an error message shows it. */
export function describe(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "bigint") return `${value}n`;
  if (typeof value === "object" && value !== null) return "an object";
  return String(value);
}

/**
 * The turn an update announces: its `turn` kind, a snapshot's `turn`, or else its `next_turn`
 * (which means the same as a separate `turn` update, attached to the step's last update).
 */
export function turnOf(update: Update): Turn | undefined {
  switch (update.kind.case) {
    case "turn":
      return update.kind.value;
    case "snapshot":
      return update.kind.value.turn ?? update.nextTurn;
    default:
      return update.nextTurn;
  }
}

/** The turn `update` makes due for `seat`: one it must decide, with legal actions. */
export function dueTurn(update: Update, seat: number): Turn | undefined {
  const t = turnOf(update);
  return t !== undefined && t.decider === seat && t.legalActions.length > 0
    ? t
    : undefined;
}

/** Whether two actions are the same action (their canonical notation, else their ids). */
export function sameAction(a: Action, b: Action): boolean {
  if (a.notation !== "" && b.notation !== "") return a.notation === b.notation;
  return a.id !== undefined && a.id === b.id;
}
