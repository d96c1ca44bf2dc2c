package io.calabresella.client;

import io.grpc.Status;

/**
 * A stream broke its ordering promise: an update's sequence number was not the last one plus
 * one (code {@code DATA_LOSS}, reason {@link CalabresellaException#STREAM_ORDER}).
 */
public final class StreamOrderException extends CalabresellaException {
    private static final long serialVersionUID = 1L;

    /**
     * A gap or a repeat in a stream.
     *
     * @param message which numbers, on which stream
     */
    public StreamOrderException(String message) {
        super(Status.Code.DATA_LOSS, STREAM_ORDER, message, null);
    }
}
