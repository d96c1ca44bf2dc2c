package calabresella

import (
	"context"
	"errors"
	"maps"
	"testing"

	pb "github.com/calabresella/calabresella/clients/go/gen/calabresella/v1"
)

func TestGameOptionsSendSettingsAsTheServerReadsThem(t *testing.T) {
	o, err := GameOptions(" Tressette-In-Due ", map[string]string{" Target ": " 11 ", "accusi": "false", "colour": "red"})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"target": "11", "accusi": "false", "colour": "red"}
	if o.GetGame() != pb.Game_GAME_TRESSETTE_IN_DUE || !maps.Equal(o.GetSettings(), want) || o.GetRules() != nil {
		t.Fatalf("%v", o)
	}
	o, err = GameOptions("calabresella", nil)
	if err != nil || o.GetGame() != pb.Game_GAME_CALABRESELLA || len(o.GetSettings()) != 0 {
		t.Fatalf("no options: %v %v", o, err)
	}
}

func TestGameNamesComeFromTheGameEnum(t *testing.T) {
	if len(Games) != len(pb.Game_name)-1 {
		t.Fatalf("%v", Games)
	}
	for name, g := range Games {
		if GameName(g) != name {
			t.Errorf("%v is named %q, not %q", g, GameName(g), name)
		}
	}
	if Games["tressette-in-due"] != pb.Game_GAME_TRESSETTE_IN_DUE || GameName(pb.Game_GAME_UNSPECIFIED) != "" || GameName(99) != "" {
		t.Fatalf("%v", Games)
	}
}

func TestWhatIsNotTheNotationIsRefusedBeforeAnyCall(t *testing.T) {
	f := &createFake{}
	c := startServer(t, f)
	for _, x := range []struct {
		game string
		opts map[string]string
		key  string
	}{
		{"chess", nil, "game"},
		{"calabresella", map[string]string{" ": "5"}, " "},
		{"calabresella", map[string]string{"target": "5", "Target": "7"}, "target"},
	} {
		_, err := c.CreateTable(context.Background(), x.game, WithRules(x.opts))
		var oe *OptionError
		if !errors.As(err, &oe) || oe.Key != x.key {
			t.Errorf("%s %v: %v", x.game, x.opts, err)
		}
	}
	if len(f.sent) != 0 {
		t.Fatalf("sent %v", f.sent)
	}
	if _, err := c.CreateTable(context.Background(), "tressette", WithRules(map[string]string{"colour": "red"})); err != nil {
		t.Fatal(err)
	}
	if len(f.sent) != 1 || f.sent[0].GetOptions().GetSettings()["colour"] != "red" {
		t.Fatalf("keys and values are the server's to judge: sent %v", f.sent)
	}
}

// createFake records each CreateTable request.
type createFake struct {
	pb.UnimplementedTableServiceServer
	sent []*pb.CreateTableRequest
}

func (f *createFake) CreateTable(_ context.Context, r *pb.CreateTableRequest) (*pb.CreateTableResponse, error) {
	f.sent = append(f.sent, r)
	return &pb.CreateTableResponse{Table: &pb.Table{TableId: "t-1", Options: r.GetOptions()}}, nil
}

func TestSeatKinds(t *testing.T) {
	k, err := SeatKinds("open", "Heuristic", "random")
	if err != nil || len(k) != 3 || k[1] != pb.SeatKind_SEAT_KIND_BOT_HEURISTIC || k[2] != pb.SeatKind_SEAT_KIND_BOT_RANDOM {
		t.Fatalf("%v %v", k, err)
	}
	if _, err := SeatKinds("human?"); err == nil {
		t.Fatal("an unknown kind is rejected")
	}
	kinds, bots, err := SeatChoices("heuristic", " PIMC:ms=50 ")
	if err != nil || kinds[1] != pb.SeatKind_SEAT_KIND_BOT_NAMED || len(bots) != 2 || bots[0] != "" || bots[1] != "pimc:ms=50" {
		t.Fatalf("%v %v %v", kinds, bots, err)
	}
	kinds, bots, err = SeatChoices("Best", "ismcts:iterations=500", "best:ms=80")
	if err != nil || kinds[0] != pb.SeatKind_SEAT_KIND_BOT_NAMED || kinds[2] != pb.SeatKind_SEAT_KIND_BOT_NAMED ||
		bots[0] != "best" || bots[1] != "ismcts:iterations=500" || bots[2] != "best:ms=80" {
		t.Fatalf("%v %v %v", kinds, bots, err)
	}
	if _, _, err := SeatChoices("pimc :ms=50", " Best :ms=80"); err != nil {
		t.Fatalf("a space before the colon is accepted, as the server does: %v", err)
	}
	if _, _, err := SeatChoices("bestx"); err == nil {
		t.Fatal("a name that only starts like a search bot is rejected")
	}
	if _, bots, _ := SeatChoices("open", "random"); bots != nil {
		t.Fatalf("no named bot, no names: %v", bots)
	}
}
