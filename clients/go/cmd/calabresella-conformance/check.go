package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"time"

	calabresella "github.com/calabresella/calabresella/clients/go"
	pb "github.com/calabresella/calabresella/clients/go/gen/calabresella/v1"
)

// replay is the part of `calabresella replay -` output the summary check reads.
type replay struct {
	Hands []json.RawMessage `json:"hands"`
	Match struct {
		Over bool `json:"over"`
		// The winning seats (match.winners is a team index in Tressette).
		WinningSeats []uint32 `json:"winning_seats"`
		Draw         bool     `json:"draw"`
		Totals       []int32  `json:"totals"`
	} `json:"match"`
}

// checkSummary is the README's summary check: the record of the table, replayed by the
// engine, agrees with the MatchEnded the client received.
func checkSummary(ctx context.Context, c *calabresella.Client, tableID string, ended *pb.MatchEnded) error {
	if ended == nil {
		return errors.New("no MatchEnded")
	}
	if ended.GetReason() != pb.EndReason_END_REASON_COMPLETED {
		return fmt.Errorf("the match ended with %v", ended.GetReason())
	}
	rec, err := c.GetRecord(ctx, tableID)
	if err != nil {
		return fmt.Errorf("get record: %w", err)
	}
	if !rec.GetMatchOver() {
		return errors.New("the record says the match is not over")
	}
	bin := os.Getenv("CALABRESELLA_BIN")
	if bin == "" {
		return errors.New("CALABRESELLA_BIN is not set")
	}
	cmd := exec.CommandContext(ctx, bin, "replay", "-")
	cmd.Stdin = bytes.NewReader([]byte(rec.GetRecordJson()))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return fmt.Errorf("replay: %w: %s", err, stderr.String())
	}
	var r replay
	if err := json.Unmarshal(out, &r); err != nil {
		return fmt.Errorf("replay output: %w", err)
	}
	res := ended.GetResult()
	if !sameSet(res.GetWinners(), r.Match.WinningSeats) {
		return fmt.Errorf("winners %v, the replay says %v", res.GetWinners(), r.Match.WinningSeats)
	}
	if res.GetDraw() != r.Match.Draw {
		return fmt.Errorf("draw %v, the replay says %v", res.GetDraw(), r.Match.Draw)
	}
	if !slices.Equal(res.GetSignedTotals(), r.Match.Totals) {
		return fmt.Errorf("signed totals %v, the replay says %v", res.GetSignedTotals(), r.Match.Totals)
	}
	if int(res.GetHands()) != len(r.Hands) {
		return fmt.Errorf("%d hands, the replay has %d", res.GetHands(), len(r.Hands))
	}
	return nil
}

// sameSet compares two lists of seats as sets.
func sameSet(a, b []uint32) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(slices.Compact(a), slices.Compact(b))
}

// spectate follows an all-bot table's public stream and checks that it hides every card.
func (r *runner) spectate(ctx context.Context, c *calabresella.Client, s scenario) error {
	t, err := c.CreateTable(ctx, s.Game,
		calabresella.WithRules(s.Options), calabresella.WithSeats(s.Seats...),
		calabresella.WithSeed(s.Seed), calabresella.WithName(s.Name),
		// The scenario's pause before each bot decision lets the stream open before the
		// first hand ends.
		calabresella.WithBotDelay(time.Duration(s.BotDelayMs)*time.Millisecond))
	if err != nil {
		return fmt.Errorf("create table: %w", err)
	}
	var last uint64
	revealed := map[uint32]int{}
	var ended *pb.MatchEnded
	for u, err := range c.Spectate(ctx, t.GetTableId()) {
		if err != nil {
			return err
		}
		if last > 0 && u.GetSeq() != last+1 {
			return fmt.Errorf("seq %d after %d", u.GetSeq(), last)
		}
		last = u.GetSeq()
		if err := hidden(u); err != nil {
			return fmt.Errorf("update %d: %w", u.GetSeq(), err)
		}
		if h := u.GetHandRevealed(); h != nil {
			revealed[h.GetHandNumber()]++
		}
		if m := u.GetMatchEnded(); m != nil {
			ended = m
		}
	}
	if ended == nil {
		return errors.New("the stream did not end with MatchEnded")
	}
	hands := ended.GetResult().GetHands()
	if len(revealed) != int(hands) {
		return fmt.Errorf("%d hands revealed, %d played", len(revealed), hands)
	}
	for n := range hands {
		if revealed[n] != 1 {
			return fmt.Errorf("hand %d revealed %d times", n, revealed[n])
		}
	}
	return checkSummary(ctx, c, t.GetTableId(), ended)
}

// hidden checks that a public update shows no hidden card.
func hidden(u *pb.Update) error {
	turns := []*pb.Turn{u.GetTurn(), u.GetNextTurn()}
	if s := u.GetSnapshot(); s != nil {
		o := s.GetObservation()
		if len(o.GetHand()) > 0 || len(o.GetVisibleHands()) > 0 || len(o.GetLegalActions()) > 0 {
			return errors.New("a snapshot shows a hand or legal actions")
		}
		turns = append(turns, s.GetTurn())
	}
	for _, t := range turns {
		if len(t.GetLegalActions()) > 0 {
			return errors.New("a turn shows legal actions")
		}
	}
	return nil
}
