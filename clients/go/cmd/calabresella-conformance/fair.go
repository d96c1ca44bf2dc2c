package main

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"time"

	calabresella "github.com/calabresella/calabresella/clients/go"
	pb "github.com/calabresella/calabresella/clients/go/gen/calabresella/v1"
)

// hex64 is 64 lower-case hex digits (a SHA-256 commitment, a 256-bit secret).
var hex64 = regexp.MustCompile(`^[0-9a-f]{64}$`)

// deals is the record's meta.deals of a committed table.
type deals struct {
	Scheme        string    `json:"scheme"`
	Commitment    string    `json:"commitment"`
	Secret        *string   `json:"secret"`
	Context       string    `json:"context"`
	Contributions *[]string `json:"contributions"`
	FirstDealer   string    `json:"first_dealer"`
}

// committed checks that a table (as when) shows committed deals and returns its commitment.
func committed(t *pb.Table, when string) (string, error) {
	switch {
	case t.GetDealScheme() != calabresella.DealScheme:
		return "", fmt.Errorf("%s: deal_scheme %q, want %q", when, t.GetDealScheme(), calabresella.DealScheme)
	case !hex64.MatchString(t.GetCommitment()):
		return "", fmt.Errorf("%s: commitment %q is not 64 lower-case hex digits", when, t.GetCommitment())
	case t.GetSeeded():
		return "", fmt.Errorf("%s: seeded is true", when)
	}
	return t.GetCommitment(), nil
}

// fairDeal creates a table without a seed, checks its commitment, plays it with the plain
// join's default contribution and checks the seats' entropy, the record's deals and
// `calabresella verify`.
func (r *runner) fairDeal(ctx context.Context, c *calabresella.Client, s scenario) error {
	created, err := c.CreateTable(ctx, s.Game,
		calabresella.WithRules(s.Options), calabresella.WithSeats(s.Seats...),
		calabresella.WithName(s.Name),
		calabresella.WithBotDelay(time.Duration(s.BotDelayMs)*time.Millisecond))
	if err != nil {
		return fmt.Errorf("create table: %w", err)
	}
	commitment, err := committed(created, "the created table")
	if err != nil {
		return err
	}
	id := created.GetTableId()
	before, err := c.GetTable(ctx, id)
	if err != nil {
		return fmt.Errorf("get table: %w", err)
	}
	if again, err := committed(before, "GetTable before the join"); err != nil {
		return err
	} else if again != commitment {
		return fmt.Errorf("GetTable shows commitment %s, the created table %s", again, commitment)
	}
	seat, err := c.Join(ctx, id, playerName, calabresella.AtSeat(s.Seat))
	if err != nil {
		return fmt.Errorf("join: %w", err)
	}
	if _, err := playWith(ctx, c, seat, firstLegal); err != nil {
		return err
	}

	after, err := c.GetTable(ctx, id)
	if err != nil {
		return fmt.Errorf("get table after the match: %w", err)
	}
	seats := after.GetSeats()
	if len(seats) != len(s.Seats) {
		return fmt.Errorf("GetTable shows %d seats, the scenario has %d", len(seats), len(s.Seats))
	}
	mine := seats[s.Seat]
	if !mine.GetContributed() || len(mine.GetEntropy()) != calabresella.DefaultEntropyBytes {
		return fmt.Errorf("the joined seat: contributed %v with %d bytes of entropy, want true with %d",
			mine.GetContributed(), len(mine.GetEntropy()), calabresella.DefaultEntropyBytes)
	}
	if !bytes.Equal(mine.GetEntropy(), seat.Entropy()) {
		return errors.New("GetTable shows the joined seat's entropy other than the bytes the join sent")
	}
	for i, kind := range s.Seats {
		if kind == "open" {
			continue
		}
		if seats[i].GetContributed() || len(seats[i].GetEntropy()) != 0 {
			return fmt.Errorf("bot seat %d: contributed %v with %d bytes of entropy, want none",
				i, seats[i].GetContributed(), len(seats[i].GetEntropy()))
		}
	}

	rec, err := c.GetRecord(ctx, id)
	if err != nil {
		return fmt.Errorf("get record: %w", err)
	}
	var record struct {
		Meta struct {
			Deals *deals `json:"deals"`
		} `json:"meta"`
	}
	if err := json.Unmarshal([]byte(rec.GetRecordJson()), &record); err != nil {
		return fmt.Errorf("the record: %w", err)
	}
	d := record.Meta.Deals
	switch {
	case d == nil:
		return errors.New("the record has no meta.deals")
	case d.Commitment != commitment:
		return fmt.Errorf("the record's commitment %s, the table's %s", d.Commitment, commitment)
	case d.Secret == nil || !hex64.MatchString(*d.Secret):
		return fmt.Errorf("the record's secret %v is not 64 lower-case hex digits", d.Secret)
	case d.Contributions == nil || len(*d.Contributions) <= int(s.Seat):
		return fmt.Errorf("the record's contributions %v have no seat %d", d.Contributions, s.Seat)
	case (*d.Contributions)[s.Seat] != hex.EncodeToString(mine.GetEntropy()):
		return fmt.Errorf("the record's contribution of seat %d is %q, GetTable's entropy %x",
			s.Seat, (*d.Contributions)[s.Seat], mine.GetEntropy())
	}
	return verify(ctx, rec.GetRecordJson())
}

// verify runs `$CALABRESELLA_BIN verify -` on the record and expects it to exit with 0.
func verify(ctx context.Context, record string) error {
	bin := os.Getenv("CALABRESELLA_BIN")
	if bin == "" {
		return errors.New("CALABRESELLA_BIN is not set")
	}
	cmd := exec.CommandContext(ctx, bin, "verify", "-")
	cmd.Stdin = bytes.NewReader([]byte(record))
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("verify: %w: %s", err, out)
	}
	return nil
}
