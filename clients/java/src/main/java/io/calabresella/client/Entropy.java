package io.calabresella.client;

import com.google.protobuf.ByteString;
import java.security.SecureRandom;
import java.util.Objects;

/**
 * The player's contribution to a table's committed deals (docs/RECORDS.md, "Deals: committed
 * or seeded"): bytes sent with {@code JoinTable}, {@code Seek} and {@code Compete} that enter
 * every hand's key, so that not even the server's operator could have chosen the deals.
 *
 * <p>{@link CalabresellaClient#join(String, Integer, String)}, {@code seek} and
 * {@code compete} send {@link #random()}: {@value #DEFAULT_BYTES} fresh bytes from
 * {@link SecureRandom}, drawn anew for every call. {@link #of(byte[])} sends the caller's own
 * (1 to {@value #MAX_BYTES} bytes; anything else throws {@link InvalidEntropyException} at once,
 * before any call), {@link #none()} nothing.
 *
 * <pre>{@code
 * client.join(tableId, 0, "me");                                  // 32 random bytes
 * client.join(tableId, 0, "me", Entropy.of(mine));                // 1 to 64 bytes of yours
 * client.join(tableId, 0, "me", Entropy.none());                  // none
 * }</pre>
 */
public final class Entropy {
    /** {@code Table.deal_scheme} (and the tournament's) of committed deals. */
    public static final String DEAL_SCHEME = "calabresella-deal/1";
    /** {@code Table.deal_scheme} of a table its creator seeded: reproducible, not committed. */
    public static final String SEEDED_SCHEME = "seeded";
    /** How many random bytes a call contributes by default. */
    public static final int DEFAULT_BYTES = 32;
    /** The most a contribution may hold; the server refuses more (INVALID_ARGUMENT BAD_ENTROPY). */
    public static final int MAX_BYTES = 64;

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Entropy RANDOM_ENTROPY = new Entropy(null);
    private static final Entropy NONE = new Entropy(ByteString.EMPTY);

    /** The bytes to send; null: fresh random bytes at each use. */
    private final ByteString given;

    private Entropy(ByteString given) {
        this.given = given;
    }

    /**
     * Fresh random bytes at each call it is given to (the default).
     *
     * @return the choice
     */
    public static Entropy random() {
        return RANDOM_ENTROPY;
    }

    /**
     * No contribution: the deals then depend on the server's secret and the other players'
     * contributions only.
     *
     * @return the choice
     */
    public static Entropy none() {
        return NONE;
    }

    /**
     * The caller's own bytes (copied).
     *
     * @param bytes 1 to {@value #MAX_BYTES} bytes
     * @return the choice
     * @throws InvalidEntropyException when {@code bytes} holds fewer than 1 or more than
     *     {@value #MAX_BYTES}
     */
    public static Entropy of(byte[] bytes) {
        Objects.requireNonNull(bytes, "bytes");
        return of(ByteString.copyFrom(bytes));
    }

    /**
     * The caller's own bytes.
     *
     * @param bytes 1 to {@value #MAX_BYTES} bytes
     * @return the choice
     * @throws InvalidEntropyException when {@code bytes} holds fewer than 1 or more than
     *     {@value #MAX_BYTES}
     */
    public static Entropy of(ByteString bytes) {
        return new Entropy(checked(Objects.requireNonNull(bytes, "bytes")));
    }

    /**
     * {@value #DEFAULT_BYTES} fresh bytes from {@link SecureRandom}.
     *
     * @return the bytes
     */
    public static byte[] randomBytes() {
        byte[] b = new byte[DEFAULT_BYTES];
        RANDOM.nextBytes(b);
        return b;
    }

    /**
     * The bytes to send for this choice: fresh random ones for {@link #random()}, empty for
     * {@link #none()}.
     *
     * @return the bytes
     */
    public ByteString bytes() {
        return given != null ? given : ByteString.copyFrom(randomBytes());
    }

    /** {@code bytes}, refused when of the wrong length. */
    static ByteString checked(ByteString bytes) {
        if (bytes.size() < 1 || bytes.size() > MAX_BYTES) {
            throw new InvalidEntropyException(bytes.size());
        }
        return bytes;
    }

    /**
     * What the choice is, without the bytes.
     *
     * @return {@code Entropy.random()}, {@code Entropy.none()} or {@code Entropy.of(N bytes)}
     */
    @Override
    public String toString() {
        if (given == null) {
            return "Entropy.random()";
        }
        return given.isEmpty() ? "Entropy.none()" : "Entropy.of(" + given.size() + " bytes)";
    }
}
