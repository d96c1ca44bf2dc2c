package calabresella

import (
	"context"
	"errors"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	pb "github.com/calabresella/calabresella/clients/go/gen/calabresella/v1"
)

func TestErrorsCarryTheCodeAndTheErrorInfoReasonFromTheTrailer(t *testing.T) {
	f := &fakeServer{getTable: func(*pb.GetTableRequest) (*pb.GetTableResponse, error) {
		return nil, refused(codes.NotFound, "TABLE_NOT_FOUND")
	}}
	c := start(t, f)
	_, err := c.GetTable(context.Background(), "no-such-table")
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("not an *Error: %v", err)
	}
	if e.Code != codes.NotFound || e.Reason != "TABLE_NOT_FOUND" || e.Domain != "calabresella.v1" {
		t.Fatalf("decoded %+v", e)
	}
	if CodeName(e.Code) != "NOT_FOUND" || e.Error() != "NOT_FOUND TABLE_NOT_FOUND: TABLE_NOT_FOUND (test)" {
		t.Fatalf("rendered %q", e.Error())
	}
	if !errors.Is(err, &Error{Code: codes.NotFound}) || errors.Is(err, &Error{Code: codes.NotFound, Reason: "X"}) {
		t.Fatal("errors.Is matches code, and reason when given")
	}
	if status.Code(err) != codes.NotFound {
		t.Fatal("status.Code reads the code")
	}
}

func TestFromStatusWithoutDetailsAndContextErrors(t *testing.T) {
	err := FromStatus(status.Error(codes.Unavailable, "down"))
	var e *Error
	if !errors.As(err, &e) || e.Code != codes.Unavailable || e.Reason != "" || e.Error() != "UNAVAILABLE: down" {
		t.Fatalf("%v", err)
	}
	if !errors.Is(FromStatus(context.Canceled), context.Canceled) || FromStatus(nil) != nil {
		t.Fatal("context errors and nil pass through")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if !errors.Is((&Client{}).callErr(ctx, status.Error(codes.Canceled, "x")), context.Canceled) {
		t.Fatal("a call cancelled by its caller returns the context's error")
	}
}
