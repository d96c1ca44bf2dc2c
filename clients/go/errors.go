package calabresella

import (
	"context"
	"errors"
	"fmt"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// Error is a call the server (or the transport) refused: the gRPC code, the
// google.rpc.ErrorInfo reason the server attaches to every error it sends, and the message.
type Error struct {
	// Code is the gRPC status code, such as codes.FailedPrecondition.
	Code codes.Code
	// Reason is the ErrorInfo reason, such as "ILLEGAL_ACTION"; empty when the error did not
	// come from the server (a broken connection, say).
	Reason string
	// Domain is the ErrorInfo domain ("calabresella.v1" for the server's own errors).
	Domain string
	// Metadata is the ErrorInfo metadata, if any.
	Metadata map[string]string
	// Message is the status message.
	Message string
}

// Error renders the code, the reason and the message, e.g.
// "FAILED_PRECONDITION ILLEGAL_ACTION: play 4c is not legal now".
func (e *Error) Error() string {
	if e.Reason == "" {
		return fmt.Sprintf("%s: %s", CodeName(e.Code), e.Message)
	}
	return fmt.Sprintf("%s %s: %s", CodeName(e.Code), e.Reason, e.Message)
}

// GRPCStatus returns the status the error was decoded from (without its details), so
// status.Code and status.FromError keep working on it.
func (e *Error) GRPCStatus() *status.Status {
	return status.New(e.Code, e.Message)
}

// Is reports whether target is an *Error with the same code and, when target names one, the
// same reason: errors.Is(err, &calabresella.Error{Code: codes.Aborted, Reason: "STALE_DECISION"}).
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	if !ok {
		return false
	}
	return t.Code == e.Code && (t.Reason == "" || t.Reason == e.Reason)
}

// CodeName is the canonical upper-case name of a gRPC code, such as "PERMISSION_DENIED".
func CodeName(c codes.Code) string {
	if n, ok := codeNames[c]; ok {
		return n
	}
	return fmt.Sprintf("CODE(%d)", uint32(c))
}

// codeNames holds the canonical names (codes.Code.String gives CamelCase ones).
var codeNames = map[codes.Code]string{
	codes.OK:                 "OK",
	codes.Canceled:           "CANCELLED",
	codes.Unknown:            "UNKNOWN",
	codes.InvalidArgument:    "INVALID_ARGUMENT",
	codes.DeadlineExceeded:   "DEADLINE_EXCEEDED",
	codes.NotFound:           "NOT_FOUND",
	codes.AlreadyExists:      "ALREADY_EXISTS",
	codes.PermissionDenied:   "PERMISSION_DENIED",
	codes.ResourceExhausted:  "RESOURCE_EXHAUSTED",
	codes.FailedPrecondition: "FAILED_PRECONDITION",
	codes.Aborted:            "ABORTED",
	codes.OutOfRange:         "OUT_OF_RANGE",
	codes.Unimplemented:      "UNIMPLEMENTED",
	codes.Internal:           "INTERNAL",
	codes.Unavailable:        "UNAVAILABLE",
	codes.DataLoss:           "DATA_LOSS",
	codes.Unauthenticated:    "UNAUTHENTICATED",
}

// FromStatus decodes a gRPC error into an *Error, reading the ErrorInfo detail that arrives
// in the grpc-status-details-bin trailer. A context error (the caller cancelled or its
// deadline passed) is returned as it is, so errors.Is(err, context.Canceled) holds; nil stays
// nil.
func FromStatus(err error) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	var already *Error
	if errors.As(err, &already) {
		return err
	}
	st, ok := status.FromError(err)
	if !ok {
		return &Error{Code: codes.Unknown, Message: err.Error()}
	}
	e := &Error{Code: st.Code(), Message: st.Message()}
	for _, d := range st.Details() {
		if info, ok := d.(*errdetails.ErrorInfo); ok {
			e.Reason = info.GetReason()
			e.Domain = info.GetDomain()
			e.Metadata = info.GetMetadata()
			break
		}
	}
	return e
}

// ErrConnectionLost is wrapped by the error of a call or stream that gave up because the
// server stayed unreachable longer than the outage window (see WithReconnectFor).
var ErrConnectionLost = errors.New("calabresella: connection lost")

// ErrClientClosed is returned by every call, stream and play of a Client after its Close
// (those in flight when it is closed end with it at once). It is final: nothing is retried.
var ErrClientClosed = errors.New("calabresella: the client is closed")

// SequenceError is a stream that broke its ordering promise: an update whose sequence number
// is not the last one plus one (and is not a Snapshot, which resets the numbering).
type SequenceError struct {
	// Last is the sequence number of the update before.
	Last uint64
	// Got is the sequence number received.
	Got uint64
}

// Error says which number came after which.
func (e *SequenceError) Error() string {
	return fmt.Sprintf("calabresella: stream out of order: seq %d after %d", e.Got, e.Last)
}

// reasonOf is the ErrorInfo reason of err ("" when it is not an *Error).
func reasonOf(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Reason
	}
	return ""
}

// codeOf is the gRPC code of err (codes.Unknown when it is not an *Error).
func codeOf(err error) codes.Code {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return codes.Unknown
}
