package io.calabresella.client;

/**
 * Where a stream stands: the sequence number of the last update received and the
 * {@code stream_epoch} it belongs to. A stream opened from it continues with the next number
 * (the server sends a fresh {@code Snapshot} when it no longer can). Save it with the seat token
 * to resume after the program restarts.
 *
 * @param seq the last sequence number received (0: nothing received yet)
 * @param epoch the {@code stream_epoch} of that update ("" before the first one)
 */
public record ResumePoint(long seq, String epoch) {
    /** The point of a stream that has received nothing: it opens with a snapshot. */
    public static final ResumePoint START = new ResumePoint(0, "");

    /**
     * Checks the values.
     *
     * @param seq not negative
     * @param epoch not null
     */
    public ResumePoint {
        if (seq < 0) {
            throw new IllegalArgumentException("seq must not be negative");
        }
        if (epoch == null) {
            throw new IllegalArgumentException("epoch must not be null (use \"\")");
        }
    }

    /**
     * Whether anything was received, so that a stream opened from here asks to resume.
     *
     * @return true when {@code seq} is above 0
     */
    public boolean started() {
        return seq > 0;
    }
}
