package calabresella

import (
	"context"
	"fmt"
	"time"

	"google.golang.org/grpc/codes"
)

// The retry policy every client of this server shares (the Rust client's play loop is its
// reference): an outage may last DefaultReconnectFor from its first failure; retries wait
// 50 ms, doubling up to 1 s; after MaxRefusals refused answers to one decision the turn's first
// legal action is played.
const (
	// DefaultReconnectFor is how long an outage may last before a call or stream gives up.
	DefaultReconnectFor = 30 * time.Second
	// MaxRefusals is how many refused answers to one decision before the play loop plays the
	// turn's first legal action and counts a fault.
	MaxRefusals = 3
	// firstBackoff is the wait before the first retry.
	firstBackoff = 50 * time.Millisecond
	// maxBackoff caps the doubling.
	maxBackoff = time.Second
)

// backoffDelay is the wait before the n-th retry (n from 0): 50 ms doubling up to 1 s.
func backoffDelay(n int) time.Duration {
	if n > 5 {
		n = 5
	}
	d := firstBackoff << n
	if d > maxBackoff {
		d = maxBackoff
	}
	return d
}

// retryable says whether a failed unary call may succeed when simply sent again: the server
// is unreachable or restarting (UNAVAILABLE, which also covers its store refusing a write
// without changing anything), the connection broke under the call (CANCELLED while the
// caller's own context is live), or the caller went over its rate. The server's own refusals
// are final.
func retryable(err error) bool {
	switch codeOf(err) {
	case codes.Unavailable, codes.Canceled:
		return true
	case codes.ResourceExhausted:
		return reasonOf(err) == "RATE_LIMITED"
	}
	return false
}

// transient says whether a stream error may pass when the stream is simply opened again:
// the server is unreachable or restarting, cut a slow consumer (RESOURCE_EXHAUSTED
// SLOW_CONSUMER), or the connection broke.
func transient(err error) bool {
	switch codeOf(err) {
	case codes.Unavailable, codes.Unknown, codes.Internal, codes.ResourceExhausted, codes.Canceled:
		return true
	}
	return false
}

// outage measures one outage against the window: it starts at the first failure and ends at
// the next success (reset).
type outage struct {
	window time.Duration
	since  time.Time
	tries  int
}

// reset ends the outage: the connection works again.
func (o *outage) reset() {
	o.since = time.Time{}
	o.tries = 0
}

// wait sleeps before the next retry, never past the end of the window, and returns an error
// wrapping ErrConnectionLost (and last) once the window has closed, or the context's error.
func (o *outage) wait(ctx context.Context, what string, last error) error {
	now := time.Now()
	if o.since.IsZero() {
		o.since = now
	}
	left := o.window - now.Sub(o.since)
	if left <= 0 {
		return fmt.Errorf("%w: %s for %v: %w", ErrConnectionLost, what, o.window, last)
	}
	d := min(backoffDelay(o.tries), left)
	o.tries++
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// callErr turns a call's error into what this package returns: the context's error when the
// caller cancelled (gRPC reports that as a CANCELLED status), else the decoded *Error.
func callErr(ctx context.Context, err error) error {
	if err == nil {
		return nil
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return FromStatus(err)
}
