// Command bot is an example player: it connects to a server, creates a table with one open
// seat and built-in bots in the others, plays the open seat to the end of the match and
// prints the result.
//
//	go run ./examples/bot -server 127.0.0.1:50051 -game tressette-in-due -seats open,heuristic -option target=11
package main

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/signal"
	"strings"

	calabresella "github.com/calabresella/calabresella/clients/go"
	pb "github.com/calabresella/calabresella/clients/go/gen/calabresella/v1"
)

// options collects repeated -option key=value flags.
type options map[string]string

// String shows the options given.
func (o options) String() string { return fmt.Sprint(map[string]string(o)) }

// Set adds one key=value option.
func (o options) Set(v string) error {
	k, val, ok := strings.Cut(v, "=")
	if !ok {
		return fmt.Errorf("%q is not key=value", v)
	}
	if _, twice := o[k]; twice {
		return fmt.Errorf("option %s is given twice", k)
	}
	o[k] = val
	return nil
}

func main() {
	server := flag.String("server", "127.0.0.1:50051", "the server's address")
	game := flag.String("game", "calabresella", "the game")
	seats := flag.String("seats", "open,heuristic,random", "who fills each seat; the bot takes the first open one")
	seed := flag.Uint64("seed", 0, "deal from this seed, a seeded simulation (0: committed deals)")
	rules := options{}
	flag.Var(rules, "option", "a rule option, key=value (repeatable), e.g. target=11")
	flag.Parse()

	// Ctrl-C cancels the context, which stops the match cleanly.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, *server, *game, strings.Split(*seats, ","), rules, *seed); err != nil {
		fmt.Fprintln(os.Stderr, "bot:", err)
		os.Exit(1)
	}
}

// run creates the table, plays the open seat and prints the result.
func run(ctx context.Context, server, game string, seats []string, rules map[string]string, seed uint64) error {
	client, err := calabresella.Dial(server)
	if err != nil {
		return err
	}
	defer client.Close()

	opts := []calabresella.TableOption{calabresella.WithRules(rules), calabresella.WithSeats(seats...), calabresella.WithName("go example bot")}
	if seed != 0 {
		opts = append(opts, calabresella.WithSeed(seed))
	}
	table, err := client.CreateTable(ctx, game, opts...)
	if err != nil {
		return err
	}
	seat, err := client.Join(ctx, table.GetTableId(), "go-example")
	if err != nil {
		return err
	}
	fmt.Printf("table %s, seat %d\n", table.GetTableId(), seat.Number())

	// A bot: a random legal action; a refused answer is asked again (d.Refused says why).
	bot := calabresella.BotFunc(func(_ context.Context, d *calabresella.Decision) (*pb.Action, error) {
		legal := d.Turn.GetLegalActions()
		return legal[rand.IntN(len(legal))], nil
	})
	sum, err := seat.Play(ctx, bot)
	if err != nil {
		return err
	}
	r := sum.Ended.GetResult()
	won := false
	for _, w := range r.GetWinners() {
		won = won || w == seat.Number()
	}
	fmt.Printf("%v after %d hands: winners %v (won: %v), totals %v; %d decisions, %d faults, %d reconnects\n",
		sum.Ended.GetReason(), r.GetHands(), r.GetWinners(), won, r.GetSignedTotals(),
		sum.Decisions, sum.Faults, sum.Reconnects)
	return nil
}
