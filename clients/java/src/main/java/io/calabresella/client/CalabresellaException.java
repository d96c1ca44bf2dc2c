package io.calabresella.client;

import com.google.rpc.ErrorInfo;
import io.grpc.Status;
import io.grpc.StatusException;
import io.grpc.StatusRuntimeException;
import io.grpc.protobuf.StatusProto;

/**
 * A call the server refused, or a failure of the connection: the gRPC status code, the
 * {@code google.rpc.ErrorInfo} reason the server attaches to every error (such as
 * {@code STALE_DECISION} or {@code BAD_TOKEN}; empty when there is none) and the message.
 * Programs branch on {@link #code()} and {@link #reason()}, never on the message.
 */
public class CalabresellaException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** The reason of a stream whose sequence numbers skipped or went back (client-side). */
    public static final String STREAM_ORDER = "STREAM_ORDER";
    /** The reason of an outage longer than the retry policy allows (client-side). */
    public static final String CONNECTION_LOST = "CONNECTION_LOST";
    /**
     * The reason of a bot's observation fetched after its decision passed (client-side; see
     * {@link DecisionPassedException}).
     */
    public static final String DECISION_PASSED = "DECISION_PASSED";

    /** The ErrorInfo domain of the server's own reasons. */
    public static final String DOMAIN = "calabresella.v1";

    private final Status.Code code;
    private final String reason;

    /**
     * An error with this code, reason and message.
     *
     * @param code the gRPC status code
     * @param reason the ErrorInfo reason, or "" when there is none
     * @param message what went wrong, for people
     * @param cause the underlying failure, or null
     */
    public CalabresellaException(Status.Code code, String reason, String message, Throwable cause) {
        super(message, cause);
        this.code = code;
        this.reason = reason == null ? "" : reason;
    }

    /**
     * The error a failed gRPC call raised, with the ErrorInfo reason decoded from the
     * {@code grpc-status-details-bin} trailer.
     *
     * @param failure a {@link StatusRuntimeException} or {@link StatusException} (anything
     *     else becomes {@code UNKNOWN})
     * @return the typed error (the same object when it already is one)
     */
    public static CalabresellaException from(Throwable failure) {
        if (failure instanceof CalabresellaException e) {
            return e;
        }
        Status status = Status.fromThrowable(failure);
        String reason = reasonOf(failure);
        String description = status.getDescription();
        String message = status.getCode() + (reason.isEmpty() ? "" : " " + reason)
                + (description == null || description.isEmpty() ? "" : ": " + description)
                + transportCause(status);
        return new CalabresellaException(status.getCode(), reason, message, failure);
    }

    /**
     * Why the transport failed, when it did (UNAVAILABLE with an exception under it, such as a
     * TLS handshake's: "io exception" alone says nothing): " (the innermost cause's message)".
     */
    private static String transportCause(Status status) {
        Throwable root = status.getCause();
        if (status.getCode() != Status.Code.UNAVAILABLE || root == null) {
            return "";
        }
        for (int depth = 0; root.getCause() != null && root.getCause() != root && depth < 10; depth++) {
            root = root.getCause();
        }
        String why = root.getMessage();
        return why == null || why.isEmpty() ? "" : " (" + why + ")";
    }

    /** The ErrorInfo reason in a failure's status details ("" without one). */
    static String reasonOf(Throwable failure) {
        com.google.rpc.Status details = StatusProto.fromThrowable(failure);
        if (details == null) {
            return "";
        }
        for (com.google.protobuf.Any any : details.getDetailsList()) {
            if (any.is(ErrorInfo.class)) {
                try {
                    return any.unpack(ErrorInfo.class).getReason();
                } catch (com.google.protobuf.InvalidProtocolBufferException e) {
                    // A malformed detail is no reason: fall through to the next one.
                }
            }
        }
        return "";
    }

    /**
     * The gRPC status code.
     *
     * @return the code, such as {@code FAILED_PRECONDITION}
     */
    public Status.Code code() {
        return code;
    }

    /**
     * The ErrorInfo reason: one of the upper-case reasons the proto lists on each RPC, or
     * {@link #STREAM_ORDER} / {@link #CONNECTION_LOST} / {@link #DECISION_PASSED} for the
     * client's own failures.
     *
     * @return the reason, "" when the status carried none
     */
    public String reason() {
        return reason;
    }
}
