package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"time"

	"google.golang.org/protobuf/proto"

	calabresella "github.com/calabresella/calabresella/clients/go"
	pb "github.com/calabresella/calabresella/clients/go/gen/calabresella/v1"
)

// playerName is the name the runner joins seats under.
const playerName = "conformance-go"

// runner holds what every scenario shares.
type runner struct {
	address string
	// options are the client's options (the CA certificate of --ca-cert).
	options []calabresella.ClientOption
}

// firstLegal is "the bot" of the scenarios: the first of the turn's legal actions.
func firstLegal(_ context.Context, d *calabresella.Decision) (*pb.Action, error) {
	return d.Turn.GetLegalActions()[0], nil
}

// run executes one scenario; it returns a line to print instead of PASS (bench), or the
// reason it failed.
func (r *runner) run(ctx context.Context, s scenario) (string, error) {
	c, err := calabresella.Dial(r.address, r.options...)
	if err != nil {
		return "", err
	}
	defer c.Close()
	switch s.Kind {
	case "match":
		return "", r.match(ctx, c, s)
	case "resume":
		return "", r.resume(ctx, c, s)
	case "duplicate_act":
		return "", r.duplicateAct(ctx, c, s)
	case "stale_decision":
		return "", r.staleDecision(ctx, c, s)
	case "illegal_action":
		return "", r.illegalAction(ctx, c, s)
	case "bad_token":
		return "", r.badToken(ctx, c, s)
	case "unknown_table":
		_, err := c.GetTable(ctx, s.TableID)
		return "", expectError(err, s.Expect)
	case "spectate":
		return "", r.spectate(ctx, c, s)
	case "restart":
		return "", r.restart(ctx, c, s)
	case "fair_deal":
		return "", r.fairDeal(ctx, c, s)
	case "bench":
		return r.bench(ctx, c, s)
	}
	return "", fmt.Errorf("unknown kind %q", s.Kind)
}

// createAndJoin creates the scenario's table (with seed) and joins its seat.
func createAndJoin(ctx context.Context, c *calabresella.Client, s scenario, seed uint64) (*calabresella.Seat, error) {
	t, err := c.CreateTable(ctx, s.Game,
		calabresella.WithRules(s.Options), calabresella.WithSeats(s.Seats...),
		calabresella.WithSeed(seed), calabresella.WithName(s.Name),
		calabresella.WithBotDelay(time.Duration(s.BotDelayMs)*time.Millisecond))
	if err != nil {
		return nil, fmt.Errorf("create table: %w", err)
	}
	seat, err := c.Join(ctx, t.GetTableId(), playerName, calabresella.AtSeat(s.Seat))
	if err != nil {
		return nil, fmt.Errorf("join: %w", err)
	}
	return seat, nil
}

// playWith plays the seat with bot and checks the result (the "match" kind's pass rule).
func playWith(ctx context.Context, c *calabresella.Client, seat *calabresella.Seat, bot calabresella.BotFunc) (*calabresella.Summary, error) {
	asked := 0
	counting := func(ctx context.Context, d *calabresella.Decision) (*pb.Action, error) {
		asked++
		return bot(ctx, d)
	}
	sum, err := seat.Play(ctx, calabresella.BotFunc(counting))
	if err != nil {
		return sum, fmt.Errorf("play: %w", err)
	}
	if asked == 0 {
		return sum, errors.New("the bot was never asked")
	}
	return sum, checkSummary(ctx, c, seat.TableID(), sum.Ended)
}

func (r *runner) match(ctx context.Context, c *calabresella.Client, s scenario) error {
	seat, err := createAndJoin(ctx, c, s, s.Seed)
	if err != nil {
		return err
	}
	_, err = playWith(ctx, c, seat, firstLegal)
	return err
}

func (r *runner) restart(ctx context.Context, c *calabresella.Client, s scenario) error {
	seat, err := createAndJoin(ctx, c, s, s.Seed)
	if err != nil {
		return err
	}
	command := os.Getenv("CONFORMANCE_RESTART")
	if command == "" {
		return errors.New("CONFORMANCE_RESTART is not set")
	}
	decisions := 0
	sum, err := playWith(ctx, c, seat, func(ctx context.Context, d *calabresella.Decision) (*pb.Action, error) {
		// Count decisions, not asks: a refused answer is asked again for the same decision.
		if d.Attempt == 1 {
			decisions++
			if decisions == s.RestartAtDecision {
				out, err := exec.CommandContext(ctx, "sh", "-c", command).CombinedOutput()
				if err != nil {
					return nil, fmt.Errorf("CONFORMANCE_RESTART: %w: %s", err, out)
				}
			}
		}
		return firstLegal(ctx, d)
	})
	if err != nil {
		return err
	}
	if sum.Reconnects == 0 {
		return errors.New("the match completed without reopening the stream after the restart")
	}
	return nil
}

func (r *runner) bench(ctx context.Context, c *calabresella.Client, s scenario) (string, error) {
	decisions := 0
	started := time.Now()
	for i := range s.Matches {
		seat, err := createAndJoin(ctx, c, s, s.Seed+uint64(i))
		if err != nil {
			return "", err
		}
		sum, err := seat.Play(ctx, calabresella.BotFunc(firstLegal))
		if err != nil {
			return "", fmt.Errorf("match %d: %w", i+1, err)
		}
		decisions += sum.Decisions
	}
	secs := time.Since(started).Seconds()
	return fmt.Sprintf("BENCH go %s decisions=%d seconds=%.3f decisions_per_second=%.1f",
		s.Name, decisions, secs, float64(decisions)/secs), nil
}

// resume reads the seat's stream directly, drops it after drop_after_updates updates and
// opens it again from the last position.
func (r *runner) resume(ctx context.Context, c *calabresella.Client, s scenario) error {
	seat, err := createAndJoin(ctx, c, s, s.Seed)
	if err != nil {
		return err
	}
	var seqs []uint64
	var ended *pb.MatchEnded
	answered := map[uint64]bool{}
	// handle answers a turn the update makes due, once per decision.
	handle := func(u *pb.Update) error {
		seqs = append(seqs, u.GetSeq())
		if m := u.GetMatchEnded(); m != nil {
			ended = m
			return nil
		}
		t := calabresella.DueTurn(u, seat.Number())
		if t == nil || answered[t.GetDecision()] {
			return nil
		}
		answered[t.GetDecision()] = true
		_, err := seat.Act(ctx, t.GetDecision(), t.GetLegalActions()[0])
		return err
	}
	for u, err := range seat.Updates(ctx) {
		if err != nil {
			return fmt.Errorf("before the drop: %w", err)
		}
		if err := handle(u); err != nil {
			return err
		}
		if len(seqs) == s.DropAfterUpdates || ended != nil {
			break // cancels the stream
		}
	}
	if ended != nil {
		return fmt.Errorf("the match ended within %d updates", len(seqs))
	}
	last := seat.Position()
	if last.Seq != seqs[len(seqs)-1] {
		return fmt.Errorf("position %d is not the last update seen %d", last.Seq, seqs[len(seqs)-1])
	}
	first := true
	for u, err := range seat.Updates(ctx) {
		if err != nil {
			return fmt.Errorf("after the resume: %w", err)
		}
		if first {
			first = false
			if u.GetSeq() != last.Seq+1 || u.GetSnapshot() != nil {
				return fmt.Errorf("the first update after resuming after %d is seq %d (snapshot: %v)",
					last.Seq, u.GetSeq(), u.GetSnapshot() != nil)
			}
		}
		if err := handle(u); err != nil {
			return err
		}
	}
	for i := 1; i < len(seqs); i++ {
		if seqs[i] != seqs[i-1]+1 {
			return fmt.Errorf("seq %d after %d", seqs[i], seqs[i-1])
		}
	}
	if ended == nil {
		return errors.New("the stream did not end with MatchEnded")
	}
	return checkSummary(ctx, c, seat.TableID(), ended)
}

// firstTurn follows the seat's stream to its first due turn, answering nothing.
func firstTurn(ctx context.Context, seat *calabresella.Seat) (*pb.Turn, error) {
	for u, err := range seat.Updates(ctx) {
		if err != nil {
			return nil, err
		}
		if t := calabresella.DueTurn(u, seat.Number()); t != nil {
			return t, nil
		}
	}
	return nil, errors.New("the match ended before the seat's first turn")
}

func (r *runner) duplicateAct(ctx context.Context, c *calabresella.Client, s scenario) error {
	seat, err := createAndJoin(ctx, c, s, s.Seed)
	if err != nil {
		return err
	}
	t, err := firstTurn(ctx, seat)
	if err != nil {
		return err
	}
	a := t.GetLegalActions()[0]
	first, err := seat.Act(ctx, t.GetDecision(), a)
	if err != nil {
		return fmt.Errorf("first answer: %w", err)
	}
	second, err := seat.Act(ctx, t.GetDecision(), a)
	if err != nil {
		return fmt.Errorf("second answer: %w", err)
	}
	switch {
	case first.GetDuplicate():
		return errors.New("the first answer has duplicate = true")
	case !second.GetDuplicate():
		return errors.New("the second answer has duplicate = false")
	case !proto.Equal(first.GetAction(), second.GetAction()):
		return fmt.Errorf("the answers applied different actions: %v, %v", first.GetAction(), second.GetAction())
	}
	return nil
}

func (r *runner) staleDecision(ctx context.Context, c *calabresella.Client, s scenario) error {
	seat, err := createAndJoin(ctx, c, s, s.Seed)
	if err != nil {
		return err
	}
	answered := map[uint64]bool{}
	for u, err := range seat.Updates(ctx) {
		if err != nil {
			return err
		}
		t := calabresella.DueTurn(u, seat.Number())
		if t == nil || answered[t.GetDecision()] {
			continue
		}
		answered[t.GetDecision()] = true
		legal := t.GetLegalActions()
		if _, err := seat.Act(ctx, t.GetDecision(), legal[0]); err != nil {
			return fmt.Errorf("answer to decision %d: %w", t.GetDecision(), err)
		}
		if len(legal) >= 2 {
			_, err := seat.Act(ctx, t.GetDecision(), legal[1])
			return expectError(err, s.Expect)
		}
	}
	return errors.New("no turn with two legal actions before the end")
}

func (r *runner) illegalAction(ctx context.Context, c *calabresella.Client, s scenario) error {
	seat, err := createAndJoin(ctx, c, s, s.Seed)
	if err != nil {
		return err
	}
	t, err := firstTurn(ctx, seat)
	if err != nil {
		return err
	}
	for _, try := range s.Try {
		legal := slices.ContainsFunc(t.GetLegalActions(), func(a *pb.Action) bool { return a.GetNotation() == try })
		if !legal {
			_, err := seat.Act(ctx, t.GetDecision(), calabresella.Notation(try))
			return expectError(err, s.Expect)
		}
	}
	return errors.New("every action of try is legal")
}

func (r *runner) badToken(ctx context.Context, c *calabresella.Client, s scenario) error {
	seat, err := createAndJoin(ctx, c, s, s.Seed)
	if err != nil {
		return err
	}
	other := c.Seat(seat.TableID(), seat.Number(), s.Token)
	_, err = other.Act(ctx, 0, calabresella.Notation("pass"))
	return expectError(err, s.Expect)
}

// expectError checks that err is the client's typed error with the expected code and reason.
func expectError(err error, want *expectation) error {
	if want == nil {
		return errors.New("the scenario has no expect")
	}
	if err == nil {
		return fmt.Errorf("the call succeeded; expected %s %s", want.Code, want.Reason)
	}
	var e *calabresella.Error
	if !errors.As(err, &e) {
		return fmt.Errorf("not a typed error: %v", err)
	}
	if got := calabresella.CodeName(e.Code); got != want.Code || e.Reason != want.Reason {
		return fmt.Errorf("got %s %s (%s); expected %s %s", got, e.Reason, e.Message, want.Code, want.Reason)
	}
	return nil
}
