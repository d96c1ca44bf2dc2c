package calabresella

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc/codes"

	pb "github.com/calabresella/calabresella/clients/go/gen/calabresella/v1"
)

// closeSoon closes c after d, from another goroutine, as a program shutting down would.
func closeSoon(t *testing.T, c *Client, d time.Duration) {
	t.Helper()
	time.AfterFunc(d, func() { _ = c.Close() })
}

func TestCloseDuringPlayEndsItAtOnceWithErrClientClosed(t *testing.T) {
	// Play waiting on the stream (no turn due, the stream held open).
	f := &fakeServer{}
	f.script(errHold, snapshot(1, "A", nil))
	c := start(t, f) // the default 30 s window: Close must not wait it out
	closeSoon(t, c, 100*time.Millisecond)
	started := time.Now()
	_, err := c.Seat("t", 0, "x").Play(context.Background(), BotFunc(func(context.Context, *Decision) (*pb.Action, error) {
		return nil, nil
	}))
	if !errors.Is(err, ErrClientClosed) {
		t.Fatalf("waiting on the stream: %v", err)
	}
	if d := time.Since(started); d > 5*time.Second {
		t.Fatalf("waiting on the stream: returned after %v", d)
	}

	// Play retrying an answer through an outage.
	f = &fakeServer{act: func(int, *pb.ActRequest) (*pb.ActResponse, error) {
		return nil, refused(codes.Unavailable, "STORE_FAILED")
	}}
	f.script(errHold, snapshot(1, "A", turn(0, 0, "pass")))
	c = start(t, f)
	closeSoon(t, c, 300*time.Millisecond)
	started = time.Now()
	_, err = c.Seat("t", 0, "x").Play(context.Background(), BotFunc(func(context.Context, *Decision) (*pb.Action, error) {
		return Notation("pass"), nil
	}))
	if !errors.Is(err, ErrClientClosed) {
		t.Fatalf("retrying Act: %v", err)
	}
	if d := time.Since(started); d > 5*time.Second {
		t.Fatalf("retrying Act: returned after %v", d)
	}
	if f.actCount() < 2 {
		t.Fatalf("Act was not being retried (%d calls)", f.actCount())
	}

	// After Close, every call ends at once, the streams too.
	if _, err := c.GetTable(context.Background(), "t"); !errors.Is(err, ErrClientClosed) {
		t.Fatalf("GetTable after Close: %v", err)
	}
	if _, err := c.Seat("t", 0, "x").Act(context.Background(), 0, Notation("pass")); !errors.Is(err, ErrClientClosed) {
		t.Fatalf("Act after Close: %v", err)
	}
	for _, err := range c.Spectate(context.Background(), "t") {
		if !errors.Is(err, ErrClientClosed) {
			t.Fatalf("Spectate after Close: %v", err)
		}
	}
}

func TestACallThatGetsNoAnswerGivesUpWithinTheWindow(t *testing.T) {
	f := &fakeServer{hang: true}
	c := start(t, f, WithReconnectFor(300*time.Millisecond))
	started := time.Now()
	_, err := c.Seat("t", 0, "x").Act(context.Background(), 1, Notation("pass"))
	if !errors.Is(err, ErrConnectionLost) {
		t.Fatalf("Act: %v", err)
	}
	var e *Error
	if !errors.As(err, &e) || e.Code != codes.Unavailable {
		t.Fatalf("Act: the last failure is an UNAVAILABLE: %v", err)
	}
	if d := time.Since(started); d < 300*time.Millisecond || d > 2*time.Second {
		t.Fatalf("Act gave up after %v, for a window of 300 ms", d)
	}

	// Not retried: fails as UNAVAILABLE after one attempt's limit.
	started = time.Now()
	_, err = c.GetTable(context.Background(), "t")
	if !errors.As(err, &e) || e.Code != codes.Unavailable || errors.Is(err, ErrConnectionLost) {
		t.Fatalf("GetTable: %v", err)
	}
	if d := time.Since(started); d > 2*time.Second {
		t.Fatalf("GetTable gave up after %v", d)
	}

	// The caller's own deadline stays the caller's.
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	if _, err := c.GetTable(ctx, "t"); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("GetTable under a shorter deadline: %v", err)
	}
}

func TestPrintingASeatNeverShowsItsToken(t *testing.T) {
	const token = "s3cr3t-seat-token"
	c := start(t, &fakeServer{})
	seat := c.Seat("t-1", 2, token, Position{Seq: 4, Epoch: "A"})
	d := &Decision{Turn: turn(1, 2, "pass"), seat: seat}
	var log bytes.Buffer
	slog.New(slog.NewTextHandler(&log, nil)).Info("playing", "seat", seat)
	slog.New(slog.NewJSONHandler(&log, nil)).Info("playing", "seat", seat, "value", *seat)
	printed := fmt.Sprintf("%v %+v %#v %s %q %d %x|%v %+v %#v|%v %+v|%+v", seat, seat, seat, seat, seat, seat, seat,
		*seat, *seat, *seat, d, *d, struct{ S *Seat }{seat}) + log.String()
	if strings.Contains(printed, token) {
		t.Fatalf("the token shows: %s", printed)
	}
	if !strings.Contains(printed, `seat 2 of table "t-1"`) || !strings.Contains(printed, "[redacted]") {
		t.Fatalf("the seat is still described: %s", printed)
	}
	if seat.Token() != token {
		t.Fatal("Token returns the token")
	}
}

func TestAPanicInTheRangeClosesTheStream(t *testing.T) {
	f := &fakeServer{streamClosed: make(chan struct{}, 1)}
	f.script(errHold, snapshot(1, "A", nil))
	c := start(t, f)
	func() {
		defer func() {
			if recover() == nil {
				t.Error("the panic went through")
			}
		}()
		for range c.Seat("t", 0, "x").Updates(context.Background()) {
			panic("the bot fell over")
		}
	}()
	select {
	case <-f.streamClosed:
	case <-time.After(2 * time.Second):
		t.Fatal("the stream is still open on the server")
	}
}

func TestMaxRefusalsZeroPlaysAtOnceAndNegativeAsksUntilAccepted(t *testing.T) {
	// Negative: asked after every refusal, however many, and no fault.
	f := &fakeServer{act: func(n int, r *pb.ActRequest) (*pb.ActResponse, error) {
		if n < 5 {
			return nil, refused(codes.FailedPrecondition, "ILLEGAL_ACTION")
		}
		return &pb.ActResponse{Action: r.GetAction()}, nil
	}}
	f.script(nil, snapshot(1, "A", turn(0, 0, "pass")), ended(2, "A"))
	c := start(t, f)
	asked := 0
	bot := BotFunc(func(context.Context, *Decision) (*pb.Action, error) {
		asked++
		return Notation("play 4c"), nil
	})
	sum, err := c.Seat("t", 0, "x").Play(context.Background(), bot, WithMaxRefusals(-1))
	if err != nil || asked != 6 || sum.Decisions != 1 || sum.Faults != 0 {
		t.Fatalf("unlimited: asked %d, %+v, %v", asked, sum, err)
	}

	// Zero: the first legal action at once, as a fault, the bot never asked.
	f = &fakeServer{}
	f.script(nil, snapshot(1, "A", turn(0, 0, "pass", "bid 1")), ended(2, "A"))
	c = start(t, f)
	asked = 0
	sum, err = c.Seat("t", 0, "x").Play(context.Background(), bot, WithMaxRefusals(0))
	if err != nil || asked != 0 || sum.Decisions != 1 || sum.Faults != 1 || f.acts[0].GetAction().GetNotation() != "pass" {
		t.Fatalf("zero: asked %d, %+v, %v", asked, sum, err)
	}
}
