package io.calabresella.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.calabresella.v1.ActResponse;
import io.grpc.Status;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Error decoding (code + ErrorInfo reason) and the retry policy. */
class ErrorsTest {
    @Test
    void theReasonIsDecodedFromTheStatusDetails() {
        CalabresellaException e = CalabresellaException.from(Fake.error(Status.Code.ABORTED, "STALE_DECISION"));
        assertEquals(Status.Code.ABORTED, e.code());
        assertEquals("STALE_DECISION", e.reason());
        assertTrue(e.getMessage().contains("refused: STALE_DECISION"), e.getMessage());
        CalabresellaException plain = CalabresellaException.from(Status.UNAVAILABLE.asRuntimeException());
        assertEquals("", plain.reason(), "no details, no reason");
    }

    @Test
    void aRefusedCallReachesTheCallerTyped() throws Exception {
        try (Fake f = new Fake(Duration.ofSeconds(5))) {
            f.acts.add(r -> Fake.error(Status.Code.FAILED_PRECONDITION, "ILLEGAL_ACTION"));
            CalabresellaException e = assertThrows(CalabresellaException.class,
                    () -> f.client.seat("t", 0, "tok").act(3, "play 4c"));
            assertEquals(Status.Code.FAILED_PRECONDITION, e.code());
            assertEquals("ILLEGAL_ACTION", e.reason());
            assertEquals(1, f.actRequests.size(), "a refusal is not retried");
            assertEquals("play 4c", f.actRequests.get(0).getAction().getNotation());
            assertEquals(3, f.actRequests.get(0).getDecision());
        }
    }

    @Test
    void backoffDoublesToASecond() {
        long[] ms = new long[8];
        for (int n = 0; n < 8; n++) {
            ms[n] = RetryPolicy.backoff(n).toMillis();
        }
        assertEquals("[50, 100, 200, 400, 800, 1000, 1000, 1000]", java.util.Arrays.toString(ms));
    }

    @Test
    void onlyTransientFailuresAreRetried() {
        assertTrue(Failures.retryable(ex(Status.Code.UNAVAILABLE, "")));
        assertTrue(Failures.retryable(ex(Status.Code.RESOURCE_EXHAUSTED, "RATE_LIMITED")));
        assertFalse(Failures.retryable(ex(Status.Code.RESOURCE_EXHAUSTED, "STORE_FULL")));
        for (Status.Code c : new Status.Code[] {Status.Code.INVALID_ARGUMENT, Status.Code.FAILED_PRECONDITION,
                Status.Code.PERMISSION_DENIED, Status.Code.INTERNAL, Status.Code.ABORTED}) {
            assertFalse(Failures.retryable(ex(c, "")), c.name());
        }
        assertTrue(Failures.refusal(ex(Status.Code.INVALID_ARGUMENT, "BAD_ACTION")));
        assertTrue(Failures.refusal(ex(Status.Code.FAILED_PRECONDITION, "ILLEGAL_ACTION")));
        assertFalse(Failures.refusal(ex(Status.Code.FAILED_PRECONDITION, "NOT_YOUR_TURN")));
        assertTrue(Failures.transientStream(ex(Status.Code.RESOURCE_EXHAUSTED, "SLOW_CONSUMER")));
        assertFalse(Failures.transientStream(ex(Status.Code.NOT_FOUND, "TABLE_NOT_FOUND")));
    }

    @Test
    void actIsResentThroughAnOutageAndARateLimit() throws Exception {
        try (Fake f = new Fake(Duration.ofSeconds(5))) {
            f.acts.add(r -> Status.UNAVAILABLE.asRuntimeException());
            f.acts.add(r -> Fake.error(Status.Code.RESOURCE_EXHAUSTED, "RATE_LIMITED"));
            f.acts.add(r -> ActResponse.newBuilder().setAction(r.getAction()).setDuplicate(true).build());
            ActResponse r = f.client.seat("t", 0, "tok").act(1, "pass");
            assertTrue(r.getDuplicate());
            assertEquals(3, f.actRequests.size());
            assertEquals(f.actRequests.get(0), f.actRequests.get(2), "the same request each time");
        }
    }

    @Test
    void actGivesUpAfterTheWindow() throws Exception {
        try (Fake f = new Fake(Duration.ofMillis(200))) {
            for (int i = 0; i < 50; i++) {
                f.acts.add(r -> Status.UNAVAILABLE.asRuntimeException());
            }
            assertThrows(ConnectionLostException.class, () -> f.client.seat("t", 0, "tok").act(1, "pass"));
        }
    }

    @Test
    void readsFailAtOnceWhenTheServerIsDown() throws Exception {
        try (Fake f = new Fake(Duration.ofSeconds(5))) {
            CalabresellaException e = assertThrows(CalabresellaException.class, () -> f.client.getTable("t"));
            assertEquals(Status.Code.UNAVAILABLE, e.code());
            assertFalse(e instanceof ConnectionLostException, "not retried until the window closed");
            assertEquals(1, f.tableRequests.size(), "sent once");
            CalabresellaException o = assertThrows(CalabresellaException.class,
                    () -> f.client.seat("t", 0, "tok").observation());
            assertEquals(Status.Code.UNAVAILABLE, o.code());
            assertEquals(1, f.observationRequests.size(), "sent once");
        }
    }

    @Test
    void aServerNobodyListensOnFailsAtOnce() {
        // Port 1 on the loopback: the connection is refused, so the call fails without waiting.
        try (CalabresellaClient c = CalabresellaClient.connect("127.0.0.1:1")) {
            long t0 = System.nanoTime();
            CalabresellaException e = assertThrows(CalabresellaException.class, () -> c.getTable("t"));
            assertEquals(Status.Code.UNAVAILABLE, e.code());
            assertFalse(e instanceof ConnectionLostException);
            assertTrue(System.nanoTime() - t0 < 10_000_000_000L, "no retry through an outage window");
        }
    }

    private static CalabresellaException ex(Status.Code code, String reason) {
        return CalabresellaException.from(Fake.error(code, reason));
    }
}
