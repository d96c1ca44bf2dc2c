package io.calabresella.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.calabresella.v1.Assignment;
import io.calabresella.v1.CompeteRequest;
import io.calabresella.v1.CompeteResponse;
import io.calabresella.v1.SeekRequest;
import io.calabresella.v1.SeekResponse;
import io.calabresella.v1.SeekWaiting;
import io.calabresella.v1.TableServiceGrpc;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Server;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.ServerInterceptors;
import io.grpc.Status;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.grpc.stub.StreamObserver;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Compete and Seek: assignments arrive in order, refusals are typed, the key rides along. */
class CompeteTest {
    private static final Metadata.Key<String> AUTH = Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER);

    static final class Service extends TableServiceGrpc.TableServiceImplBase {
        @Override
        public void compete(CompeteRequest r, StreamObserver<CompeteResponse> out) {
            if (r.getMaxTables() > 16) {
                out.onError(Fake.error(Status.Code.INVALID_ARGUMENT, "BAD_COMPETE"));
                return;
            }
            for (String id : List.of("t-1", "t-2")) {
                out.onNext(CompeteResponse.newBuilder()
                        .setAssignment(Assignment.newBuilder().setTableId(id).setSeat(1).setSeatToken("tok-" + id))
                        .build());
            }
            out.onCompleted();
        }

        @Override
        public void seek(SeekRequest r, StreamObserver<SeekResponse> out) {
            out.onNext(SeekResponse.newBuilder().setWaiting(SeekWaiting.newBuilder().setSeekers(1).setNeeded(2)).build());
            out.onNext(SeekResponse.newBuilder().setSeated(Assignment.newBuilder().setTableId("t-9")).build());
            out.onCompleted();
        }
    }

    @Test
    void assignmentsArriveInOrderWithTheKeyOnEveryCall() throws Exception {
        List<String> auth = Collections.synchronizedList(new ArrayList<>());
        ServerInterceptor record = new ServerInterceptor() {
            @Override
            public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
                auth.add(String.valueOf(headers.get(AUTH)));
                return next.startCall(call, headers);
            }
        };
        String name = InProcessServerBuilder.generateName();
        Server server = InProcessServerBuilder.forName(name)
                .addService(ServerInterceptors.intercept(new Service(), record)).build().start();
        ManagedChannel channel = InProcessChannelBuilder.forName(name)
                .intercept(CalabresellaClient.bearer(" cbk_abc ")).build();
        try (CalabresellaClient c = CalabresellaClient.over(channel, new RetryPolicy(Duration.ofSeconds(2), RetryPolicy.MAX_REFUSALS))) {
            List<String> got = new ArrayList<>();
            for (Iterator<Assignment> it = c.compete(2); it.hasNext(); ) {
                Assignment a = it.next();
                got.add(a.getTableId() + "/" + a.getSeatToken());
            }
            assertEquals(List.of("t-1/tok-t-1", "t-2/tok-t-2"), got);
            Iterator<Assignment> bad = c.compete(17);
            CalabresellaException e = assertThrows(CalabresellaException.class, bad::hasNext);
            assertEquals("BAD_COMPETE", e.reason());
            assertEquals("t-9", c.seek(SeekRequest.getDefaultInstance()).getTableId());
            assertEquals(3, auth.size());
            assertFalse(auth.stream().anyMatch(h -> !h.equals("Bearer cbk_abc")), auth.toString());
        } finally {
            server.shutdownNow();
        }
    }
}
