package calabresella

import (
	"errors"
	"testing"

	pb "github.com/calabresella/calabresella/clients/go/gen/calabresella/v1"
)

func TestGameOptionsFillEachGamesRules(t *testing.T) {
	o, err := GameOptions("calabresella", map[string]string{"players": "4", "target": "5", "preset": "terziglio", "aperta": "TRUE", "match_end": "individual"})
	if err != nil {
		t.Fatal(err)
	}
	c := o.GetCalabresella()
	if o.GetGame() != pb.Game_GAME_CALABRESELLA || c.GetPlayers() != 4 || c.GetTarget() != 5 || !c.GetTerziglio() || !c.GetAperta() || c.GetMatchEnd() != pb.MatchEnd_MATCH_END_INDIVIDUAL || c.Stramazzo != nil {
		t.Fatalf("%v", o)
	}
	o, err = GameOptions("tressette-in-due", map[string]string{"target": "11", "follow_suit_always": "true", "accusi": "false"})
	if err != nil {
		t.Fatal(err)
	}
	if o.GetGame() != pb.Game_GAME_TRESSETTE_IN_DUE || o.GetTressette().GetTarget() != 11 || !o.GetTressette().GetFollowSuitAlways() || o.GetTressette().Accusi == nil || o.GetTressette().GetAccusi() {
		t.Fatalf("%v", o)
	}
	o, err = GameOptions("briscola-chiamata", map[string]string{"hands": "2", "auction": "points", "first_lead": "caller"})
	if err != nil {
		t.Fatal(err)
	}
	ch := o.GetChiamata()
	if o.GetGame() != pb.Game_GAME_BRISCOLA_CHIAMATA || ch.GetHands() != 2 || ch.GetAuction() != pb.ChiamataAuction_CHIAMATA_AUCTION_POINTS || ch.GetFirstLead() != pb.FirstLead_FIRST_LEAD_CALLER {
		t.Fatalf("%v", o)
	}
	o, err = GameOptions("tressette", nil)
	if err != nil || o.GetGame() != pb.Game_GAME_TRESSETTE || o.GetTressette() == nil {
		t.Fatalf("%v %v", o, err)
	}
}

func TestGameOptionsRejectUnknownKeysAndBadValues(t *testing.T) {
	for _, c := range []struct {
		game string
		opts map[string]string
		key  string
	}{
		{"chess", nil, "game"},
		{"calabresella", map[string]string{"accusi": "true"}, "accusi"},
		{"calabresella", map[string]string{"players": "5"}, "players"},
		{"calabresella", map[string]string{"aperta": "maybe"}, "aperta"},
		{"calabresella", map[string]string{"preset": "fast"}, "preset"},
		{"tressette", map[string]string{"target": "-1"}, "target"},
		{"tressette", map[string]string{"target": "0"}, "target"},
		{"tressette-chiamata", map[string]string{"auction": "dutch"}, "auction"},
	} {
		_, err := GameOptions(c.game, c.opts)
		var oe *OptionError
		if !errors.As(err, &oe) || oe.Key != c.key {
			t.Errorf("%s %v: %v", c.game, c.opts, err)
		}
	}
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
	if _, bots, _ := SeatChoices("open", "random"); bots != nil {
		t.Fatalf("no named bot, no names: %v", bots)
	}
}
