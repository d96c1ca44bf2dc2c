package io.calabresella.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.calabresella.v1.GetObservationResponse;
import io.calabresella.v1.Observation;
import io.calabresella.v1.Update;
import io.grpc.Status;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The play loop: turns answered once, refusals asked again, faults, waiting for the stream. */
class PlayTest {
    @Test
    void afterThreeRefusalsTheFirstLegalActionIsPlayedAsAFault() throws Exception {
        try (Fake f = new Fake(Duration.ofSeconds(5))) {
            f.observes.add(new Fake.Script(List.of(
                    Fake.snapshot(1, "e", Fake.turnOf(0, "play 1c", "play 2c")),
                    Fake.ended(2, "e")), Status.OK));
            for (int i = 0; i < 3; i++) {
                f.acts.add(r -> Fake.error(Status.Code.FAILED_PRECONDITION, "ILLEGAL_ACTION"));
            }
            List<String> refusedWith = new ArrayList<>();
            PlayReport r = f.client.seat("t", 0, "tok").play(d -> {
                d.refused().ifPresent(e -> refusedWith.add(e.reason()));
                return Actions.notation("play 9c");
            });
            assertEquals(List.of("ILLEGAL_ACTION", "ILLEGAL_ACTION"), refusedWith, "asked again with the refusal");
            assertEquals(4, f.actRequests.size());
            assertEquals("play 1c", f.actRequests.get(3).getAction().getNotation(), "then the first legal action");
            assertEquals(1, r.faults());
            assertEquals(1, r.decisions());
        }
    }

    @Test
    void eachDecisionIsAnsweredOnceAndOtherRefusalsWaitForTheStream() throws Exception {
        try (Fake f = new Fake(Duration.ofSeconds(5))) {
            Update withNext = Fake.update(2, "e").toBuilder().setNextTurn(Fake.turnOf(1, "pass")).build();
            f.observes.add(new Fake.Script(List.of(
                    Fake.snapshot(1, "e", Fake.turnOf(0, "pass")),
                    withNext,
                    Fake.turn(3, "e", Fake.turnOf(1, "pass")), // the same decision again: not re-answered
                    Fake.turn(4, "e", Fake.turnOf(2, "pass").toBuilder().setDecider(1).build()), // not ours
                    Fake.turn(5, "e", Fake.turnOf(3, "pass")),
                    Fake.ended(6, "e")), Status.OK));
            f.acts.add(Fake::ok);
            f.acts.add(r -> Fake.error(Status.Code.ABORTED, "STALE_DECISION"));
            f.acts.add(r -> Fake.error(Status.Code.FAILED_PRECONDITION, "NOT_YOUR_TURN"));
            int[] asked = {0};
            PlayReport r = f.client.seat("t", 0, "tok").play(d -> {
                asked[0]++;
                return d.legalActions().get(0);
            });
            assertEquals(3, asked[0]);
            assertEquals(List.of(0L, 1L, 3L), f.actRequests.stream().map(a -> a.getDecision()).toList());
            assertEquals(1, r.decisions(), "only the accepted answer counts");
            assertEquals(0, r.faults());
        }
    }

    @Test
    void playResumesAfterADropAndCountsIt() throws Exception {
        try (Fake f = new Fake(Duration.ofSeconds(5))) {
            f.observes.add(new Fake.Script(List.of(Fake.snapshot(1, "e", Fake.turnOf(0, "pass"))), Status.UNAVAILABLE));
            // The new server's snapshot shows the same decision: it was answered already.
            f.observes.add(new Fake.Script(List.of(Fake.snapshot(1, "f", Fake.turnOf(0, "pass")),
                    Fake.ended(2, "f")), Status.OK));
            PlayReport r = f.client.seat("t", 0, "tok").play(Bot.firstLegal());
            assertEquals(1, r.reconnects());
            assertEquals(1, f.actRequests.size());
            assertEquals(1, f.observeRequests.get(1).getResumeAfter());
        }
    }

    @Test
    void aDecisionThatPassedBeforeItsObservationIsNotAnswered() throws Exception {
        try (Fake f = new Fake(Duration.ofSeconds(5))) {
            f.observes.add(new Fake.Script(List.of(
                    Fake.snapshot(1, "e", Fake.turnOf(0, "pass")),
                    Fake.turn(2, "e", Fake.turnOf(1, "play 1c", "play 2c")),
                    Fake.ended(3, "e")), Status.OK));
            // Decision 0: the clock answered before the bot looked, the server is at decision 1.
            f.observations.add(GetObservationResponse.newBuilder().setDecision(1)
                    .setObservation(Observation.newBuilder().setHandNumber(7)).build());
            // Decision 1: its own observation, kept for the ask after the refusal.
            f.observations.add(GetObservationResponse.newBuilder().setDecision(1)
                    .setObservation(Observation.newBuilder().setHandNumber(8)).build());
            f.acts.add(r -> Fake.error(Status.Code.FAILED_PRECONDITION, "ILLEGAL_ACTION"));
            List<String> seen = new ArrayList<>();
            PlayReport r = f.client.seat("t", 0, "tok").play(d -> {
                try {
                    seen.add(d.number() + ":" + d.observation().getHandNumber());
                } catch (DecisionPassedException e) {
                    seen.add(d.number() + ":passed " + e.code() + " " + e.reason() + " at " + e.current());
                    throw e;
                }
                return d.legalActions().get(0);
            });
            assertEquals(List.of("0:passed ABORTED DECISION_PASSED at 1", "1:8", "1:8"), seen);
            assertEquals(List.of(1L, 1L), f.actRequests.stream().map(a -> a.getDecision()).toList(),
                    "nothing sent for the decision that passed");
            assertEquals(2, f.observationRequests.size(), "one fetch per decision");
            assertEquals(1, r.decisions());
            assertEquals(0, r.faults(), "a passed decision is no fault");
        }
    }

    @Test
    void aBotsExceptionStopsPlay() throws Exception {
        try (Fake f = new Fake(Duration.ofSeconds(5))) {
            f.observes.add(new Fake.Script(List.of(Fake.snapshot(1, "e", Fake.turnOf(0, "pass"))), Status.OK));
            IllegalStateException e = assertThrows(IllegalStateException.class,
                    () -> f.client.seat("t", 0, "tok").play(d -> {
                        throw new IllegalStateException("bot broke");
                    }));
            assertTrue(e.getMessage().contains("bot broke"));
        }
    }
}
