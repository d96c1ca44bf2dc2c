package calabresella

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"google.golang.org/grpc"

	pb "github.com/calabresella/calabresella/clients/go/gen/calabresella/v1"
)

// entropyFake records the entropy each JoinTable, Seek and Compete call carried.
type entropyFake struct {
	fakeServer
	joins    [][]byte
	keys     []string
	seeks    [][]byte
	competes [][]byte
}

func (f *entropyFake) JoinTable(_ context.Context, r *pb.JoinTableRequest) (*pb.JoinTableResponse, error) {
	f.mu.Lock()
	f.joins = append(f.joins, r.GetEntropy())
	f.keys = append(f.keys, r.GetCreatorKey())
	f.mu.Unlock()
	return &pb.JoinTableResponse{Seat: r.GetSeat(), SeatToken: "tok", Table: &pb.Table{
		TableId: r.GetTableId(), DealScheme: DealScheme, Commitment: "ab12",
	}}, nil
}

func (f *entropyFake) CreateTable(_ context.Context, r *pb.CreateTableRequest) (*pb.CreateTableResponse, error) {
	key := ""
	if r.Seed != nil {
		key = "0123456789abcdef0123456789abcdef"
	}
	return &pb.CreateTableResponse{Table: &pb.Table{TableId: "t-1", Seeded: r.Seed != nil}, CreatorKey: key}, nil
}

func (f *entropyFake) Seek(r *pb.SeekRequest, st grpc.ServerStreamingServer[pb.SeekResponse]) error {
	f.mu.Lock()
	f.seeks = append(f.seeks, r.GetEntropy())
	f.mu.Unlock()
	return st.Send(&pb.SeekResponse{Event: &pb.SeekResponse_Seated{Seated: &pb.Assignment{TableId: "t-9", SeatToken: "tok"}}})
}

func (f *entropyFake) Compete(r *pb.CompeteRequest, st grpc.ServerStreamingServer[pb.CompeteResponse]) error {
	f.mu.Lock()
	f.competes = append(f.competes, r.GetEntropy())
	f.mu.Unlock()
	return st.Send(&pb.CompeteResponse{Assignment: &pb.Assignment{TableId: "t-1", SeatToken: "tok"}})
}

// calls is how many calls of any kind the fake received.
func (f *entropyFake) calls() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.joins) + len(f.seeks) + len(f.competes)
}

// count is n bytes 0, 1, 2...
func count(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i)
	}
	return b
}

func TestJoinSends32FreshRandomBytesByDefault(t *testing.T) {
	f := &entropyFake{}
	c := startServer(t, f)
	ctx := context.Background()
	a, err := c.Join(ctx, "t-1", "me")
	if err != nil {
		t.Fatal(err)
	}
	b, err := c.Join(ctx, "t-1", "me", AtSeat(1))
	if err != nil {
		t.Fatal(err)
	}
	if len(f.joins) != 2 || len(f.joins[0]) != DefaultEntropyBytes || len(f.joins[1]) != DefaultEntropyBytes {
		t.Fatalf("sent %x, want two contributions of %d bytes", f.joins, DefaultEntropyBytes)
	}
	if bytes.Equal(f.joins[0], f.joins[1]) {
		t.Fatalf("two joins sent the same bytes %x", f.joins[0])
	}
	if !bytes.Equal(a.Entropy(), f.joins[0]) || !bytes.Equal(b.Entropy(), f.joins[1]) {
		t.Fatalf("Seat.Entropy %x %x, sent %x", a.Entropy(), b.Entropy(), f.joins)
	}
	if a.Table().GetDealScheme() != DealScheme || a.Table().GetCommitment() != "ab12" || a.Table().GetSeeded() {
		t.Fatalf("the seat's table %v", a.Table())
	}
}

func TestJoinSendsTheCallersEntropyAsGiven(t *testing.T) {
	f := &entropyFake{}
	c := startServer(t, f)
	ctx := context.Background()
	mine := count(MaxEntropyBytes)
	seat, err := c.Join(ctx, "t-1", "me", WithEntropy(mine), AtSeat(2))
	if err != nil {
		t.Fatal(err)
	}
	mine[0] = 0xff // the option took a copy
	if !bytes.Equal(f.joins[0], count(MaxEntropyBytes)) || !bytes.Equal(seat.Entropy(), count(MaxEntropyBytes)) {
		t.Fatalf("sent %x", f.joins[0])
	}
	if _, err := c.Join(ctx, "t-1", "me", WithEntropy([]byte{7})); err != nil || !bytes.Equal(f.joins[1], []byte{7}) {
		t.Fatalf("one byte: sent %x (%v)", f.joins[1], err)
	}
	seat, err = c.Join(ctx, "t-1", "me", WithoutEntropy())
	if err != nil || len(f.joins[2]) != 0 || seat.Entropy() != nil {
		t.Fatalf("without entropy: sent %x (%v)", f.joins[2], err)
	}
}

func TestEntropyOfTheWrongLengthIsRefusedWithoutACall(t *testing.T) {
	f := &entropyFake{}
	c := startServer(t, f)
	ctx := context.Background()
	for _, b := range [][]byte{count(MaxEntropyBytes + 1), {}, nil} {
		_, err := c.Join(ctx, "t-1", "me", WithEntropy(b))
		var e *EntropyError
		if !errors.As(err, &e) || e.Len != len(b) {
			t.Fatalf("%d bytes: want *EntropyError, got %v", len(b), err)
		}
		if _, err := c.Seek(ctx, &pb.SeekRequest{}, WithEntropy(b)); !errors.As(err, &e) {
			t.Fatalf("seek, %d bytes: want *EntropyError, got %v", len(b), err)
		}
		for _, err := range c.Compete(ctx, 1, WithEntropy(b)) {
			if !errors.As(err, &e) {
				t.Fatalf("compete, %d bytes: want *EntropyError, got %v", len(b), err)
			}
		}
	}
	if _, err := c.Seek(ctx, &pb.SeekRequest{Entropy: count(65)}); !errors.As(err, new(*EntropyError)) {
		t.Fatalf("seek with 65 bytes in the request: %v", err)
	}
	if n := f.calls(); n != 0 {
		t.Fatalf("%d calls reached the server", n)
	}
	want := "calabresella: entropy holds 65 bytes: it must hold 1 to 64 (or use WithoutEntropy to contribute none)"
	if got := (&EntropyError{Len: 65}).Error(); got != want {
		t.Fatalf("message %q", got)
	}
}

func TestSeekAndCompeteContribute(t *testing.T) {
	f := &entropyFake{}
	c := startServer(t, f)
	ctx := context.Background()
	req := &pb.SeekRequest{BotsAfterMs: 5}
	if _, err := c.Seek(ctx, req); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Seek(ctx, req); err != nil {
		t.Fatal(err)
	}
	if len(req.GetEntropy()) != 0 {
		t.Fatal("Seek changed the caller's request")
	}
	if _, err := c.Seek(ctx, &pb.SeekRequest{Entropy: []byte{1, 2, 3}}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Seek(ctx, &pb.SeekRequest{Entropy: []byte{1, 2, 3}}, WithEntropy([]byte{9})); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Seek(ctx, nil, WithoutEntropy()); err != nil {
		t.Fatal(err)
	}
	s := f.seeks
	if len(s[0]) != DefaultEntropyBytes || len(s[1]) != DefaultEntropyBytes || bytes.Equal(s[0], s[1]) {
		t.Fatalf("default seeks sent %x", s[:2])
	}
	if !bytes.Equal(s[2], []byte{1, 2, 3}) || !bytes.Equal(s[3], []byte{9}) || len(s[4]) != 0 {
		t.Fatalf("seeks sent %x", s[2:])
	}

	for _, opts := range [][]EntropyOption{nil, {WithEntropy([]byte{4, 5})}, {WithoutEntropy()}} {
		for _, err := range c.Compete(ctx, 1, opts...) {
			if err != nil {
				t.Fatal(err)
			}
		}
	}
	if k := f.competes; len(k[0]) != DefaultEntropyBytes || !bytes.Equal(k[1], []byte{4, 5}) || len(k[2]) != 0 {
		t.Fatalf("competes sent %x", k)
	}
}

func TestASeededTablesCreatorKeyComesBackAndJoinPresentsIt(t *testing.T) {
	f := &entropyFake{}
	c := startServer(t, f)
	ctx := context.Background()
	table, key, err := c.CreateTableWithKey(ctx, "calabresella", WithSeed(5))
	if err != nil {
		t.Fatal(err)
	}
	if !table.GetSeeded() || key != "0123456789abcdef0123456789abcdef" {
		t.Fatalf("table %v, key %q", table, key)
	}
	if _, err := c.Join(ctx, table.GetTableId(), "me", WithCreatorKey(key)); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Join(ctx, table.GetTableId(), "me"); err != nil {
		t.Fatal(err)
	}
	if len(f.keys) != 2 || f.keys[0] != key || f.keys[1] != "" {
		t.Fatalf("sent keys %q", f.keys)
	}
}
