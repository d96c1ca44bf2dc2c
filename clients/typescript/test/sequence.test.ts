import { test } from "node:test";
import assert from "node:assert/strict";
import { create } from "@bufbuild/protobuf";
import {
  SequenceTracker,
  StreamOrderError,
  UpdateSchema,
  SnapshotSchema,
  HandStartedSchema,
  type Update,
} from "../src/index.js";

const event = (seq: bigint, epoch = "e1"): Update =>
  create(UpdateSchema, {
    seq,
    streamEpoch: epoch,
    kind: { case: "handStarted", value: create(HandStartedSchema) },
  });
const snapshot = (seq: bigint, epoch = "e1"): Update =>
  create(UpdateSchema, {
    seq,
    streamEpoch: epoch,
    kind: { case: "snapshot", value: create(SnapshotSchema) },
  });

test("a fresh tracker asks for no resume point", () => {
  assert.deepEqual(new SequenceTracker().resumePoint(), { streamEpoch: "" });
});

test("updates must follow one another, and the position is the resume point", () => {
  const t = new SequenceTracker();
  t.accept(snapshot(5n));
  t.accept(event(6n));
  t.accept(event(7n));
  assert.deepEqual(t.resumePoint(), { resumeAfter: 7n, streamEpoch: "e1" });
});

test("a gap or a repeat is refused and leaves the position unchanged", () => {
  const t = new SequenceTracker();
  t.accept(snapshot(1n));
  assert.throws(() => t.accept(event(3n)), StreamOrderError);
  assert.throws(() => t.accept(event(1n)), StreamOrderError);
  assert.equal(t.lastSeq, 1n);
});

test("a snapshot resets the numbering, under a new epoch after a restart", () => {
  const t = new SequenceTracker();
  t.accept(snapshot(10n));
  t.accept(event(11n));
  t.accept(snapshot(3n, "e2"));
  t.accept(event(4n, "e2"));
  assert.deepEqual(t.resumePoint(), { resumeAfter: 4n, streamEpoch: "e2" });
});

test("a tracker can start at a kept position (after a program restart)", () => {
  const t = new SequenceTracker({ resumeAfter: 41n, streamEpoch: "e9" });
  assert.throws(() => t.accept(event(43n, "e9")), StreamOrderError);
  t.accept(event(42n, "e9"));
  assert.equal(t.lastSeq, 42n);
});
