package io.calabresella.client;

import com.google.protobuf.ByteString;
import io.calabresella.v1.ActRequest;
import io.calabresella.v1.ActResponse;
import io.calabresella.v1.Action;
import io.calabresella.v1.GetObservationRequest;
import io.calabresella.v1.GetObservationResponse;
import io.calabresella.v1.ObserveRequest;
import io.calabresella.v1.ObserveResponse;
import io.calabresella.v1.Table;
import io.calabresella.v1.Update;
import java.util.Iterator;
import java.util.Optional;

/**
 * A joined seat: the table, the seat number and its secret token, and where the seat's stream
 * stands. Make one with {@link CalabresellaClient#join} or, to carry on after the program
 * restarted, {@link CalabresellaClient#seat} from the saved table id, seat and token.
 *
 * <p>The seat remembers the last update its streams delivered, so {@link #observe()} after a
 * closed or broken stream resumes right after it ({@code resume_after} and
 * {@code stream_epoch}). Open one stream of a seat handle at a time (the streams share that
 * point); calls may be made from several threads, and a stream is read by one.
 */
public final class Seat {
    private final Connection connection;
    private final String tableId;
    private final int number;
    private final String token;
    private final StreamCursor cursor;
    private final Table table;
    private final ByteString entropy;

    Seat(Connection connection, String tableId, int number, String token, ResumePoint start) {
        this(connection, tableId, number, token, start, null, ByteString.EMPTY);
    }

    Seat(Connection connection, String tableId, int number, String token, ResumePoint start, Table table,
            ByteString entropy) {
        this.connection = connection;
        this.tableId = tableId;
        this.number = number;
        this.token = token;
        this.cursor = new StreamCursor("table " + tableId + " seat " + number, start);
        this.table = table;
        this.entropy = entropy;
    }

    /**
     * The table as {@code JoinTable} returned it (its {@code getDealScheme()},
     * {@code getCommitment()} and {@code getSeeded()} say how it deals); empty for a handle made
     * with {@link CalabresellaClient#seat}.
     *
     * @return the table
     */
    public Optional<Table> table() {
        return Optional.ofNullable(table);
    }

    /**
     * The contribution to the table's deals the join sent (empty for none, and for a handle
     * made with {@link CalabresellaClient#seat}). Once the match starts, {@code GetTable} shows
     * it as the seat's {@code SeatInfo.entropy}, and the record as
     * {@code meta.deals.contributions[seat]} in hex.
     *
     * @return the bytes
     */
    public ByteString entropy() {
        return entropy;
    }

    /**
     * The table's id.
     *
     * @return the id
     */
    public String tableId() {
        return tableId;
    }

    /**
     * The seat number, 0-based in play order.
     *
     * @return the seat
     */
    public int number() {
        return number;
    }

    /**
     * The secret seat token: keep it to make this handle again; the server cannot show it
     * again.
     *
     * @return the token
     */
    public String token() {
        return token;
    }

    /**
     * The last update this seat's streams delivered (save it with the token to resume after a
     * restart of the program).
     *
     * @return the resume point
     */
    public ResumePoint resumePoint() {
        return cursor.point();
    }

    /**
     * Opens the seat's stream, resuming after {@link #resumePoint()} when anything was received.
     * The stream checks continuity and reopens itself after a drop (see {@link UpdateStream}).
     *
     * @return the stream; close it when done
     */
    public UpdateStream observe() {
        return new UpdateStream(connection, cursor, this::openObserve);
    }

    private Iterator<Update> openObserve(ResumePoint from) {
        ObserveRequest.Builder r = ObserveRequest.newBuilder()
                .setTableId(tableId)
                .setSeatToken(token)
                .setStreamEpoch(from.epoch());
        if (from.started()) {
            r.setResumeAfter(from.seq());
        }
        Iterator<ObserveResponse> it = connection.streamStub().observe(r.build());
        return new Iterator<>() {
            @Override
            public boolean hasNext() {
                return it.hasNext();
            }

            @Override
            public Update next() {
                return it.next().getUpdate();
            }
        };
    }

    /**
     * Answers a decision. The call is idempotent, so it is sent again while it fails on the
     * transport, on UNAVAILABLE or on RESOURCE_EXHAUSTED with reason RATE_LIMITED, pausing 50 ms
     * doubling to 1 s, for at most the policy's outage window; the retry of an answer that
     * arrived returns OK with {@code duplicate} set.
     *
     * @param decision the turn's {@code decision}
     * @param action the action, in any form the server accepts
     * @return the action as applied, and whether it was a duplicate
     * @throws CalabresellaException when the server refuses it (such as ABORTED
     *     STALE_DECISION, FAILED_PRECONDITION ILLEGAL_ACTION)
     * @throws ConnectionLostException when the server stayed unreachable for the window
     */
    public ActResponse act(long decision, Action action) {
        ActRequest r = ActRequest.newBuilder()
                .setTableId(tableId)
                .setSeatToken(token)
                .setDecision(decision)
                .setAction(action)
                .build();
        return connection.retrying("an answer could not be delivered", s -> s.act(r));
    }

    /**
     * Answers a decision with an action in the notation ({@code "play 4c"}); see
     * {@link #act(long, Action)}.
     *
     * @param decision the turn's {@code decision}
     * @param notation the action's notation
     * @return the action as applied, and whether it was a duplicate
     */
    public ActResponse act(long decision, String notation) {
        return act(decision, Actions.notation(notation));
    }

    /**
     * The seat's full observation now, with the number of the decision due. Sent once, as every
     * call but {@code act}: it fails at once with UNAVAILABLE when the server cannot be reached.
     * (A bot's {@link Decision#observation()} rides out an outage, as play does.)
     *
     * @return the observation response
     */
    public GetObservationResponse observation() {
        return connection.once(s -> s.getObservation(observationRequest()));
    }

    /**
     * The observation for the play loop's bot: retried through an outage like the answer that
     * follows it, so that a short outage in mid-decision does not stop play (the Rust client's
     * play loop does the same).
     */
    GetObservationResponse observationRetrying() {
        GetObservationRequest r = observationRequest();
        return connection.retrying("the observation could not be fetched", s -> s.getObservation(r));
    }

    private GetObservationRequest observationRequest() {
        return GetObservationRequest.newBuilder()
                .setTableId(tableId)
                .setSeatToken(token)
                .build();
    }

    /**
     * Plays the seat to the end of the match with {@code bot}, on the calling thread: follows
     * the stream in order (resuming after drops and server restarts), asks the bot once per
     * decision due at this seat, and answers. A refused answer (INVALID_ARGUMENT, or
     * FAILED_PRECONDITION ILLEGAL_ACTION) is asked again with the refusal; after
     * {@link RetryPolicy#maxRefusals()} refusals the first legal action is played and counted as
     * a fault. Other refusals (NOT_YOUR_TURN, MATCH_OVER, ABORTED STALE_DECISION...) mean the
     * stream will say what happened. Stop it by interrupting the thread or closing the client
     * ({@link java.util.concurrent.CancellationException}).
     *
     * @param bot the player
     * @return the MatchEnded, decisions made, faults and reconnects
     * @throws CalabresellaException when the server refuses the seat for good
     * @throws ConnectionLostException after an outage longer than the policy's window
     */
    public PlayReport play(Bot bot) {
        return new PlayLoop(this, bot, connection.policy).run();
    }
}
