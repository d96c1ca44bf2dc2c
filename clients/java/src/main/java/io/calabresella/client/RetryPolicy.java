package io.calabresella.client;

import java.time.Duration;

/**
 * How a client rides out an outage and how the play loop treats refused answers: the same
 * policy as the Rust client's. Retries wait 50 ms, doubling up to 1 s; an outage may last
 * {@code reconnectFor} in all, from its first failure; after {@code maxRefusals} refused
 * answers to one decision the turn's first legal action is played and counted as a fault.
 *
 * @param reconnectFor the longest outage tolerated, from its first failure
 * @param maxRefusals refused answers to one decision before the first legal action is played
 *     (a negative value: ask the bot again without limit)
 */
public record RetryPolicy(Duration reconnectFor, int maxRefusals) {
    /** The longest outage tolerated by default: 30 s. */
    public static final Duration RECONNECT_FOR = Duration.ofSeconds(30);
    /** Refused answers to one decision before the first legal action is played: 3. */
    public static final int MAX_REFUSALS = 3;
    /** The default policy. */
    public static final RetryPolicy DEFAULT = new RetryPolicy(RECONNECT_FOR, MAX_REFUSALS);

    /**
     * Checks the window.
     *
     * @param reconnectFor the longest outage tolerated, not negative
     * @param maxRefusals refused answers before a fault, negative for no limit
     */
    public RetryPolicy {
        if (reconnectFor == null || reconnectFor.isNegative()) {
            throw new IllegalArgumentException("reconnectFor must be a duration of 0 or more");
        }
    }

    /**
     * The wait before the {@code n}th retry (0-based): 50 ms doubling up to 1 s.
     *
     * @param n how many retries came before
     * @return the pause
     */
    public static Duration backoff(int n) {
        return Duration.ofMillis(Math.min(1000L, 50L << Math.min(Math.max(n, 0), 5)));
    }
}
