package io.calabresella.client;

import io.calabresella.v1.Update;
import io.grpc.Context;
import io.grpc.StatusRuntimeException;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.function.Function;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

/**
 * A seat's or the public stream of updates, in order, as a blocking iterator.
 *
 * <p>Each update is checked to carry the last sequence number plus one (a {@code Snapshot}
 * resets the numbering); a gap throws {@link StreamOrderException}. When the stream breaks
 * (a dropped connection, a server restart, a slow-consumer cut) it is opened again with
 * {@code resume_after} and {@code stream_epoch} of the last update, pausing 50 ms doubling to
 * 1 s, for at most the policy's outage window; then {@link ConnectionLostException}. Any other
 * refusal is thrown as a {@link CalabresellaException}. The iteration ends after
 * {@code MatchEnded}.
 *
 * <p>Cancel it with {@link #close()} (from any thread: a waiting {@link #hasNext()} then
 * returns false) or by interrupting the thread that waits in it, which gets a
 * {@link java.util.concurrent.CancellationException} with its interrupt flag kept. Use one
 * thread to iterate.
 */
public final class UpdateStream implements Iterator<Update>, AutoCloseable {
    private final Connection connection;
    private final StreamCursor cursor;
    private final Function<ResumePoint, Iterator<Update>> opener;
    private final Connection.Outage outage;
    private volatile boolean closed;
    private volatile Context.CancellableContext context;
    private Iterator<Update> current;
    private Update next;
    private boolean ended;
    private int reconnects;
    /** Whether this stream has delivered an update: only then is reopening it a reconnect. */
    private boolean delivered;
    /** Whether the call broke since the last update arrived (one outage, however many tries). */
    private boolean dropped;

    /**
     * A stream that opens its calls with {@code opener} (given the point to resume after) and
     * checks them with {@code cursor}. Nothing is sent until the first {@link #hasNext()}.
     */
    UpdateStream(Connection connection, StreamCursor cursor, Function<ResumePoint, Iterator<Update>> opener) {
        this.connection = connection;
        this.cursor = cursor;
        this.opener = opener;
        this.outage = new Connection.Outage(connection);
    }

    /**
     * Waits for the next update. Returns false after {@code MatchEnded}, or once the stream is
     * closed.
     *
     * @throws CalabresellaException when the server refuses the stream for good
     * @throws ConnectionLostException when it stayed unreachable for the outage window
     * @throws java.util.concurrent.CancellationException when the waiting thread is interrupted
     */
    @Override
    public boolean hasNext() {
        if (next != null) {
            return true;
        }
        while (!ended && !closed) {
            CalabresellaException failure;
            try {
                if (current == null) {
                    current = open();
                }
                if (current.hasNext()) {
                    next = current.next();
                    // One reconnect per outage, counted when a reopened call delivers: failed
                    // tries are not reconnects, nor is a first open that needed retries.
                    if (dropped && delivered) {
                        reconnects++;
                    }
                    dropped = false;
                    delivered = true;
                    return true;
                }
                failure = new CalabresellaException(io.grpc.Status.Code.UNAVAILABLE, "",
                        "the stream ended before MatchEnded", null);
            } catch (StatusRuntimeException e) {
                if (closed) {
                    break;
                }
                try {
                    failure = connection.failure(e);
                } catch (RuntimeException cancelled) {
                    drop();
                    throw cancelled;
                }
                if (!Failures.transientStream(failure)) {
                    close();
                    throw failure;
                }
            }
            drop();
            dropped = true;
            try {
                outage.waitOrGiveUp("the stream broke, and no stream could be opened", failure);
            } catch (RuntimeException e) {
                close();
                throw e;
            }
        }
        return false;
    }

    /**
     * The next update, checked for continuity and recorded as the point to resume after.
     *
     * @throws NoSuchElementException after the last update
     * @throws StreamOrderException when its number is not the last one plus one
     */
    @Override
    public Update next() {
        if (!hasNext()) {
            throw new NoSuchElementException("the stream is over");
        }
        Update u = next;
        next = null;
        try {
            cursor.accept(u);
        } catch (StreamOrderException e) {
            close();
            throw e;
        }
        outage.reset();
        if (u.getKindCase() == Update.KindCase.MATCH_ENDED) {
            ended = true;
            drop();
        }
        return u;
    }

    /**
     * The updates as a sequential {@link Stream}; closing it closes this stream.
     *
     * @return the remaining updates
     */
    public Stream<Update> stream() {
        Spliterator<Update> s = Spliterators.spliteratorUnknownSize(this, Spliterator.ORDERED | Spliterator.NONNULL);
        return StreamSupport.stream(s, false).onClose(this::close);
    }

    /**
     * Where the stream stands: the last update taken with {@link #next()}.
     *
     * @return the resume point
     */
    public ResumePoint resumePoint() {
        return cursor.point();
    }

    /**
     * How many times the stream was opened again after a drop: one per outage, counted when the
     * reopened stream delivers its first update (however many tries it took; retries of the
     * first open are not counted).
     *
     * @return the count
     */
    public int reconnects() {
        return reconnects;
    }

    /**
     * Whether {@link #close()} was called (or a failure closed the stream).
     *
     * @return true once closed
     */
    public boolean isClosed() {
        return closed;
    }

    /** Cancels the call on the client side; safe from any thread, and more than once. */
    @Override
    public void close() {
        closed = true;
        Context.CancellableContext ctx = context;
        if (ctx != null) {
            ctx.cancel(null);
        }
    }

    /** Opens the call inside a context of its own, so that cancelling it ends only this call. */
    private Iterator<Update> open() {
        connection.checkCancelled();
        Context.CancellableContext ctx = Context.current().withCancellation();
        context = ctx;
        if (closed) {
            ctx.cancel(null);
        }
        Context previous = ctx.attach();
        try {
            return opener.apply(cursor.point());
        } finally {
            ctx.detach(previous);
        }
    }

    /** Cancels the current call, if any. */
    private void drop() {
        current = null;
        Context.CancellableContext ctx = context;
        if (ctx != null) {
            ctx.cancel(null);
        }
    }
}
