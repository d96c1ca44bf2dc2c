package io.calabresella.client;

import com.google.protobuf.Any;
import com.google.rpc.ErrorInfo;
import io.calabresella.v1.ActRequest;
import io.calabresella.v1.ActResponse;
import io.calabresella.v1.Action;
import io.calabresella.v1.GetObservationRequest;
import io.calabresella.v1.GetObservationResponse;
import io.calabresella.v1.GetTableRequest;
import io.calabresella.v1.GetTableResponse;
import io.calabresella.v1.MatchEnded;
import io.calabresella.v1.ObserveRequest;
import io.calabresella.v1.ObserveResponse;
import io.calabresella.v1.Snapshot;
import io.calabresella.v1.TableServiceGrpc;
import io.calabresella.v1.Turn;
import io.calabresella.v1.Update;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.grpc.protobuf.StatusProto;
import io.grpc.stub.StreamObserver;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.List;
import java.util.function.Function;

/**
 * An in-process fake of the server: each Observe, Act and GetObservation call is answered by the
 * next scripted handler (GetTable always fails UNAVAILABLE, a server going away), and every
 * request is kept for the test to inspect.
 */
final class Fake implements AutoCloseable {
    /** What one Observe call does: sends these updates, then ends with this status. */
    record Script(List<Update> updates, Status end) {}

    final Deque<Script> observes = new ArrayDeque<>();
    final Deque<Function<ActRequest, Object>> acts = new ArrayDeque<>();
    final List<ObserveRequest> observeRequests = Collections.synchronizedList(new ArrayList<>());
    final List<ActRequest> actRequests = Collections.synchronizedList(new ArrayList<>());
    /** GetObservation answers: a response, or a StatusRuntimeException; none left: UNAVAILABLE. */
    final Deque<Object> observations = new ArrayDeque<>();
    final List<GetObservationRequest> observationRequests = Collections.synchronizedList(new ArrayList<>());
    final List<GetTableRequest> tableRequests = Collections.synchronizedList(new ArrayList<>());
    private final Server server;
    final CalabresellaClient client;

    Fake(Duration reconnectFor) throws IOException {
        String name = InProcessServerBuilder.generateName();
        server = InProcessServerBuilder.forName(name).addService(new Service()).build().start();
        ManagedChannel channel = InProcessChannelBuilder.forName(name).build();
        client = CalabresellaClient.over(channel, new RetryPolicy(reconnectFor, RetryPolicy.MAX_REFUSALS));
    }

    /** The status a refusal of the server carries: code, ErrorInfo reason, message. */
    static StatusRuntimeException error(Status.Code code, String reason) {
        com.google.rpc.Status s = com.google.rpc.Status.newBuilder()
                .setCode(code.value())
                .setMessage("refused: " + reason)
                .addDetails(Any.pack(ErrorInfo.newBuilder().setReason(reason).setDomain("calabresella.v1").build()))
                .build();
        return StatusProto.toStatusRuntimeException(s);
    }

    static Update update(long seq, String epoch) {
        return Update.newBuilder().setSeq(seq).setStreamEpoch(epoch).setHandStarted(
                io.calabresella.v1.HandStarted.getDefaultInstance()).build();
    }

    static Update snapshot(long seq, String epoch, Turn turn) {
        Snapshot.Builder s = Snapshot.newBuilder();
        if (turn != null) {
            s.setTurn(turn);
        }
        return Update.newBuilder().setSeq(seq).setStreamEpoch(epoch).setSnapshot(s).build();
    }

    static Update turn(long seq, String epoch, Turn turn) {
        return Update.newBuilder().setSeq(seq).setStreamEpoch(epoch).setTurn(turn).build();
    }

    static Update ended(long seq, String epoch) {
        return Update.newBuilder().setSeq(seq).setStreamEpoch(epoch)
                .setMatchEnded(MatchEnded.getDefaultInstance()).build();
    }

    /** A turn of seat 0 with these legal actions. */
    static Turn turnOf(long decision, String... legal) {
        Turn.Builder t = Turn.newBuilder().setDecision(decision).setActor(0).setDecider(0);
        for (String n : legal) {
            t.addLegalActions(Action.newBuilder().setNotation(n));
        }
        return t.build();
    }

    static ActResponse ok(ActRequest r) {
        return ActResponse.newBuilder().setAction(r.getAction()).build();
    }

    @Override
    public void close() {
        client.close();
        server.shutdownNow();
    }

    private final class Service extends TableServiceGrpc.TableServiceImplBase {
        @Override
        public void observe(ObserveRequest request, StreamObserver<ObserveResponse> out) {
            observeRequests.add(request);
            Script s = observes.poll();
            if (s == null) {
                out.onError(Status.UNAVAILABLE.withDescription("no more scripts").asRuntimeException());
                return;
            }
            for (Update u : s.updates()) {
                out.onNext(ObserveResponse.newBuilder().setUpdate(u).build());
            }
            if (s.end().isOk()) {
                out.onCompleted();
            } else {
                out.onError(s.end().asRuntimeException());
            }
        }

        @Override
        public void getObservation(GetObservationRequest request, StreamObserver<GetObservationResponse> out) {
            observationRequests.add(request);
            Object r = observations.poll();
            if (r == null) {
                out.onError(Status.UNAVAILABLE.withDescription("no more observations").asRuntimeException());
            } else if (r instanceof StatusRuntimeException e) {
                out.onError(e);
            } else {
                out.onNext((GetObservationResponse) r);
                out.onCompleted();
            }
        }

        @Override
        public void getTable(GetTableRequest request, StreamObserver<GetTableResponse> out) {
            tableRequests.add(request);
            out.onError(Status.UNAVAILABLE.withDescription("the server is going away").asRuntimeException());
        }

        @Override
        public void act(ActRequest request, StreamObserver<ActResponse> out) {
            actRequests.add(request);
            Function<ActRequest, Object> h = acts.poll();
            Object r = h == null ? ok(request) : h.apply(request);
            if (r instanceof StatusRuntimeException e) {
                out.onError(e);
            } else {
                out.onNext((ActResponse) r);
                out.onCompleted();
            }
        }
    }
}
