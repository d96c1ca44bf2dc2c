package calabresella

import (
	"context"
	"errors"
	"fmt"

	"google.golang.org/grpc/codes"

	pb "github.com/calabresella/calabresella/clients/go/gen/calabresella/v1"
)

// Bot chooses the seat's answers. Choose is called once per answer the play loop needs: once
// per decision, and again after the server refused the previous answer (Decision.Refused).
// Returning a nil action is a fault: the turn's first legal action is played instead.
// Returning an error stops play with that error.
type Bot interface {
	// Choose returns the answer to d (see Decision).
	Choose(ctx context.Context, d *Decision) (*pb.Action, error)
}

// BotFunc makes a Bot of a function.
type BotFunc func(ctx context.Context, d *Decision) (*pb.Action, error)

// Choose calls f.
func (f BotFunc) Choose(ctx context.Context, d *Decision) (*pb.Action, error) { return f(ctx, d) }

// Notation is the action written in the action notation ("play 4c", "pass", "bid 2 80");
// the server reads Action.Notation alone.
func Notation(text string) *pb.Action { return &pb.Action{Notation: text} }

// ErrDecisionPassed is returned by Decision.Observation when the decision is no longer due
// (the clock answered it first): a bot that returns it (wrapped or not) makes the play loop
// wait for the stream instead of answering.
var ErrDecisionPassed = errors.New("calabresella: the decision is no longer due")

// Decision is what a bot answers: the turn, with its legal actions (each with its Notation),
// and the refusal of the previous answer to the same decision, if any.
type Decision struct {
	// Turn is the decision due: its number, actor, decider and legal actions.
	Turn *pb.Turn
	// Refused is the server's refusal of the previous answer to this decision (nil on the
	// first ask): INVALID_ARGUMENT, or FAILED_PRECONDITION ILLEGAL_ACTION.
	Refused *Error
	// Attempt counts the asks for this decision, from 1.
	Attempt int

	seat        *Seat
	observation *pb.Observation
}

// Seat is the seat being played.
func (d *Decision) Seat() *Seat { return d.seat }

// Observation is the seat's full observation for this decision (hand, trick, totals, events
// of the hand...). It is fetched lazily, with one GetObservation call the first time a bot
// asks for it and kept for the other asks of the same decision, so a bot that decides from
// the turn alone costs no extra call. It fails with ErrDecisionPassed when the server has
// moved past the decision.
func (d *Decision) Observation(ctx context.Context) (*pb.Observation, error) {
	if d.observation != nil {
		return d.observation, nil
	}
	r, err := d.seat.Observation(ctx)
	if err != nil {
		return nil, err
	}
	if r.GetDecision() != d.Turn.GetDecision() {
		return nil, ErrDecisionPassed
	}
	d.observation = r.GetObservation()
	return d.observation, nil
}

// Summary is how a played match went.
type Summary struct {
	// Ended is the MatchEnded update's content: the result and why the match ended.
	Ended *pb.MatchEnded
	// Decisions counts the seat's answers the server accepted (faults included; the clock's
	// answers not).
	Decisions int
	// Faults counts answers replaced by the turn's first legal action (refused MaxRefusals
	// times, or a nil action from the bot).
	Faults int
	// Reconnects counts streams reopened after a drop during play.
	Reconnects int
}

// PlayOption configures Play.
type PlayOption func(*playConfig)

// playConfig is what the options of Play set.
type playConfig struct {
	onUpdate    func(*pb.Update)
	maxRefusals int
}

// OnUpdate has f see every update of the stream, in order, before the loop acts on it.
func OnUpdate(f func(*pb.Update)) PlayOption {
	return func(c *playConfig) { c.onUpdate = f }
}

// WithMaxRefusals sets how many refused answers to one decision before the first legal
// action is played and counted as a fault (default MaxRefusals). 0 plays the first legal
// action at once, without asking the bot. A negative n sets no limit: the bot is asked again
// after every refusal until an answer is accepted or the clock decides (a later answer is
// then refused as stale and the loop waits for the stream), as for a person at the keyboard
// (the Rust client's max_refusals None).
func WithMaxRefusals(n int) PlayOption {
	return func(c *playConfig) { c.maxRefusals = n }
}

// Play plays the seat to the end of the match with bot and returns how it went. It follows
// the seat's stream in order (Updates: resumed after drops and server restarts); a turn is
// due when an update's turn, a snapshot's turn or an update's next_turn names this seat as
// decider with legal actions. Each decision is answered once (Act, retried while the server
// is unreachable). A refused answer (INVALID_ARGUMENT, or FAILED_PRECONDITION ILLEGAL_ACTION)
// is asked of the bot again, with the refusal; after MaxRefusals refusals (see
// WithMaxRefusals) the first legal action is played and counted as a fault. Other refusals
// (NOT_YOUR_TURN, MATCH_OVER, ABORTED STALE_DECISION...) mean the match moved on: the loop
// waits for the stream. Play ends at MatchEnded; it stops early with the bot's error, a final
// refusal of the server (*Error), ErrConnectionLost, ErrClientClosed (Client.Close), or
// ctx's error, returning the summary so far.
func (s *Seat) Play(ctx context.Context, bot Bot, opts ...PlayOption) (*Summary, error) {
	cfg := playConfig{maxRefusals: MaxRefusals}
	for _, o := range opts {
		o(&cfg)
	}
	sum := &Summary{}
	startReconnects := s.reconnects
	answered, hasAnswered := uint64(0), false
	for u, err := range s.Updates(ctx) {
		sum.Reconnects = s.reconnects - startReconnects
		if err != nil {
			return sum, err
		}
		if cfg.onUpdate != nil {
			cfg.onUpdate(u)
		}
		if m := u.GetMatchEnded(); m != nil {
			sum.Ended = m
			return sum, nil
		}
		t := DueTurn(u, s.number)
		if t == nil || (hasAnswered && t.GetDecision() == answered) {
			continue
		}
		if err := s.answer(ctx, bot, t, cfg, sum); err != nil {
			return sum, err
		}
		answered, hasAnswered = t.GetDecision(), true
	}
	// Updates always ends with MatchEnded or an error; this is a stream cut by ctx.
	if err := ctx.Err(); err != nil {
		return sum, err
	}
	return sum, fmt.Errorf("calabresella: the stream ended before MatchEnded")
}

// DueTurn is the turn u makes due for seat, or nil: the update's turn (a turn update's, or
// a snapshot's), else its next_turn, when seat is the decider and has legal actions.
func DueTurn(u *pb.Update, seat uint32) *pb.Turn {
	t := u.GetTurn()
	if s := u.GetSnapshot(); s != nil {
		t = s.GetTurn()
	}
	if t == nil {
		t = u.GetNextTurn()
	}
	if t == nil || t.GetDecider() != seat || len(t.GetLegalActions()) == 0 {
		return nil
	}
	return t
}

// refusal says whether the server refused an answer itself (malformed, or not legal now), so
// that another answer may do; the other failed preconditions are settled by the stream.
func refusal(e *Error) bool {
	return e.Code == codes.InvalidArgument ||
		(e.Code == codes.FailedPrecondition && e.Reason == "ILLEGAL_ACTION")
}

// answer answers turn until it is settled: accepted, refused for good, or overtaken.
func (s *Seat) answer(ctx context.Context, bot Bot, turn *pb.Turn, cfg playConfig, sum *Summary) error {
	d := &Decision{Turn: turn, seat: s}
	refusals := 0
	for {
		// A negative limit is no limit.
		gaveUp := cfg.maxRefusals >= 0 && refusals >= cfg.maxRefusals
		var action *pb.Action
		if !gaveUp {
			d.Attempt++
			a, err := bot.Choose(ctx, d)
			if errors.Is(err, ErrDecisionPassed) {
				return nil
			}
			if err != nil {
				return err
			}
			action = a
		}
		if action == nil {
			sum.Faults++
			action = turn.GetLegalActions()[0]
		}
		_, err := s.Act(ctx, turn.GetDecision(), action)
		if err == nil {
			sum.Decisions++
			return nil
		}
		var e *Error
		if !errors.As(err, &e) || errors.Is(err, ErrConnectionLost) {
			return err
		}
		switch {
		case refusal(e) && gaveUp:
			// Even the first legal action was refused: the clock decides.
			return nil
		case refusal(e):
			refusals++
			d.Refused = e
		case e.Code == codes.Aborted || e.Code == codes.FailedPrecondition:
			// The clock answered first, the turn passed or the match is over: the stream
			// says what happened.
			return nil
		default:
			return err
		}
	}
}
