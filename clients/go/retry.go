package calabresella

import (
	"context"
	"errors"
	"fmt"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
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
// SLOW_CONSUMER), or the connection broke. Only a status can be: an error of this package
// (ErrClientClosed, a *SequenceError) or the context's is final, though codeOf calls it
// UNKNOWN.
func transient(err error) bool {
	var e *Error
	if !errors.As(err, &e) {
		return false
	}
	switch e.Code {
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
	// closed is the client's: Close ends a wait at once rather than a backoff later.
	closed <-chan struct{}
}

// reset ends the outage: the connection works again.
func (o *outage) reset() {
	o.since = time.Time{}
	o.tries = 0
}

// wait sleeps before the next retry, never past the end of the window, and returns an error
// wrapping ErrConnectionLost (and last) once the window has closed, ErrClientClosed once the
// client is closed, or the context's error. began is when the failure began: for a call that
// hung until its attempt limit, when it was sent, so that a silent host costs one window, not
// a window plus the first attempt.
func (o *outage) wait(ctx context.Context, began time.Time, what string, last error) error {
	if o.since.IsZero() {
		o.since = began
	}
	left := o.window - time.Since(o.since)
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
	case <-o.closed:
		return ErrClientClosed
	case <-t.C:
		return nil
	}
}

// call makes one unary call (one attempt: no retry) under a limit of the outage window, and
// returns its error as this package does (see Client.callErr). gRPC puts no limit on a call:
// on a host that vanished without a word (no RST, packets dropped) it would wait until the
// keepalive noticed, or for ever while the connection is being made. A call that outlasts
// the window is failed as UNAVAILABLE, as the Rust client does, so the retry policy sees an
// outage and the other calls fail like any call to an unreachable server.
func call[T any](ctx context.Context, c *Client, rpc func(context.Context) (T, error)) (T, error) {
	if c.isClosed() {
		// Close may still be closing the connection: a call must not slip through it.
		var zero T
		return zero, ErrClientClosed
	}
	limit := time.Now().Add(c.reconnectFor)
	actx, cancel := context.WithDeadline(ctx, limit)
	defer cancel()
	r, err := rpc(actx)
	if err == nil {
		return r, nil
	}
	var zero T
	// The deadline travels to the server (grpc-timeout), whose DEADLINE_EXCEEDED may come
	// back before the timer of actx has fired: either says the attempt ran out of time.
	timedOut := errors.Is(actx.Err(), context.DeadlineExceeded) || status.Code(err) == codes.DeadlineExceeded
	if timedOut && ctx.Err() == nil && !c.isClosed() {
		if d, ok := ctx.Deadline(); ok && !d.After(limit) {
			// The caller's own deadline, not the attempt's, was the one running.
			return zero, context.DeadlineExceeded
		}
		return zero, &Error{Code: codes.Unavailable, Message: fmt.Sprintf("no answer within %v: %v", c.reconnectFor, err)}
	}
	return zero, c.callErr(ctx, err)
}

// callErr turns a call's error into what this package returns: the context's error when the
// caller cancelled (gRPC reports that as a CANCELLED status); ErrClientClosed when Close
// ended it (gRPC reports that as CANCELLED too, which would otherwise pass for a broken
// connection and be retried for the whole window); else the decoded *Error.
func (c *Client) callErr(ctx context.Context, err error) error {
	if err == nil {
		return nil
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if c.isClosed() {
		return ErrClientClosed
	}
	return FromStatus(err)
}
