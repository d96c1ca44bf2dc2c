package calabresella

import (
	"context"
	"io"
	"iter"
	"time"

	"google.golang.org/grpc/codes"

	pb "github.com/calabresella/calabresella/clients/go/gen/calabresella/v1"
)

// Position is where a stream stands: the sequence number of the last update received and the
// stream epoch it belongs to. Passing it back when a stream is opened again resumes it with
// the next update (the server sends a Snapshot instead when it cannot).
type Position struct {
	// Seq is the last sequence number received (0: none yet).
	Seq uint64
	// Epoch is the stream_epoch of that update.
	Epoch string
}

// Accept checks u's sequence number against the position and moves to it. An update must
// carry the last number plus one; a Snapshot resets the numbering (its number becomes the
// last), as does the very first update.
func (p *Position) Accept(u *pb.Update) error {
	if u.GetSnapshot() == nil && p.Seq > 0 && u.GetSeq() != p.Seq+1 {
		return &SequenceError{Last: p.Seq, Got: u.GetSeq()}
	}
	p.Seq = u.GetSeq()
	p.Epoch = u.GetStreamEpoch()
	return nil
}

// ResumeAfter is the resume point to send when opening the stream: nil before any update.
func (p *Position) ResumeAfter() *uint64 {
	if p.Seq == 0 {
		return nil
	}
	seq := p.Seq
	return &seq
}

// receiver is an open stream: Recv returns the next update, io.EOF at a clean end.
type receiver interface {
	Recv() (*pb.Update, error)
}

// opener opens (or resumes, from the position) a stream under ctx.
type opener func(ctx context.Context, from *Position) (receiver, error)

// follower follows one stream (a seat's or the public one) across reconnections.
type follower struct {
	open opener
	// client gives the outage window and says when it is closed.
	client *Client
	pos    *Position
	// reconnects counts streams reopened after a drop.
	reconnects *int
}

// updates yields the stream's updates in order until MatchEnded (included), reopening it
// from the last position after a drop, within the outage window. An error is yielded once,
// last: a refusal of the server, a broken order, a lost connection, ErrClientClosed or the
// context's error.
func (f follower) updates(ctx context.Context) iter.Seq2[*pb.Update, error] {
	return func(yield func(*pb.Update, error) bool) {
		down := f.client.outage()
		dropped := false
		for {
			if err := ctx.Err(); err != nil {
				yield(nil, err)
				return
			}
			if f.client.isClosed() {
				yield(nil, ErrClientClosed)
				return
			}
			stop, err := f.follow(ctx, &down, &dropped, yield)
			if stop {
				return
			}
			dropped = true
			switch {
			case ctx.Err() != nil:
				err = ctx.Err()
			case f.client.isClosed():
				err = ErrClientClosed
			case err == io.EOF:
				// Closed without MatchEnded: a server going away; resume.
				err = &Error{Code: codes.Unavailable, Message: "the stream ended before MatchEnded"}
			default:
				err = f.client.callErr(ctx, err)
			}
			if !transient(err) {
				yield(nil, err)
				return
			}
			if werr := down.wait(ctx, time.Now(), "the stream could not be reopened", err); werr != nil {
				yield(nil, werr)
				return
			}
		}
	}
}

// follow opens the stream once and passes its updates on. It returns stop when the range is
// over (MatchEnded passed on, a broken order yielded, or the consumer stopped), else the
// error that ended the stream (raw, io.EOF at a clean end) for updates to judge.
func (f follower) follow(ctx context.Context, down *outage, dropped *bool, yield func(*pb.Update, error) bool) (stop bool, err error) {
	sctx, cancel := context.WithCancel(ctx)
	// Deferred, so the stream is closed however this ends: a panic in the range's body
	// unwinds through yield, and would otherwise leave the stream open on the server.
	defer cancel()
	stream, err := f.open(sctx, f.pos)
	if err != nil {
		return false, err
	}
	for {
		u, err := stream.Recv()
		if err != nil {
			return false, err
		}
		down.reset()
		if *dropped {
			*dropped = false
			*f.reconnects++
		}
		if perr := f.pos.Accept(u); perr != nil {
			yield(nil, perr)
			return true, nil
		}
		if !yield(u, nil) || u.GetMatchEnded() != nil {
			return true, nil
		}
	}
}
