package calabresella

import (
	"context"
	"errors"
	"testing"
	"time"

	"google.golang.org/grpc/codes"

	pb "github.com/calabresella/calabresella/clients/go/gen/calabresella/v1"
)

func TestBackoffDoublesToASecond(t *testing.T) {
	want := []time.Duration{50, 100, 200, 400, 800, 1000, 1000, 1000}
	for n, w := range want {
		if got := backoffDelay(n); got != w*time.Millisecond {
			t.Fatalf("retry %d waits %v, want %v", n, got, w*time.Millisecond)
		}
	}
}

func TestOnlyTransientFailuresAreRetried(t *testing.T) {
	for _, err := range []error{
		&Error{Code: codes.Unavailable},
		&Error{Code: codes.Canceled},
		&Error{Code: codes.ResourceExhausted, Reason: "RATE_LIMITED"},
	} {
		if !retryable(err) {
			t.Errorf("%v is retried", err)
		}
	}
	for _, err := range []error{
		&Error{Code: codes.ResourceExhausted, Reason: "STORE_FULL"},
		&Error{Code: codes.InvalidArgument},
		&Error{Code: codes.FailedPrecondition},
		&Error{Code: codes.Aborted},
		&Error{Code: codes.PermissionDenied},
		&Error{Code: codes.Internal},
		context.Canceled,
	} {
		if retryable(err) {
			t.Errorf("%v is not retried", err)
		}
	}
	if !transient(&Error{Code: codes.ResourceExhausted, Reason: "SLOW_CONSUMER"}) || transient(&Error{Code: codes.NotFound}) {
		t.Error("streams reopen after a slow-consumer cut, not after NOT_FOUND")
	}
}

func TestActIsSentAgainWhileTheServerIsUnavailable(t *testing.T) {
	f := &fakeServer{act: func(n int, r *pb.ActRequest) (*pb.ActResponse, error) {
		switch n {
		case 0:
			return nil, refused(codes.Unavailable, "STORE_READ_ONLY")
		case 1:
			return nil, refused(codes.ResourceExhausted, "RATE_LIMITED")
		}
		return &pb.ActResponse{Action: r.GetAction(), Duplicate: true}, nil
	}}
	c := start(t, f)
	r, err := c.Seat("t", 0, "x").Act(context.Background(), 7, Notation("pass"))
	if err != nil || !r.GetDuplicate() {
		t.Fatalf("%v %v", r, err)
	}
	if len(f.acts) != 3 || f.acts[2].GetDecision() != 7 || f.acts[2].GetAction().GetNotation() != "pass" {
		t.Fatalf("acts %v", f.acts)
	}
}

func TestActGivesUpAfterTheOutageWindow(t *testing.T) {
	f := &fakeServer{act: func(int, *pb.ActRequest) (*pb.ActResponse, error) {
		return nil, refused(codes.Unavailable, "STORE_FAILED")
	}}
	c := start(t, f, WithReconnectFor(300*time.Millisecond))
	started := time.Now()
	_, err := c.Seat("t", 0, "x").Act(context.Background(), 1, Notation("pass"))
	if !errors.Is(err, ErrConnectionLost) {
		t.Fatalf("%v", err)
	}
	var e *Error
	if !errors.As(err, &e) || e.Reason != "STORE_FAILED" {
		t.Fatalf("the last failure is kept: %v", err)
	}
	if d := time.Since(started); d < 300*time.Millisecond || d > 2*time.Second {
		t.Fatalf("gave up after %v", d)
	}
}

func TestCancellingTheContextStopsRetries(t *testing.T) {
	f := &fakeServer{act: func(int, *pb.ActRequest) (*pb.ActResponse, error) {
		return nil, refused(codes.Unavailable, "STORE_FAILED")
	}}
	c := start(t, f)
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	_, err := c.Seat("t", 0, "x").Act(ctx, 1, Notation("pass"))
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("%v", err)
	}
}
