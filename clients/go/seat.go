package calabresella

import (
	"context"
	"fmt"
	"iter"
	"log/slog"
	"strconv"
	"time"

	pb "github.com/calabresella/calabresella/clients/go/gen/calabresella/v1"
)

// Seat is a joined seat: its table, number and secret token, and where its stream stands.
// A Seat follows one stream at a time: do not range over Updates (or Play) from two
// goroutines at once. Act and Observation may be called from any goroutine.
//
// Printing a Seat (fmt's %v, %+v, %#v, %s, or slog) never shows its token, only
// "[redacted]": logging a seat must not hand its seat to whoever reads the log. Token
// returns it, to be kept somewhere safe.
type Seat struct {
	client  *Client
	tableID string
	number  uint32
	token   string
	table   *pb.Table
	entropy []byte
	pos     Position
	// reconnects counts streams reopened after a drop, over the seat's life.
	reconnects int
}

// JoinOption configures Join: AtSeat, WithCreatorKey, and an EntropyOption (WithEntropy,
// WithoutEntropy).
type JoinOption interface {
	applyJoin(*joinConfig)
}

// joinConfig is what the options of Join set.
type joinConfig struct {
	req     *pb.JoinTableRequest
	entropy entropyChoice
}

// joinFunc is a JoinOption that sets the request.
type joinFunc func(*joinConfig)

func (f joinFunc) applyJoin(c *joinConfig) { f(c) }

// AtSeat asks for this seat (0-based) rather than the lowest open one.
func AtSeat(seat uint32) JoinOption {
	return joinFunc(func(c *joinConfig) { c.req.Seat = &seat })
}

// WithCreatorKey presents a seeded table's creator key (CreateTableWithKey): a seeded table
// seats only its creator.
func WithCreatorKey(key string) JoinOption {
	return joinFunc(func(c *joinConfig) { c.req.CreatorKey = key })
}

// Join takes an open seat of tableID as playerName. Keep the seat's Token: it is the only
// proof of the seat, and with Client.Seat it makes the handle again after a restart of the
// program.
//
// The seat contributes DefaultEntropyBytes fresh random bytes (crypto/rand) to the table's
// committed deals; WithEntropy sends the caller's own (1 to MaxEntropyBytes bytes: any other
// length is an *EntropyError before any call) and WithoutEntropy none. Seat.Entropy is what
// was sent; once the match starts, GetTable shows every seat's (SeatInfo.Entropy) and the
// record names them (docs/RECORDS.md, "Deals").
func (c *Client) Join(ctx context.Context, tableID, playerName string, opts ...JoinOption) (*Seat, error) {
	cfg := joinConfig{req: &pb.JoinTableRequest{TableId: tableID, PlayerName: playerName}}
	for _, o := range opts {
		o.applyJoin(&cfg)
	}
	entropy, err := cfg.entropy.resolve(nil)
	if err != nil {
		return nil, err
	}
	req := cfg.req
	req.Entropy = entropy
	r, err := call(ctx, c, func(ctx context.Context) (*pb.JoinTableResponse, error) {
		return c.rpc.JoinTable(ctx, req)
	})
	if err != nil {
		return nil, err
	}
	return &Seat{client: c, tableID: tableID, number: r.GetSeat(), token: r.GetSeatToken(), table: r.GetTable(), entropy: entropy}, nil
}

// Seat makes the handle of a seat joined before (by this program or an earlier run) from its
// table, number and token. With from, its stream resumes after that position; without, it
// opens with a Snapshot.
func (c *Client) Seat(tableID string, seat uint32, token string, from ...Position) *Seat {
	s := &Seat{client: c, tableID: tableID, number: seat, token: token}
	if len(from) > 0 {
		s.pos = from[0]
	}
	return s
}

// TableID is the seat's table.
func (s *Seat) TableID() string { return s.tableID }

// Number is the seat, 0-based in play order.
func (s *Seat) Number() uint32 { return s.number }

// Token is the secret seat token.
func (s *Seat) Token() string { return s.token }

// Table is the table as JoinTable returned it (nil for a handle made with Client.Seat).
func (s *Seat) Table() *pb.Table { return s.table }

// Entropy is the contribution to the table's deals Join sent (nil for none, and for a handle
// made with Client.Seat). Once the match starts, GetTable shows it as the seat's
// SeatInfo.Entropy, and the record as meta.deals.contributions[seat] in hex.
func (s *Seat) Entropy() []byte { return s.entropy }

// Position is where the seat's stream stands: the last update's sequence number and epoch.
func (s *Seat) Position() Position { return s.pos }

// Reconnects counts the streams reopened after a drop.
func (s *Seat) Reconnects() int { return s.reconnects }

// redacted stands for the token wherever a seat is printed.
const redacted = "[redacted]"

// String describes the seat without its token, e.g.
// `seat 0 of table "t-1" (token [redacted], after seq 4 of epoch "A")`.
func (s Seat) String() string {
	return fmt.Sprintf("seat %d of table %q (token %s, after seq %d of epoch %q)", s.number, s.tableID, redacted, s.pos.Seq, s.pos.Epoch)
}

// GoString is the %#v form, the token redacted.
func (s Seat) GoString() string {
	return fmt.Sprintf("calabresella.Seat{TableID:%q, Number:%d, Token:%q, Position:%#v}", s.tableID, s.number, redacted, s.pos)
}

// Format prints the seat for every verb without its token. String and GoString alone would
// not do: for the other verbs (%d, say) fmt prints a struct's fields itself, the token among
// them.
func (s Seat) Format(f fmt.State, verb rune) {
	switch {
	case verb == 'v' && f.Flag('#'):
		fmt.Fprint(f, s.GoString())
	case verb == 'v' || verb == 's':
		fmt.Fprint(f, s.String())
	case verb == 'q':
		fmt.Fprint(f, strconv.Quote(s.String()))
	default:
		fmt.Fprintf(f, "%%!%c(calabresella.Seat=%s)", verb, s.String())
	}
}

// LogValue is the seat for log/slog: table, seat and stream position, never the token.
func (s Seat) LogValue() slog.Value {
	return slog.GroupValue(
		slog.String("table", s.tableID),
		slog.Uint64("seat", uint64(s.number)),
		slog.String("token", redacted),
		slog.Uint64("seq", s.pos.Seq),
		slog.String("epoch", s.pos.Epoch),
	)
}

// Updates follows the seat's stream: every update in order, up to and including MatchEnded.
// It opens with a Snapshot on a new handle, or resumes after Position. Sequence numbers are
// checked (each update is the last plus one; a Snapshot resets them); a broken order ends it
// with a *SequenceError. After a drop or a server restart it reopens the stream with
// resume_after and stream_epoch from Position, for up to the client's outage window
// (ErrConnectionLost after it). Stopping the range (break) or cancelling ctx closes the
// stream; ranging again resumes after the last update seen. A refusal of the server (a bad
// token, an unknown table) is yielded as an *Error, last.
func (s *Seat) Updates(ctx context.Context) iter.Seq2[*pb.Update, error] {
	return follower{
		open: func(ctx context.Context, from *Position) (receiver, error) {
			st, err := s.client.rpc.Observe(ctx, &pb.ObserveRequest{
				TableId:     s.tableID,
				SeatToken:   s.token,
				ResumeAfter: from.ResumeAfter(),
				StreamEpoch: from.Epoch,
			})
			if err != nil {
				return nil, err
			}
			return observeReceiver{st}, nil
		},
		client:     s.client,
		pos:        &s.pos,
		reconnects: &s.reconnects,
	}.updates(ctx)
}

// observeReceiver unwraps ObserveResponse.
type observeReceiver struct {
	st pb.TableService_ObserveClient
}

// Recv is the next update.
func (r observeReceiver) Recv() (*pb.Update, error) {
	m, err := r.st.Recv()
	return m.GetUpdate(), err
}

// ActOnce answers decision with action, once: no retry. Like every call, it gives up as
// UNAVAILABLE when no answer comes within the client's outage window.
func (s *Seat) ActOnce(ctx context.Context, decision uint64, action *pb.Action) (*pb.ActResponse, error) {
	return call(ctx, s.client, func(ctx context.Context) (*pb.ActResponse, error) {
		return s.client.rpc.Act(ctx, &pb.ActRequest{
			TableId:   s.tableID,
			SeatToken: s.token,
			Decision:  decision,
			Action:    action,
		})
	})
}

// Act answers decision (the Turn's Decision) with action (see Notation for the short form).
// The call is idempotent, so it is sent again, unchanged, while the server is unreachable or
// the connection breaks (UNAVAILABLE, CANCELLED from the transport, RESOURCE_EXHAUSTED
// RATE_LIMITED, no answer at all): 50 ms doubling to 1 s between tries, until the outage
// has lasted the client's outage window (ErrConnectionLost). A try that gets no answer is
// given up after the window too, so a host that vanished costs one window, not a hang.
// A retry the server had already applied returns OK with Duplicate set. Refusals are returned
// as *Error: INVALID_ARGUMENT (BAD_ACTION...), FAILED_PRECONDITION (ILLEGAL_ACTION,
// NOT_YOUR_TURN, MATCH_OVER...), ABORTED STALE_DECISION, PERMISSION_DENIED BAD_TOKEN...
// After Client.Close it returns ErrClientClosed at once.
func (s *Seat) Act(ctx context.Context, decision uint64, action *pb.Action) (*pb.ActResponse, error) {
	down := s.client.outage()
	for {
		began := time.Now()
		r, err := s.ActOnce(ctx, decision, action)
		if err == nil || !retryable(err) {
			return r, err
		}
		if werr := down.wait(ctx, began, "the answer could not be delivered", err); werr != nil {
			return nil, werr
		}
	}
}

// Observation is the seat's full observation now, with the number of the decision due. It is
// what the play loop fetches for a bot (Decision.Observation), so it is retried like Act
// while the server is unreachable, as every client's play loop does: a read has no effect
// to repeat, and a bot waiting for it must not lose its turn to a short outage.
func (s *Seat) Observation(ctx context.Context) (*pb.GetObservationResponse, error) {
	down := s.client.outage()
	for {
		began := time.Now()
		r, err := call(ctx, s.client, func(ctx context.Context) (*pb.GetObservationResponse, error) {
			return s.client.rpc.GetObservation(ctx, &pb.GetObservationRequest{TableId: s.tableID, SeatToken: s.token})
		})
		if err == nil {
			return r, nil
		}
		if !retryable(err) {
			return nil, err
		}
		if werr := down.wait(ctx, began, "the observation could not be fetched", err); werr != nil {
			return nil, werr
		}
	}
}

// Spectator follows a table's public stream (no hidden card: like a seat that holds none,
// plus a HandRevealed after each hand).
type Spectator struct {
	client     *Client
	tableID    string
	pos        Position
	reconnects int
}

// Spectator makes a spectator of tableID; with from, its stream resumes after that position.
func (c *Client) Spectator(tableID string, from ...Position) *Spectator {
	sp := &Spectator{client: c, tableID: tableID}
	if len(from) > 0 {
		sp.pos = from[0]
	}
	return sp
}

// Spectate yields the public updates of tableID from a Snapshot to MatchEnded (a shorthand
// for Client.Spectator(tableID).Updates(ctx)).
func (c *Client) Spectate(ctx context.Context, tableID string) iter.Seq2[*pb.Update, error] {
	return c.Spectator(tableID).Updates(ctx)
}

// Position is where the public stream stands.
func (sp *Spectator) Position() Position { return sp.pos }

// Reconnects counts the streams reopened after a drop.
func (sp *Spectator) Reconnects() int { return sp.reconnects }

// Updates follows the public stream with the same rules as Seat.Updates: numbers checked,
// resumed after a drop, ended after MatchEnded.
func (sp *Spectator) Updates(ctx context.Context) iter.Seq2[*pb.Update, error] {
	return follower{
		open: func(ctx context.Context, from *Position) (receiver, error) {
			st, err := sp.client.rpc.Spectate(ctx, &pb.SpectateRequest{
				TableId:     sp.tableID,
				ResumeAfter: from.ResumeAfter(),
				StreamEpoch: from.Epoch,
			})
			if err != nil {
				return nil, err
			}
			return spectateReceiver{st}, nil
		},
		client:     sp.client,
		pos:        &sp.pos,
		reconnects: &sp.reconnects,
	}.updates(ctx)
}

// spectateReceiver unwraps SpectateResponse.
type spectateReceiver struct {
	st pb.TableService_SpectateClient
}

// Recv is the next update.
func (r spectateReceiver) Recv() (*pb.Update, error) {
	m, err := r.st.Recv()
	return m.GetUpdate(), err
}
