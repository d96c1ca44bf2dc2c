package io.calabresella.client;

import io.calabresella.v1.Action;
import java.util.function.Function;

/**
 * A player for {@link Seat#play(Bot)}: given a decision due at the seat, the action to take.
 *
 * <p>It is asked once per decision; when the server refuses the answer (malformed, or not
 * legal now) it is asked again with {@link Decision#refused()} set, and after
 * {@link RetryPolicy#maxRefusals()} refusals the turn's first legal action is played and
 * counted as a fault. Returning null counts as a fault too. An exception thrown by the bot
 * stops play and reaches the caller of {@code play}, except the
 * {@link DecisionPassedException} of {@link Decision#observation()} for this decision: then the
 * decision is not answered and play waits for the stream.
 */
@FunctionalInterface
public interface Bot {
    /**
     * The answer to a decision.
     *
     * @param decision the turn, its legal actions and (fetched on demand) the seat's observation
     * @return an action: one of {@code decision.legalActions()}, or any {@code Action} form the
     *     server accepts, such as {@link Actions#notation(String)}
     */
    Action choose(Decision decision);

    /**
     * A bot that answers in the action notation ({@code "play 4c"}, {@code "pass"}...).
     *
     * @param choose gives the notation of the action for a decision
     * @return the bot
     */
    static Bot ofNotation(Function<Decision, String> choose) {
        return d -> {
            String n = choose.apply(d);
            return n == null ? null : Actions.notation(n);
        };
    }

    /**
     * The bot that always plays the first legal action.
     *
     * @return the bot
     */
    static Bot firstLegal() {
        return d -> d.legalActions().get(0);
    }
}
