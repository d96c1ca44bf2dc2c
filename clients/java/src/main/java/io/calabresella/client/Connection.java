package io.calabresella.client;

import io.calabresella.v1.TableServiceGrpc;
import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;
import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * The channel, its stubs and the retry policy, shared by a client and the seats and streams it
 * makes. Every call goes through here, so cancellation (an interrupt, or the client closed) and
 * the outage window are handled in one place.
 */
final class Connection {
    final ManagedChannel channel;
    final RetryPolicy policy;
    private final TableServiceGrpc.TableServiceBlockingStub stub;

    Connection(ManagedChannel channel, RetryPolicy policy) {
        this.channel = channel;
        this.policy = policy;
        this.stub = TableServiceGrpc.newBlockingStub(channel);
    }

    /**
     * A stub for one call, with a deadline of the outage window so that a host that drops
     * packets cannot block the caller for ever (the Rust client's call limit).
     */
    TableServiceGrpc.TableServiceBlockingStub stub() {
        long ms = Math.max(1000L, policy.reconnectFor().toMillis());
        return stub.withDeadlineAfter(ms, TimeUnit.MILLISECONDS);
    }

    /** The stub without a deadline, for streams. */
    TableServiceGrpc.TableServiceBlockingStub streamStub() {
        return stub;
    }

    /** Runs one call, turning its failure into a typed error (or a cancellation). */
    <T> T once(Function<TableServiceGrpc.TableServiceBlockingStub, T> call) {
        checkCancelled();
        try {
            return call.apply(stub());
        } catch (StatusRuntimeException e) {
            throw failure(e);
        }
    }

    /**
     * Runs an idempotent call, sending it again while it fails for a retryable reason, within
     * the outage window.
     *
     * @param what what the call does, for the give-up message
     */
    <T> T retrying(String what, Function<TableServiceGrpc.TableServiceBlockingStub, T> call) {
        Outage outage = new Outage(this);
        while (true) {
            try {
                return once(call);
            } catch (CalabresellaException e) {
                if (!Failures.retryable(e)) {
                    throw e;
                }
                outage.waitOrGiveUp(what, e);
            }
        }
    }

    /** The typed error of a failed call; a cancellation when the caller stopped it. */
    CalabresellaException failure(Throwable e) {
        checkCancelled();
        return CalabresellaException.from(e);
    }

    /**
     * Throws {@link CancellationException} when the calling thread was interrupted (the flag is
     * kept) or the client was closed: then no retry may hide the stop.
     */
    void checkCancelled() {
        if (Thread.currentThread().isInterrupted()) {
            throw new CancellationException("interrupted");
        }
        if (channel.isShutdown()) {
            throw new CancellationException("the client is closed");
        }
    }

    /** Sleeps, turning an interrupt into a cancellation (the flag is kept). */
    void sleep(Duration d) {
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CancellationException("interrupted");
        }
    }

    /** One outage: when it began, and how many retries it has had. */
    static final class Outage {
        private final Connection connection;
        private long since = -1;
        private int retries;

        Outage(Connection connection) {
            this.connection = connection;
        }

        /** Ends the outage: the connection works again. */
        void reset() {
            since = -1;
            retries = 0;
        }

        /**
         * Waits before the next retry, or throws {@link ConnectionLostException} when the window
         * has closed. The wait never goes past the end of the window, so play gives up when the
         * window closes, not a backoff later.
         */
        void waitOrGiveUp(String what, Throwable last) {
            long now = System.nanoTime();
            if (since < 0) {
                since = now;
            }
            long window = connection.policy.reconnectFor().toNanos();
            long left = since + window - now;
            if (left <= 0) {
                throw new ConnectionLostException(
                        what + " for " + connection.policy.reconnectFor().toSeconds() + " s: "
                                + last.getMessage(),
                        last);
            }
            Duration pause = RetryPolicy.backoff(retries++);
            connection.sleep(pause.toNanos() < left ? pause : Duration.ofNanos(left));
            // The channel has its own, slower reconnect backoff (up to 2 minutes): the policy's
            // pauses decide when to try again, so ask the channel to connect now.
            connection.channel.resetConnectBackoff();
        }
    }
}
