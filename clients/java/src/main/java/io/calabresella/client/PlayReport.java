package io.calabresella.client;

import io.calabresella.v1.MatchEnded;

/**
 * What a finished {@link Seat#play(Bot)} saw.
 *
 * @param ended how the match ended (its result and reason)
 * @param decisions decisions this seat answered (the clock's answers not counted)
 * @param faults answers replaced by the first legal action (refused too often, or null)
 * @param reconnects times the stream was opened again after a drop
 */
public record PlayReport(MatchEnded ended, long decisions, long faults, long reconnects) {}
