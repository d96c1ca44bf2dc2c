package io.calabresella.conformance;

/** A scenario's check did not hold. */
final class Failed extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Failed(String why) {
        super(why);
    }

    /** Throws when {@code ok} is false. */
    static void check(boolean ok, String why) {
        if (!ok) {
            throw new Failed(why);
        }
    }
}
