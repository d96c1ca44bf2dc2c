package io.calabresella.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.calabresella.v1.ObserveRequest;
import io.calabresella.v1.Update;
import io.grpc.Status;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Sequence continuity, and what a reopened stream asks for. */
class StreamTest {
    @Test
    void numbersMustGrowByOneAndASnapshotResets() {
        StreamCursor c = new StreamCursor("seat 0", ResumePoint.START);
        c.accept(Fake.snapshot(5, "a", null));
        c.accept(Fake.update(6, "a"));
        assertEquals(new ResumePoint(6, "a"), c.point());
        StreamOrderException gap = assertThrows(StreamOrderException.class, () -> c.accept(Fake.update(8, "a")));
        assertEquals("STREAM_ORDER", gap.reason());
        assertThrows(StreamOrderException.class, () -> c.accept(Fake.update(6, "a")), "a repeat");
        c.accept(Fake.snapshot(2, "b", null));
        assertEquals(new ResumePoint(2, "b"), c.point(), "a snapshot's number is the new last");
        c.accept(Fake.update(3, "b"));
    }

    @Test
    void aDroppedStreamResumesAfterTheLastUpdateWithItsEpoch() throws Exception {
        try (Fake f = new Fake(Duration.ofSeconds(5))) {
            f.observes.add(new Fake.Script(List.of(Fake.snapshot(1, "e1", null), Fake.update(2, "e1")),
                    Status.UNAVAILABLE));
            f.observes.add(new Fake.Script(List.of(), Status.OK)); // ended without MatchEnded
            f.observes.add(new Fake.Script(List.of(Fake.update(3, "e1"), Fake.ended(4, "e1")), Status.OK));
            Seat seat = f.client.seat("t", 0, "tok");
            List<Long> seqs = new ArrayList<>();
            try (UpdateStream s = seat.observe()) {
                s.forEachRemaining(u -> seqs.add(u.getSeq()));
                assertEquals(1, s.reconnects(), "one outage (a stream that ended empty included)");
            }
            assertEquals(List.of(1L, 2L, 3L, 4L), seqs);
            ObserveRequest first = f.observeRequests.get(0);
            assertFalse(first.hasResumeAfter(), "a first stream does not resume");
            assertEquals("tok", first.getSeatToken());
            for (ObserveRequest again : f.observeRequests.subList(1, 3)) {
                assertEquals(2, again.getResumeAfter());
                assertEquals("e1", again.getStreamEpoch());
            }
        }
    }

    @Test
    void reconnectsCountOutagesNotTries() throws Exception {
        try (Fake f = new Fake(Duration.ofSeconds(5))) {
            f.observes.add(new Fake.Script(List.of(Fake.snapshot(1, "e", null), Fake.update(2, "e")),
                    Status.UNAVAILABLE));
            for (int i = 0; i < 4; i++) {
                f.observes.add(new Fake.Script(List.of(), Status.UNAVAILABLE)); // the server is down
            }
            f.observes.add(new Fake.Script(List.of(Fake.update(3, "e")), Status.UNAVAILABLE));
            f.observes.add(new Fake.Script(List.of(Fake.ended(4, "e")), Status.OK));
            try (UpdateStream s = f.client.seat("t", 0, "tok").observe()) {
                s.forEachRemaining(u -> { });
                assertEquals(2, s.reconnects(), "two outages, seven opens");
            }
            assertEquals(7, f.observeRequests.size());
        }
    }

    @Test
    void retriesOfTheFirstOpenAreNoReconnect() throws Exception {
        try (Fake f = new Fake(Duration.ofSeconds(5))) {
            f.observes.add(new Fake.Script(List.of(), Status.UNAVAILABLE));
            f.observes.add(new Fake.Script(List.of(), Status.UNAVAILABLE));
            f.observes.add(new Fake.Script(List.of(Fake.snapshot(1, "e", null), Fake.ended(2, "e")), Status.OK));
            try (UpdateStream s = f.client.seat("t", 0, "tok").observe()) {
                s.forEachRemaining(u -> { });
                assertEquals(0, s.reconnects());
            }
            assertEquals(3, f.observeRequests.size());
        }
    }

    @Test
    void aClosedStreamReopenedFromTheSeatResumes() throws Exception {
        try (Fake f = new Fake(Duration.ofSeconds(5))) {
            f.observes.add(new Fake.Script(List.of(Fake.snapshot(7, "e", null), Fake.update(8, "e")), Status.OK));
            f.observes.add(new Fake.Script(List.of(Fake.ended(9, "e")), Status.OK));
            Seat seat = f.client.seat("t", 0, "tok", new ResumePoint(6, "e"));
            try (UpdateStream s = seat.observe()) {
                s.next();
                s.next();
            }
            try (UpdateStream s = seat.observe()) {
                assertEquals(9, s.next().getSeq());
                assertFalse(s.hasNext(), "the stream ends after MatchEnded");
            }
            assertEquals(6, f.observeRequests.get(0).getResumeAfter(), "a saved resume point is used");
            assertEquals(8, f.observeRequests.get(1).getResumeAfter());
        }
    }

    @Test
    void aGapFailsTheStream() throws Exception {
        try (Fake f = new Fake(Duration.ofSeconds(5))) {
            f.observes.add(new Fake.Script(List.of(Fake.snapshot(1, "e", null), Fake.update(3, "e")), Status.OK));
            UpdateStream s = f.client.seat("t", 0, "tok").observe();
            assertEquals(1, s.next().getSeq());
            assertThrows(StreamOrderException.class, s::next);
            assertTrue(s.isClosed());
        }
    }

    @Test
    void aRefusedStreamFailsWithTheReasonAndIsNotReopened() throws Exception {
        try (Fake f = new Fake(Duration.ofSeconds(5))) {
            f.observes.add(new Fake.Script(List.of(), Status.fromThrowable(
                    Fake.error(Status.Code.PERMISSION_DENIED, "BAD_TOKEN"))));
            UpdateStream s = f.client.seat("t", 0, "bad").observe();
            CalabresellaException e = assertThrows(CalabresellaException.class, s::hasNext);
            assertEquals(Status.Code.PERMISSION_DENIED, e.code());
            assertEquals(1, f.observeRequests.size());
        }
    }

    @Test
    void anOutageLongerThanTheWindowIsConnectionLost() throws Exception {
        try (Fake f = new Fake(Duration.ofMillis(300))) {
            UpdateStream s = f.client.seat("t", 0, "tok").observe();
            long t0 = System.nanoTime();
            ConnectionLostException e = assertThrows(ConnectionLostException.class, s::hasNext);
            assertEquals("CONNECTION_LOST", e.reason());
            assertTrue(System.nanoTime() - t0 < 3_000_000_000L, "gave up at the end of the window");
            assertTrue(f.observeRequests.size() >= 3, "retried meanwhile");
        }
    }

    @Test
    void closingFromAnotherThreadEndsAWaitingStream() throws Exception {
        try (Fake f = new Fake(Duration.ofSeconds(5))) {
            // No script: every open fails UNAVAILABLE, so the stream keeps reopening until closed.
            UpdateStream s = f.client.seat("t", 0, "tok").observe();
            Thread closer = new Thread(() -> {
                try {
                    Thread.sleep(200);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                s.close();
            });
            closer.start();
            Update none = s.hasNext() ? s.next() : null;
            closer.join();
            assertEquals(null, none);
        }
    }

    @Test
    void interruptingTheWaitingThreadCancels() throws Exception {
        try (Fake f = new Fake(Duration.ofSeconds(5))) {
            Throwable[] got = {null};
            Thread player = new Thread(() -> {
                try {
                    f.client.seat("t", 0, "tok").play(Bot.firstLegal());
                } catch (RuntimeException e) {
                    got[0] = e;
                }
            });
            player.start();
            Thread.sleep(200);
            player.interrupt();
            player.join(5000);
            assertTrue(got[0] instanceof java.util.concurrent.CancellationException, String.valueOf(got[0]));
        }
    }

    @Test
    void closingTheClientCancelsPlay() throws Exception {
        try (Fake f = new Fake(Duration.ofSeconds(5))) {
            Throwable[] got = {null};
            Thread player = new Thread(() -> {
                try {
                    f.client.seat("t", 0, "tok").play(Bot.firstLegal());
                } catch (RuntimeException e) {
                    got[0] = e;
                }
            });
            player.start();
            Thread.sleep(200);
            f.client.close();
            player.join(5000);
            assertTrue(got[0] instanceof java.util.concurrent.CancellationException, String.valueOf(got[0]));
        }
    }
}
