package calabresella

import (
	"context"
	"errors"
	"net"
	"sync"
	"testing"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/grpc/test/bufconn"

	pb "github.com/calabresella/calabresella/clients/go/gen/calabresella/v1"
)

// errHold, as a script's error, keeps that stream open after its updates until the client
// closes it (the fake then sends on streamClosed).
var errHold = errors.New("hold the stream open")

// fakeServer is an in-process TableService playing a script: each Observe call sends the
// next list of updates, then ends with the matching error (nil: OK); Act answers with act.
// With hang, Act and GetTable never answer (a host that vanished): they return only when the
// client gives up the call.
type fakeServer struct {
	pb.UnimplementedTableServiceServer

	hang         bool
	streamClosed chan struct{}

	mu         sync.Mutex
	streams    [][]*pb.Update
	streamErrs []error
	observed   []*pb.ObserveRequest
	acts       []*pb.ActRequest
	act        func(n int, r *pb.ActRequest) (*pb.ActResponse, error)
	getTable   func(*pb.GetTableRequest) (*pb.GetTableResponse, error)
}

func (f *fakeServer) Observe(r *pb.ObserveRequest, st grpc.ServerStreamingServer[pb.ObserveResponse]) error {
	f.mu.Lock()
	i := len(f.observed)
	f.observed = append(f.observed, r)
	var updates []*pb.Update
	var err error = status.Error(codes.Unavailable, "no more streams in the script")
	if i < len(f.streams) {
		updates, err = f.streams[i], f.streamErrs[i]
	}
	f.mu.Unlock()
	for _, u := range updates {
		if e := st.Send(&pb.ObserveResponse{Update: u}); e != nil {
			return e
		}
	}
	if err == errHold {
		<-st.Context().Done()
		if f.streamClosed != nil {
			f.streamClosed <- struct{}{}
		}
		return st.Context().Err()
	}
	return err
}

func (f *fakeServer) Act(ctx context.Context, r *pb.ActRequest) (*pb.ActResponse, error) {
	f.mu.Lock()
	n := len(f.acts)
	f.acts = append(f.acts, r)
	f.mu.Unlock()
	if f.hang {
		<-ctx.Done()
		return nil, ctx.Err()
	}
	if f.act == nil {
		return &pb.ActResponse{Action: r.GetAction()}, nil
	}
	return f.act(n, r)
}

func (f *fakeServer) GetTable(ctx context.Context, r *pb.GetTableRequest) (*pb.GetTableResponse, error) {
	if f.hang {
		<-ctx.Done()
		return nil, ctx.Err()
	}
	if f.getTable == nil {
		return nil, refused(codes.NotFound, "TABLE_NOT_FOUND")
	}
	return f.getTable(r)
}

func (f *fakeServer) GetObservation(_ context.Context, r *pb.GetObservationRequest) (*pb.GetObservationResponse, error) {
	return &pb.GetObservationResponse{Decision: 1, Observation: &pb.Observation{Hand: []*pb.Card{{Notation: "Ad"}}}}, nil
}

// script appends one Observe call's updates and how it ends.
func (f *fakeServer) script(err error, updates ...*pb.Update) {
	f.streams = append(f.streams, updates)
	f.streamErrs = append(f.streamErrs, err)
}

// start serves f over an in-memory connection and returns a client of it.
func start(t *testing.T, f *fakeServer, opts ...ClientOption) *Client {
	t.Helper()
	return startServer(t, f, opts...)
}

// startServer serves srv over an in-memory connection and returns a client of it.
func startServer(t *testing.T, srv pb.TableServiceServer, opts ...ClientOption) *Client {
	t.Helper()
	lis := bufconn.Listen(1 << 20)
	s := grpc.NewServer()
	pb.RegisterTableServiceServer(s, srv)
	go func() { _ = s.Serve(lis) }()
	t.Cleanup(s.Stop)
	dialer := grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) {
		return lis.DialContext(ctx)
	})
	c, err := Dial("passthrough:///bufnet", append([]ClientOption{WithDialOptions(dialer)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return c
}

// refusal is a server error with an ErrorInfo reason, as the server sends them.
func refused(code codes.Code, reason string) error {
	st, err := status.New(code, reason+" (test)").WithDetails(&errdetails.ErrorInfo{Reason: reason, Domain: "calabresella.v1"})
	if err != nil {
		panic(err)
	}
	return st.Err()
}

// Update builders for scripts.
func snapshot(seq uint64, epoch string, turn *pb.Turn) *pb.Update {
	return &pb.Update{Seq: seq, StreamEpoch: epoch, Kind: &pb.Update_Snapshot{Snapshot: &pb.Snapshot{Turn: turn}}}
}

func event(seq uint64, epoch string, next *pb.Turn) *pb.Update {
	return &pb.Update{Seq: seq, StreamEpoch: epoch, Kind: &pb.Update_Event{Event: &pb.Event{Text: "x"}}, NextTurn: next}
}

func ended(seq uint64, epoch string) *pb.Update {
	return &pb.Update{Seq: seq, StreamEpoch: epoch, Kind: &pb.Update_MatchEnded{MatchEnded: &pb.MatchEnded{
		Reason: pb.EndReason_END_REASON_COMPLETED, Result: &pb.MatchResult{Winners: []uint32{0}},
	}}}
}

// turn is a decision of seat with the given legal actions (by notation).
func turn(decision uint64, seat uint32, legal ...string) *pb.Turn {
	t := &pb.Turn{Decision: decision, Actor: seat, Decider: seat}
	for _, n := range legal {
		t.LegalActions = append(t.LegalActions, Notation(n))
	}
	return t
}

// actCount is how many Act calls arrived (under the lock: a test may read it while a call
// the client gave up on is still in the server).
func (f *fakeServer) actCount() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.acts)
}
