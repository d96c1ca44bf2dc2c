package io.calabresella.client;

import io.calabresella.v1.Action;
import io.calabresella.v1.Observation;
import io.calabresella.v1.Turn;
import io.calabresella.v1.Update;
import java.util.concurrent.CancellationException;

/**
 * The one play loop, as in the Rust client ({@code crates/client/src/play.rs}): follow the
 * seat's stream in order, answer each decision due at the seat once, ask the bot again after a
 * refusal, and play the first legal action after too many. A decision that passed before the bot
 * could see its observation ({@link DecisionPassedException}) is not answered: the stream says
 * what happened.
 */
final class PlayLoop {
    private final Seat seat;
    private final Bot bot;
    private final RetryPolicy policy;
    private long decisions;
    private long faults;

    PlayLoop(Seat seat, Bot bot, RetryPolicy policy) {
        this.seat = seat;
        this.bot = bot;
        this.policy = policy;
    }

    PlayReport run() {
        long answered = -1;
        try (UpdateStream stream = seat.observe()) {
            while (stream.hasNext()) {
                Update u = stream.next();
                if (u.getKindCase() == Update.KindCase.MATCH_ENDED) {
                    return new PlayReport(u.getMatchEnded(), decisions, faults, stream.reconnects());
                }
                // The kind's own turn first, then the turn attached to the step's last update.
                for (Turn t : new Turn[] {kindTurn(u), u.hasNextTurn() ? u.getNextTurn() : null}) {
                    if (due(t) && t.getDecision() != answered) {
                        answer(t);
                        answered = t.getDecision();
                    }
                }
            }
            throw new CancellationException("the stream was closed before the match ended");
        }
    }

    /** The turn an update's kind carries: a turn update's, or a snapshot's. */
    private static Turn kindTurn(Update u) {
        return switch (u.getKindCase()) {
            case TURN -> u.getTurn();
            case SNAPSHOT -> u.getSnapshot().hasTurn() ? u.getSnapshot().getTurn() : null;
            default -> null;
        };
    }

    /** Whether a turn is this seat's to answer now. */
    private boolean due(Turn t) {
        return t != null && t.getDecider() == seat.number() && t.getLegalActionsCount() > 0;
    }

    /** Answers a turn until it is settled: accepted, refused for good, or taken elsewhere. */
    void answer(Turn turn) {
        CalabresellaException refused = null;
        Observation observation = null;
        int refusals = 0;
        while (true) {
            boolean gaveUp = policy.maxRefusals() >= 0 && refusals >= policy.maxRefusals();
            Action action = null;
            if (!gaveUp) {
                Decision d = new Decision(seat, turn, refused, observation);
                try {
                    action = bot.choose(d);
                } catch (DecisionPassedException e) {
                    if (e.decision() != turn.getDecision()) {
                        throw e; // Another decision's: the bot's own doing, not this turn's.
                    }
                    // The clock answered first: nothing to send, the stream says what happened.
                    return;
                }
                observation = d.fetched();
            }
            if (action == null) {
                // Refused too often, or no answer: the first legal action, counted as a fault.
                faults++;
                action = turn.getLegalActions(0);
            }
            try {
                seat.act(turn.getDecision(), action);
                decisions++;
                return;
            } catch (ConnectionLostException e) {
                throw e;
            } catch (CalabresellaException e) {
                if (Failures.refusal(e)) {
                    if (gaveUp) {
                        return; // Even the first legal action was refused: the clock decides.
                    }
                    refusals++;
                    refused = e;
                } else if (Failures.settledElsewhere(e)) {
                    return; // The clock answered, or the match moved on: the stream says so.
                } else {
                    throw e;
                }
            }
        }
    }
}
