package calabresella

import (
	"context"
	"errors"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

func TestPositionAcceptsTheNextNumberAndSnapshotsReset(t *testing.T) {
	var p Position
	if p.ResumeAfter() != nil {
		t.Fatal("a new position has no resume point")
	}
	for _, u := range []*struct {
		seq  uint64
		snap bool
		ok   bool
	}{{5, true, true}, {6, false, true}, {8, false, false}, {7, false, true}, {3, true, true}, {4, false, true}, {4, false, false}} {
		upd := event(u.seq, "e1", nil)
		if u.snap {
			upd = snapshot(u.seq, "e2", nil)
		}
		err := p.Accept(upd)
		if (err == nil) != u.ok {
			t.Fatalf("seq %d after %d: err %v, want ok=%v", u.seq, p.Seq, err, u.ok)
		}
		var se *SequenceError
		if err != nil && !errors.As(err, &se) {
			t.Fatalf("not a SequenceError: %v", err)
		}
	}
	if p.Seq != 4 || p.Epoch != "e1" || *p.ResumeAfter() != 4 {
		t.Fatalf("position %+v", p)
	}
}

func TestUpdatesResumeAfterADropWithTheLastSeqAndEpoch(t *testing.T) {
	f := &fakeServer{}
	f.script(status.Error(codes.Unavailable, "server going away"), snapshot(3, "A", nil), event(4, "A", nil))
	f.script(nil, event(5, "A", nil), ended(6, "A"))
	c := start(t, f)
	seat := c.Seat("t-1", 0, "tok")
	var seqs []uint64
	for u, err := range seat.Updates(context.Background()) {
		if err != nil {
			t.Fatal(err)
		}
		seqs = append(seqs, u.GetSeq())
	}
	if len(seqs) != 4 || seqs[3] != 6 {
		t.Fatalf("seqs %v", seqs)
	}
	if len(f.observed) != 2 {
		t.Fatalf("%d Observe calls", len(f.observed))
	}
	if f.observed[0].ResumeAfter != nil || f.observed[0].GetSeatToken() != "tok" {
		t.Fatalf("first request %v", f.observed[0])
	}
	if r := f.observed[1]; r.ResumeAfter == nil || r.GetResumeAfter() != 4 || r.GetStreamEpoch() != "A" {
		t.Fatalf("resume request %v", r)
	}
	if seat.Reconnects() != 1 {
		t.Fatalf("reconnects %d", seat.Reconnects())
	}
}

func TestUpdatesStopAtAGapAndAtARefusal(t *testing.T) {
	f := &fakeServer{}
	f.script(nil, snapshot(1, "A", nil), event(3, "A", nil))
	c := start(t, f)
	var got error
	for _, err := range c.Seat("t", 0, "x").Updates(context.Background()) {
		got = err
	}
	var se *SequenceError
	if !errors.As(got, &se) || se.Last != 1 || se.Got != 3 {
		t.Fatalf("got %v", got)
	}

	f = &fakeServer{}
	f.script(refused(codes.PermissionDenied, "BAD_TOKEN"))
	c = start(t, f)
	for _, err := range c.Seat("t", 0, "x").Updates(context.Background()) {
		got = err
	}
	var e *Error
	if !errors.As(got, &e) || e.Code != codes.PermissionDenied || e.Reason != "BAD_TOKEN" {
		t.Fatalf("got %v", got)
	}
}

func TestBreakingTheRangeThenRangingAgainResumes(t *testing.T) {
	f := &fakeServer{}
	f.script(nil, snapshot(1, "A", nil), event(2, "A", nil), event(3, "A", nil))
	f.script(nil, event(3, "A", nil), ended(4, "A"))
	c := start(t, f)
	seat := c.Seat("t", 0, "x")
	for u, err := range seat.Updates(context.Background()) {
		if err != nil {
			t.Fatal(err)
		}
		if u.GetSeq() == 2 {
			break
		}
	}
	var first uint64
	for u, err := range seat.Updates(context.Background()) {
		if err != nil {
			t.Fatal(err)
		}
		if first == 0 {
			first = u.GetSeq()
		}
	}
	if first != 3 || f.observed[1].GetResumeAfter() != 2 {
		t.Fatalf("first %d after resume, request %v", first, f.observed[1])
	}
}
