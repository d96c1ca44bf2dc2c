package io.calabresella.client;

import io.grpc.Status;

/**
 * What a failure means for the caller: try again, open the stream again, ask the bot again, or
 * give up. The classification is the Rust client's ({@code play.rs}), so every client rides out
 * the same outages and gives up on the same refusals.
 */
final class Failures {
    private Failures() {}

    /**
     * Whether a failed unary call may succeed when simply sent again: the server is unreachable
     * or restarting, the connection broke under the call, the call timed out, or the caller went
     * over its rate. The server's own refusals are final.
     */
    static boolean retryable(CalabresellaException e) {
        return switch (e.code()) {
            case UNAVAILABLE, CANCELLED, DEADLINE_EXCEEDED -> true;
            // UNKNOWN with a cause is a transport error; the server never sends UNKNOWN itself.
            case UNKNOWN -> e.getCause() != null && e.getCause().getCause() != null;
            case RESOURCE_EXHAUSTED -> "RATE_LIMITED".equals(e.reason());
            default -> false;
        };
    }

    /**
     * Whether a stream that failed may simply be opened again: the server is unreachable or
     * restarting, cut a slow consumer, or the connection broke.
     */
    static boolean transientStream(CalabresellaException e) {
        return switch (e.code()) {
            case UNAVAILABLE, UNKNOWN, INTERNAL, RESOURCE_EXHAUSTED, CANCELLED, DEADLINE_EXCEEDED ->
                true;
            default -> false;
        };
    }

    /**
     * Whether the server refused an answer itself (malformed, or not legal now), so that another
     * answer may do. The other failed preconditions (the match is over, the turn passed) are
     * settled by what the stream says next.
     */
    static boolean refusal(CalabresellaException e) {
        return e.code() == Status.Code.INVALID_ARGUMENT
                || (e.code() == Status.Code.FAILED_PRECONDITION && "ILLEGAL_ACTION".equals(e.reason()));
    }

    /**
     * Whether a failed answer means "wait for the stream": the clock answered first or the
     * decision was answered differently (ABORTED), or the match moved on (NOT_YOUR_TURN,
     * MATCH_OVER...).
     */
    static boolean settledElsewhere(CalabresellaException e) {
        return e.code() == Status.Code.ABORTED || e.code() == Status.Code.FAILED_PRECONDITION;
    }
}
