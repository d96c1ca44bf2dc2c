/**
 * Turns and actions: which decision an update makes due for a seat, and an action from the
 * forms a program gives (an `Action` message, or its notation such as `"play 4c"`).
 */
import { create, isMessage } from "@bufbuild/protobuf";
import { ActionSchema, type Action } from "./gen/calabresella/v1/cards_pb.js";
import type { Turn, Update } from "./gen/calabresella/v1/table_service_pb.js";

/** An action as a program gives it: the message, or its notation (`"pass"`, `"bid 2 80"`). */
export type ActionInput = Action | string;

/**
 * The `Action` of `input`: a notation string becomes an `Action` with only `notation` set
 * (the server accepts that form alone). Undefined for anything else.
 */
export function toAction(input: unknown): Action | undefined {
  if (typeof input === "string") {
    return input.trim() === ""
      ? undefined
      : create(ActionSchema, { notation: input.trim() });
  }
  if (isMessage(input, ActionSchema)) return input;
  return undefined;
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
