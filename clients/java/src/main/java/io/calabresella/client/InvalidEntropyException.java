package io.calabresella.client;

/**
 * A contribution to the deals ({@link Entropy#of(byte[])}, or a {@code SeekRequest}'s
 * {@code entropy}) of the wrong length, refused before any call: it must hold 1 to
 * {@value Entropy#MAX_BYTES} bytes ({@link Entropy#none()} contributes nothing). The server
 * would refuse more than {@value Entropy#MAX_BYTES} with INVALID_ARGUMENT {@code BAD_ENTROPY}.
 */
public final class InvalidEntropyException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    private final int length;

    /**
     * A contribution of {@code length} bytes refused.
     *
     * @param length how many bytes were given
     */
    public InvalidEntropyException(int length) {
        super("entropy holds " + length + " bytes: it must hold 1 to " + Entropy.MAX_BYTES
                + " (or use Entropy.none() to contribute none)");
        this.length = length;
    }

    /**
     * How many bytes were given.
     *
     * @return the length
     */
    public int length() {
        return length;
    }
}
