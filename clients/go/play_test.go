package calabresella

import (
	"context"
	"errors"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	pb "github.com/calabresella/calabresella/clients/go/gen/calabresella/v1"
)

// legalOnly refuses every action but the listed notations, as the server does.
func legalOnly(legal ...string) func(int, *pb.ActRequest) (*pb.ActResponse, error) {
	return func(_ int, r *pb.ActRequest) (*pb.ActResponse, error) {
		for _, l := range legal {
			if r.GetAction().GetNotation() == l {
				return &pb.ActResponse{Action: r.GetAction()}, nil
			}
		}
		return nil, refused(codes.FailedPrecondition, "ILLEGAL_ACTION")
	}
}

func TestPlayAsksAgainAfterARefusalThenPlaysTheFirstLegalActionAsAFault(t *testing.T) {
	f := &fakeServer{act: legalOnly("pass", "bid 1")}
	f.script(nil, snapshot(1, "A", turn(0, 0, "pass", "bid 1")), event(2, "A", nil), ended(3, "A"))
	c := start(t, f)
	var refusals []*Error
	bot := BotFunc(func(_ context.Context, d *Decision) (*pb.Action, error) {
		refusals = append(refusals, d.Refused)
		return Notation("play 4c"), nil
	})
	sum, err := c.Seat("t", 0, "x").Play(context.Background(), bot)
	if err != nil {
		t.Fatal(err)
	}
	if len(refusals) != MaxRefusals || refusals[0] != nil || refusals[1].Reason != "ILLEGAL_ACTION" {
		t.Fatalf("asked %d times: %v", len(refusals), refusals)
	}
	if sum.Decisions != 1 || sum.Faults != 1 || sum.Ended.GetReason() != pb.EndReason_END_REASON_COMPLETED {
		t.Fatalf("summary %+v", sum)
	}
	if last := f.acts[len(f.acts)-1]; last.GetAction().GetNotation() != "pass" || len(f.acts) != MaxRefusals+1 {
		t.Fatalf("acts %v", f.acts)
	}
}

func TestPlayWaitsForTheStreamAfterOtherRefusals(t *testing.T) {
	for _, e := range []error{refused(codes.FailedPrecondition, "NOT_YOUR_TURN"), refused(codes.Aborted, "STALE_DECISION")} {
		f := &fakeServer{act: func(int, *pb.ActRequest) (*pb.ActResponse, error) { return nil, e }}
		f.script(nil, snapshot(1, "A", turn(0, 0, "pass")), ended(2, "A"))
		c := start(t, f)
		asked := 0
		sum, err := c.Seat("t", 0, "x").Play(context.Background(), BotFunc(func(_ context.Context, d *Decision) (*pb.Action, error) {
			asked++
			return d.Turn.GetLegalActions()[0], nil
		}))
		if err != nil || asked != 1 || sum.Decisions != 0 || sum.Faults != 0 {
			t.Fatalf("%v: asked %d, %+v, %v", e, asked, sum, err)
		}
	}
}

func TestPlayAnswersEachDecisionOnceAndOnlyItsOwn(t *testing.T) {
	f := &fakeServer{}
	f.script(nil,
		// Another seat's turn, then ours twice (a turn update repeating a next_turn), then one
		// without legal actions (not ours to answer), then ours again.
		snapshot(1, "A", turn(0, 1, "pass")),
		event(2, "A", turn(1, 0, "pass")),
		&pb.Update{Seq: 3, StreamEpoch: "A", Kind: &pb.Update_Turn{Turn: turn(1, 0, "pass")}},
		event(4, "A", turn(2, 0)),
		&pb.Update{Seq: 5, StreamEpoch: "A", Kind: &pb.Update_Turn{Turn: turn(3, 0, "play Ad")}},
		ended(6, "A"))
	c := start(t, f)
	var decisions []uint64
	seen := 0
	sum, err := c.Seat("t", 0, "x").Play(context.Background(), BotFunc(func(_ context.Context, d *Decision) (*pb.Action, error) {
		decisions = append(decisions, d.Turn.GetDecision())
		return nil, nil // a nil action: the first legal action, as a fault
	}), OnUpdate(func(*pb.Update) { seen++ }))
	if err != nil {
		t.Fatal(err)
	}
	if len(decisions) != 2 || decisions[0] != 1 || decisions[1] != 3 || seen != 6 {
		t.Fatalf("asked for %v, saw %d updates", decisions, seen)
	}
	if sum.Decisions != 2 || sum.Faults != 2 {
		t.Fatalf("%+v", sum)
	}
}

func TestPlayResumesAfterADropAndCountsTheReconnect(t *testing.T) {
	f := &fakeServer{}
	f.script(status.Error(codes.Unavailable, "restarting"), snapshot(1, "A", turn(0, 0, "pass")))
	f.script(nil, snapshot(1, "B", turn(0, 0, "pass")), event(2, "B", nil), ended(3, "B"))
	c := start(t, f)
	sum, err := c.Seat("t", 0, "x").Play(context.Background(), BotFunc(func(_ context.Context, d *Decision) (*pb.Action, error) {
		return Notation("pass"), nil
	}))
	if err != nil {
		t.Fatal(err)
	}
	if sum.Reconnects != 1 || sum.Decisions != 1 || len(f.acts) != 1 {
		t.Fatalf("%+v, %d acts", sum, len(f.acts))
	}
	if r := f.observed[1]; r.GetResumeAfter() != 1 || r.GetStreamEpoch() != "A" {
		t.Fatalf("resume request %v", r)
	}
}

func TestABotErrorStopsPlayAndTheObservationIsFetchedOnce(t *testing.T) {
	f := &fakeServer{}
	f.script(nil, snapshot(1, "A", turn(1, 0, "pass")), ended(2, "A"))
	c := start(t, f)
	stop := errors.New("stop")
	_, err := c.Seat("t", 0, "x").Play(context.Background(), BotFunc(func(ctx context.Context, d *Decision) (*pb.Action, error) {
		o, err := d.Observation(ctx)
		if err != nil || o.GetHand()[0].GetNotation() != "Ad" {
			t.Errorf("observation %v %v", o, err)
		}
		if o2, _ := d.Observation(ctx); o2 != o {
			t.Error("the observation is kept for the decision")
		}
		return nil, stop
	}))
	if !errors.Is(err, stop) {
		t.Fatalf("%v", err)
	}
}

func TestCancellingTheContextStopsPlay(t *testing.T) {
	f := &fakeServer{}
	// A stream that closes without MatchEnded, then a server that stays unavailable: play
	// keeps reconnecting until the context ends.
	f.script(nil, snapshot(1, "A", nil))
	c := start(t, f)
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	sum, err := c.Seat("t", 0, "x").Play(ctx, BotFunc(func(context.Context, *Decision) (*pb.Action, error) {
		t.Error("no turn is due")
		return nil, nil
	}))
	if !errors.Is(err, context.DeadlineExceeded) || sum == nil || sum.Ended != nil {
		t.Fatalf("%+v %v", sum, err)
	}
	if len(f.observed) < 2 || f.observed[1].GetResumeAfter() != 1 {
		t.Fatalf("reconnects %v", f.observed)
	}
}
