package io.calabresella.client;

import io.grpc.Status;

/**
 * The server stayed unreachable longer than the retry policy allows (code {@code UNAVAILABLE},
 * reason {@link CalabresellaException#CONNECTION_LOST}); the cause is the last failure seen.
 */
public final class ConnectionLostException extends CalabresellaException {
    private static final long serialVersionUID = 1L;

    /**
     * An outage that outlasted the policy.
     *
     * @param message what could not be done, and for how long it was tried
     * @param cause the last failure
     */
    public ConnectionLostException(String message, Throwable cause) {
        super(Status.Code.UNAVAILABLE, CONNECTION_LOST, message, cause);
    }
}
