package io.calabresella.client;

import io.calabresella.v1.Action;

/** Small helpers for {@link Action} messages. */
public final class Actions {
    private Actions() {}

    /**
     * The action named by its notation alone, as the server accepts it: {@code "pass"},
     * {@code "play 4c"}, {@code "bid 2 80"}...
     *
     * @param notation the action's canonical string (any letter case)
     * @return an {@code Action} with only {@code notation} set
     */
    public static Action notation(String notation) {
        if (notation == null || notation.isBlank()) {
            throw new IllegalArgumentException("an action notation must not be empty");
        }
        return Action.newBuilder().setNotation(notation.trim()).build();
    }
}
