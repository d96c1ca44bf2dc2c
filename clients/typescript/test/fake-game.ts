/**
 * A scripted match for the play loop's tests: seat 0 must answer `turns` decisions in a row,
 * each with the legal actions `play 1` and `play 2`; the stream is buffered for resumes.
 */
import { create, type MessageInitShape } from "@bufbuild/protobuf";
import { Code, ConnectError, type ServiceImpl } from "@connectrpc/connect";
import {
  ActionSchema,
  EndReason,
  HandStartedSchema,
  TableService,
  UpdateSchema,
  type ActRequest,
  type ObserveRequest,
  type Update,
} from "../src/index.js";
import { serverError } from "./fake-server.js";

export const LEGAL = ["play 1", "play 2"];

/** What the fake does besides playing the script. */
export interface GameScript {
  /** Decisions before the match ends. */
  turns: number;
  /** Overrides the answer to an act (return undefined for the normal behaviour). */
  onAct?: (req: ActRequest, game: FakeGame) => Error | undefined;
  /** Cuts the first stream (UNAVAILABLE, no ErrorInfo) after this many updates. */
  dropAfter?: number;
}

export class FakeGame {
  readonly updates: Update[] = [];
  readonly acts: string[] = [];
  readonly observeRequests: ObserveRequest[] = [];
  decision = 0n;
  private waiters: (() => void)[] = [];
  private streams = 0;

  constructor(readonly script: GameScript) {
    this.push(
      { kind: { case: "handStarted", value: create(HandStartedSchema) } },
      true,
    );
  }

  /** Appends an update (with the turn due next, while the match goes on). */
  push(u: MessageInitShape<typeof UpdateSchema>, withTurn: boolean): void {
    const update = create(UpdateSchema, {
      ...u,
      seq: BigInt(this.updates.length + 1),
      streamEpoch: "e1",
    });
    if (withTurn) {
      update.nextTurn = {
        $typeName: "calabresella.v1.Turn",
        decision: this.decision,
        actor: 0,
        decider: 0,
        legalActions: LEGAL.map((n) => create(ActionSchema, { notation: n })),
        deadlineUnixMs: 0n,
        remainingMs: 0,
      };
    }
    this.updates.push(update);
    for (const w of this.waiters.splice(0)) w();
  }

  /** Takes decision `decision` as answered, by the seat or by the clock. */
  advance(): void {
    this.decision++;
    if (this.decision >= BigInt(this.script.turns)) {
      this.push(
        {
          kind: {
            case: "matchEnded",
            value: { reason: EndReason.COMPLETED, result: { hands: 1 } },
          },
        },
        false,
      );
    } else {
      this.push({ kind: { case: "event", value: {} } }, true);
    }
  }

  service(): Partial<ServiceImpl<typeof TableService>> {
    return {
      observe: (req) => this.observe(req),
      act: (req) => {
        const notation = req.action?.notation ?? "";
        this.acts.push(`${req.decision} ${notation}`);
        const special = this.script.onAct?.(req, this);
        if (special) throw special;
        if (req.decision !== this.decision)
          throw serverError(Code.Aborted, "STALE_DECISION");
        if (!LEGAL.includes(notation))
          throw serverError(Code.FailedPrecondition, "ILLEGAL_ACTION");
        this.advance();
        return { action: { notation }, duplicate: false };
      },
    };
  }

  private async *observe(req: ObserveRequest) {
    this.observeRequests.push(req);
    const stream = this.streams++;
    let next: number;
    if (req.resumeAfter !== undefined && req.streamEpoch === "e1") {
      next = Number(req.resumeAfter);
    } else {
      // A fresh snapshot of everything so far, carrying the turn due.
      const last = this.updates[this.updates.length - 1]!;
      yield {
        update: {
          seq: last.seq,
          streamEpoch: "e1",
          kind: { case: "snapshot" as const, value: { turn: last.nextTurn } },
        },
      };
      next = this.updates.length;
    }
    let sent = 0;
    for (;;) {
      while (next < this.updates.length) {
        if (
          stream === 0 &&
          this.script.dropAfter !== undefined &&
          sent >= this.script.dropAfter
        ) {
          throw new ConnectError("stream cut", Code.Unavailable);
        }
        const u = this.updates[next++]!;
        yield { update: u };
        sent++;
        if (u.kind.case === "matchEnded") return;
      }
      await new Promise<void>((r) => this.waiters.push(r));
    }
  }
}
