package io.calabresella.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import io.calabresella.v1.Assignment;
import io.calabresella.v1.CompeteRequest;
import io.calabresella.v1.CompeteResponse;
import io.calabresella.v1.CreateTableRequest;
import io.calabresella.v1.CreateTableResponse;
import io.calabresella.v1.JoinTableRequest;
import io.calabresella.v1.JoinTableResponse;
import io.calabresella.v1.SeekRequest;
import io.calabresella.v1.SeekResponse;
import io.calabresella.v1.Table;
import io.calabresella.v1.TableServiceGrpc;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.grpc.stub.StreamObserver;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The player's contribution to the deals: what join, seek and compete send. */
class EntropyTest {
    /** Records the entropy of every JoinTable, Seek and Compete call. */
    static final class Service extends TableServiceGrpc.TableServiceImplBase {
        final List<ByteString> joins = Collections.synchronizedList(new ArrayList<>());
        final List<ByteString> seeks = Collections.synchronizedList(new ArrayList<>());
        final List<ByteString> competes = Collections.synchronizedList(new ArrayList<>());
        final List<String> keys = Collections.synchronizedList(new ArrayList<>());

        @Override
        public void createTable(CreateTableRequest r, StreamObserver<CreateTableResponse> out) {
            out.onNext(CreateTableResponse.newBuilder()
                    .setTable(Table.newBuilder().setTableId("t-7").setSeeded(r.hasSeed()))
                    .setCreatorKey(r.hasSeed() ? "ab".repeat(16) : "")
                    .build());
            out.onCompleted();
        }

        @Override
        public void joinTable(JoinTableRequest r, StreamObserver<JoinTableResponse> out) {
            joins.add(r.getEntropy());
            keys.add(r.getCreatorKey());
            out.onNext(JoinTableResponse.newBuilder().setSeat(r.getSeat()).setSeatToken("tok")
                    .setTable(Table.newBuilder().setTableId(r.getTableId())
                            .setDealScheme(Entropy.DEAL_SCHEME).setCommitment("ab12"))
                    .build());
            out.onCompleted();
        }

        @Override
        public void seek(SeekRequest r, StreamObserver<SeekResponse> out) {
            seeks.add(r.getEntropy());
            out.onNext(SeekResponse.newBuilder().setSeated(Assignment.newBuilder().setTableId("t-9")).build());
            out.onCompleted();
        }

        @Override
        public void compete(CompeteRequest r, StreamObserver<CompeteResponse> out) {
            competes.add(r.getEntropy());
            out.onNext(CompeteResponse.newBuilder().setAssignment(Assignment.newBuilder().setTableId("t-1")).build());
            out.onCompleted();
        }

        int calls() {
            return joins.size() + seeks.size() + competes.size();
        }
    }

    private final Service service = new Service();
    private Server server;
    private CalabresellaClient client;

    @BeforeEach
    void start() throws Exception {
        String name = InProcessServerBuilder.generateName();
        server = InProcessServerBuilder.forName(name).addService(service).build().start();
        ManagedChannel channel = InProcessChannelBuilder.forName(name).build();
        client = CalabresellaClient.over(channel, new RetryPolicy(Duration.ofSeconds(2), RetryPolicy.MAX_REFUSALS));
    }

    @AfterEach
    void stop() {
        client.close();
        server.shutdownNow();
    }

    /** {@code n} bytes 0, 1, 2... */
    private static byte[] count(int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) i;
        }
        return b;
    }

    private static int drain(Iterator<Assignment> it) {
        int n = 0;
        for (; it.hasNext(); it.next()) {
            n++;
        }
        return n;
    }

    @Test
    void joinSends32FreshRandomBytesByDefault() {
        Seat a = client.join("t-1", null, "me");
        Seat b = client.join("t-1", 1, "me");
        assertEquals(2, service.joins.size());
        assertEquals(Entropy.DEFAULT_BYTES, service.joins.get(0).size());
        assertEquals(Entropy.DEFAULT_BYTES, service.joins.get(1).size());
        assertNotEquals(service.joins.get(0), service.joins.get(1), "two joins sent the same bytes");
        assertEquals(service.joins.get(0), a.entropy());
        assertEquals(service.joins.get(1), b.entropy());
        Table t = a.table().orElseThrow();
        assertEquals(Entropy.DEAL_SCHEME, t.getDealScheme());
        assertEquals("ab12", t.getCommitment());
        assertFalse(t.getSeeded());
        assertTrue(client.seat("t-1", 0, "tok").table().isEmpty());
        assertTrue(client.seat("t-1", 0, "tok").entropy().isEmpty());
    }

    @Test
    void joinSendsTheCallersEntropyAsGiven() {
        byte[] mine = count(Entropy.MAX_BYTES);
        Entropy e = Entropy.of(mine);
        mine[0] = (byte) 0xff; // Entropy.of took a copy
        Seat seat = client.join("t-1", 2, "me", e);
        assertArrayEquals(count(Entropy.MAX_BYTES), service.joins.get(0).toByteArray());
        assertEquals(service.joins.get(0), seat.entropy());
        client.join("t-1", null, "me", Entropy.of(new byte[] {7}));
        assertArrayEquals(new byte[] {7}, service.joins.get(1).toByteArray());
        Seat none = client.join("t-1", null, "me", Entropy.none());
        assertTrue(service.joins.get(2).isEmpty());
        assertTrue(none.entropy().isEmpty());
        client.join("t-1", null, "me", Entropy.random());
        assertEquals(Entropy.DEFAULT_BYTES, service.joins.get(3).size());
    }

    @Test
    void entropyOfTheWrongLengthIsRefusedWithoutACall() {
        InvalidEntropyException over = assertThrows(InvalidEntropyException.class,
                () -> client.join("t-1", null, "me", Entropy.of(count(Entropy.MAX_BYTES + 1))));
        assertEquals(65, over.length());
        assertEquals("entropy holds 65 bytes: it must hold 1 to 64 (or use Entropy.none() to contribute none)",
                over.getMessage());
        assertEquals(0, assertThrows(InvalidEntropyException.class, () -> Entropy.of(new byte[0])).length());
        assertThrows(InvalidEntropyException.class, () -> Entropy.of(ByteString.EMPTY));
        assertThrows(InvalidEntropyException.class,
                () -> client.seek(SeekRequest.newBuilder().setEntropy(ByteString.copyFrom(count(65))).build()));
        assertEquals(0, service.calls(), "a call reached the server");
    }

    @Test
    void seekAndCompeteContribute() {
        SeekRequest plain = SeekRequest.newBuilder().setBotsAfterMs(5).build();
        client.seek(plain);
        client.seek(plain);
        client.seek(SeekRequest.newBuilder().setEntropy(ByteString.copyFrom(new byte[] {1, 2, 3})).build());
        client.seek(SeekRequest.newBuilder().setEntropy(ByteString.copyFrom(new byte[] {1, 2, 3})).build(),
                Entropy.of(new byte[] {9}));
        client.seek(plain, Entropy.none());
        List<ByteString> s = service.seeks;
        assertEquals(Entropy.DEFAULT_BYTES, s.get(0).size());
        assertEquals(Entropy.DEFAULT_BYTES, s.get(1).size());
        assertNotEquals(s.get(0), s.get(1));
        assertArrayEquals(new byte[] {1, 2, 3}, s.get(2).toByteArray());
        assertArrayEquals(new byte[] {9}, s.get(3).toByteArray());
        assertTrue(s.get(4).isEmpty());

        assertEquals(1, drain(client.compete(1)));
        assertEquals(1, drain(client.compete(1, Entropy.of(new byte[] {4, 5}))));
        assertEquals(1, drain(client.compete(1, Entropy.none())));
        List<ByteString> c = service.competes;
        assertEquals(Entropy.DEFAULT_BYTES, c.get(0).size());
        assertArrayEquals(new byte[] {4, 5}, c.get(1).toByteArray());
        assertTrue(c.get(2).isEmpty());
    }

    @Test
    void theChoiceNeverShowsItsBytes() {
        assertEquals("Entropy.random()", Entropy.random().toString());
        assertEquals("Entropy.none()", Entropy.none().toString());
        assertEquals("Entropy.of(3 bytes)", Entropy.of(new byte[] {1, 2, 3}).toString());
    }

    @Test
    void aSeededTablesCreatorKeyComesBackAndJoinPresentsIt() {
        CreateTableResponse created = client.createTableWithKey(NewTable.of("calabresella").seed(5));
        assertTrue(created.getTable().getSeeded());
        assertEquals("ab".repeat(16), created.getCreatorKey());
        assertEquals("t-7", client.createTable(NewTable.of("calabresella")).getTableId());
        client.join("t-7", 0, "ada", Entropy.random(), created.getCreatorKey());
        client.join("t-7", 1, "bob");
        assertEquals(List.of("ab".repeat(16), ""), service.keys);
    }
}
