package calabresella

import (
	"context"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"

	pb "github.com/calabresella/calabresella/clients/go/gen/calabresella/v1"
)

// competeFake sends two assignments on Compete and a seat on Seek, recording the
// authorization header each call carried.
type competeFake struct {
	fakeServer
	auth []string
}

func (f *competeFake) record(ctx context.Context) {
	md, _ := metadata.FromIncomingContext(ctx)
	f.mu.Lock()
	f.auth = append(f.auth, md.Get("authorization")...)
	f.mu.Unlock()
}

func (f *competeFake) Compete(r *pb.CompeteRequest, st grpc.ServerStreamingServer[pb.CompeteResponse]) error {
	f.record(st.Context())
	if r.GetMaxTables() > 16 {
		return refused(codes.InvalidArgument, "BAD_COMPETE")
	}
	for _, id := range []string{"t-1", "t-2"} {
		if err := st.Send(&pb.CompeteResponse{Assignment: &pb.Assignment{TableId: id, Seat: 1, SeatToken: "tok-" + id, TournamentId: "tn-1"}}); err != nil {
			return err
		}
	}
	return nil
}

func (f *competeFake) Seek(_ *pb.SeekRequest, st grpc.ServerStreamingServer[pb.SeekResponse]) error {
	f.record(st.Context())
	if err := st.Send(&pb.SeekResponse{Event: &pb.SeekResponse_Waiting{Waiting: &pb.SeekWaiting{Seekers: 1, Needed: 2}}}); err != nil {
		return err
	}
	return st.Send(&pb.SeekResponse{Event: &pb.SeekResponse_Seated{Seated: &pb.Assignment{TableId: "t-9", SeatToken: "tok"}}})
}

func startCompete(t *testing.T, f *competeFake, opts ...ClientOption) *Client {
	t.Helper()
	return startServer(t, f, opts...)
}

func TestCompeteYieldsEachAssignmentAndCarriesTheKey(t *testing.T) {
	f := &competeFake{}
	c := startCompete(t, f, WithAPIKey(" cbk_abc "))
	var got []string
	for a, err := range c.Compete(context.Background(), 2) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, a.GetTableId()+"/"+a.GetSeatToken())
	}
	if len(got) != 2 || got[0] != "t-1/tok-t-1" || got[1] != "t-2/tok-t-2" {
		t.Fatalf("assignments %v", got)
	}
	for _, err := range c.Compete(context.Background(), 17) {
		if reasonOf(err) != "BAD_COMPETE" {
			t.Fatalf("want BAD_COMPETE, got %v", err)
		}
	}
	a, err := c.Seek(context.Background(), &pb.SeekRequest{})
	if err != nil || a.GetTableId() != "t-9" {
		t.Fatalf("seek: %v %v", a, err)
	}
	for _, h := range f.auth {
		if h != "Bearer cbk_abc" {
			t.Fatalf("authorization %q", h)
		}
	}
	if len(f.auth) != 3 {
		t.Fatalf("%d calls carried the key, want 3", len(f.auth))
	}
}

func TestWithoutAKeyNoAuthorizationIsSent(t *testing.T) {
	f := &competeFake{}
	c := startCompete(t, f)
	if _, err := c.Seek(context.Background(), &pb.SeekRequest{}); err != nil {
		t.Fatal(err)
	}
	if len(f.auth) != 0 {
		t.Fatalf("sent %v", f.auth)
	}
}
