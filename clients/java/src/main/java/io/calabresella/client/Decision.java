package io.calabresella.client;

import io.calabresella.v1.Action;
import io.calabresella.v1.GetObservationResponse;
import io.calabresella.v1.Observation;
import io.calabresella.v1.Turn;
import java.util.List;
import java.util.Optional;

/**
 * What a {@link Bot} is asked: a turn due at its seat. The seat's full observation is fetched
 * with {@code GetObservation} the first time {@link #observation()} is called, and not at all
 * when the bot does not ask for it (a bot that reads only the legal actions costs no extra
 * call).
 */
public final class Decision {
    private final Seat seat;
    private final Turn turn;
    private final CalabresellaException refused;
    private Observation observation;

    Decision(Seat seat, Turn turn, CalabresellaException refused, Observation observation) {
        this.seat = seat;
        this.turn = turn;
        this.refused = refused;
        this.observation = observation;
    }

    /**
     * The turn, as the stream delivered it.
     *
     * @return the turn (decision number, actor, decider, legal actions, deadline)
     */
    public Turn turn() {
        return turn;
    }

    /**
     * The decision's number, which the answer quotes.
     *
     * @return {@code turn().getDecision()}
     */
    public long number() {
        return turn.getDecision();
    }

    /**
     * The legal actions, never empty; each carries its {@code notation}.
     *
     * @return the turn's legal actions
     */
    public List<Action> legalActions() {
        return turn.getLegalActionsList();
    }

    /**
     * The seat's observation for this decision: its hand, the trick, the scores, the events so
     * far. Fetched once, on the first call (retried through an outage, as {@code act} is), and
     * kept for the asks that follow a refusal.
     *
     * @return the observation
     * @throws DecisionPassedException when the server has moved past this decision (the clock
     *     answered first): its observation would be another turn's. Let it through:
     *     {@link Seat#play(Bot)} then waits for the stream instead of answering.
     */
    public Observation observation() {
        if (observation == null) {
            GetObservationResponse r = seat.observationRetrying();
            if (r.getDecision() != turn.getDecision()) {
                throw new DecisionPassedException(turn.getDecision(), r.getDecision());
            }
            observation = r.getObservation();
        }
        return observation;
    }

    /** The observation if it was fetched, so the next ask of the same decision reuses it. */
    Observation fetched() {
        return observation;
    }

    /**
     * The server's refusal of the previous answer to this decision, if there was one.
     *
     * @return the refusal (code {@code INVALID_ARGUMENT}, or {@code FAILED_PRECONDITION} with
     *     reason {@code ILLEGAL_ACTION})
     */
    public Optional<CalabresellaException> refused() {
        return Optional.ofNullable(refused);
    }

    /**
     * The seat that decides.
     *
     * @return the seat handle
     */
    public Seat seat() {
        return seat;
    }
}
