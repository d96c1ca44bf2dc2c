package io.calabresella.client;

import io.grpc.Status;

/**
 * The decision a bot was asked about is no longer due: the server moved past it (the clock
 * answered first) before the bot fetched its observation, so the observation the server has
 * now belongs to a later decision. Code {@code ABORTED} (as the server's
 * {@code STALE_DECISION}), reason {@link CalabresellaException#DECISION_PASSED}.
 *
 * <p>{@link Decision#observation()} throws it. A bot run by {@link Seat#play(Bot)} may let it
 * through: play then answers nothing and waits for the stream, which says what happened; it is
 * neither a fault nor a failure of play.
 */
public final class DecisionPassedException extends CalabresellaException {
    private static final long serialVersionUID = 1L;

    private final long decision;
    private final long current;

    /**
     * A decision that passed.
     *
     * @param decision the number of the decision the bot was asked about
     * @param current the number of the decision the server is at now
     */
    public DecisionPassedException(long decision, long current) {
        super(Status.Code.ABORTED, DECISION_PASSED,
                "decision " + decision + " is no longer due (the server is at decision " + current + ")", null);
        this.decision = decision;
        this.current = current;
    }

    /**
     * The decision that passed.
     *
     * @return its number
     */
    public long decision() {
        return decision;
    }

    /**
     * The decision the server had reached when the observation was fetched.
     *
     * @return its number
     */
    public long current() {
        return current;
    }
}
