package io.calabresella.client;

import io.calabresella.v1.Update;

/**
 * The continuity check of one stream's numbering: every update must carry the last number plus
 * one, except a {@code Snapshot}, which replaces everything held, so its number becomes the new
 * last. The cursor's point is where a reopened stream resumes.
 */
final class StreamCursor {
    private final String name;
    private long lastSeq;
    private String epoch;

    /** A cursor at {@code start}; {@code name} says whose stream it is in error messages. */
    StreamCursor(String name, ResumePoint start) {
        this.name = name;
        this.lastSeq = start.seq();
        this.epoch = start.epoch();
    }

    /** Checks an update's number against the last one and records it. */
    synchronized void accept(Update u) {
        boolean snapshot = u.getKindCase() == Update.KindCase.SNAPSHOT;
        if (!snapshot && lastSeq > 0 && u.getSeq() != lastSeq + 1) {
            throw new StreamOrderException(
                    name + ": got seq " + u.getSeq() + " after " + lastSeq + " (expected " + (lastSeq + 1) + ")");
        }
        lastSeq = u.getSeq();
        epoch = u.getStreamEpoch();
    }

    /** The point a reopened stream resumes after. */
    synchronized ResumePoint point() {
        return new ResumePoint(lastSeq, epoch);
    }
}
