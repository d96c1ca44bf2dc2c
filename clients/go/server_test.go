package calabresella

import (
	"bufio"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"google.golang.org/grpc/codes"

	pb "github.com/calabresella/calabresella/clients/go/gen/calabresella/v1"
)

// realServer starts the game server ($CALABRESELLA_BIN, else the repository's
// target/debug/calabresella) on a free port of 127.0.0.1 with a store in memory, and
// returns a client of it; without a binary the test is skipped, saying why (the test command
// builds it before it runs this: scripts/test.sh).
func realServer(t *testing.T) *Client {
	t.Helper()
	bin := os.Getenv("CALABRESELLA_BIN")
	if bin == "" {
		bin = filepath.Join("..", "..", "target", "debug", "calabresella")
	}
	if _, err := os.Stat(bin); err != nil {
		t.Skipf("no server binary at %s (set CALABRESELLA_BIN)", bin)
	}
	cmd := exec.Command(bin, "serve", "--listen", "127.0.0.1:0", "--db", ":memory:", "--log", "error")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	// The server prints "calabresella: listening on ADDR" once it accepts connections.
	lines := bufio.NewScanner(out)
	addr := ""
	for addr == "" && lines.Scan() {
		addr, _ = strings.CutPrefix(lines.Text(), "calabresella: listening on ")
	}
	if addr == "" {
		t.Fatal("the server exited before listening")
	}
	// Read on, so that the server never blocks writing to a full pipe.
	go func() {
		for lines.Scan() {
		}
	}()
	c, err := Dial(addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return c
}

func TestListGamesDescribesEveryGameAndItsOptions(t *testing.T) {
	c := realServer(t)
	games, err := c.ListGames(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(games) != len(Games) {
		t.Fatalf("%d games described, %d in the enum", len(games), len(Games))
	}
	for _, g := range games {
		if Games[g.GetName()] != g.GetGame() || len(g.GetOptions()) == 0 || g.GetDefaultPlayers() == 0 {
			t.Errorf("%v", g)
		}
		for _, o := range g.GetOptions() {
			if o.GetKind() == pb.OptionKind_OPTION_KIND_UNSPECIFIED || o.GetDoc() == "" {
				t.Errorf("%s: %v", g.GetName(), o)
			}
			if o.GetKey() == "target" && (o.GetKind() != pb.OptionKind_OPTION_KIND_NUMBER || o.GetMin() < 1 || o.GetMax() <= o.GetMin()) {
				t.Errorf("%s: %v", g.GetName(), o)
			}
		}
	}
}

func TestSettingsComeBackAsTheTypedRulesAndBadOnesAreRefused(t *testing.T) {
	c := realServer(t)
	ctx := context.Background()
	table, err := c.CreateTable(ctx, "tressette-in-due", WithSeats("random", "random"),
		WithRules(map[string]string{"target": "11", "accusi": "false", "follow_suit_always": "yes"}))
	if err != nil {
		t.Fatal(err)
	}
	r := table.GetOptions().GetTressette()
	if table.GetOptions().GetGame() != pb.Game_GAME_TRESSETTE_IN_DUE || r.GetTarget() != 11 || r.Accusi == nil || r.GetAccusi() || !r.GetFollowSuitAlways() {
		t.Fatalf("%v", table.GetOptions())
	}
	for _, x := range []struct {
		rules map[string]string
		says  string
	}{
		{map[string]string{"colour": "red"}, `unknown option "colour"`},
		{map[string]string{"target": "zero"}, `"zero"`},
	} {
		_, err := c.CreateTable(ctx, "tressette-in-due", WithRules(x.rules))
		var e *Error
		if !errors.As(err, &e) || e.Code != codes.InvalidArgument || e.Reason != "BAD_OPTIONS" || !strings.Contains(e.Message, x.says) {
			t.Errorf("%v: %v", x.rules, err)
		}
	}
}
