package calabresella

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	pb "github.com/calabresella/calabresella/clients/go/gen/calabresella/v1"
)

// Games maps each game's name to its wire value.
var Games = map[string]pb.Game{
	"calabresella":       pb.Game_GAME_CALABRESELLA,
	"tressette":          pb.Game_GAME_TRESSETTE,
	"tressette-in-due":   pb.Game_GAME_TRESSETTE_IN_DUE,
	"tressette-chiamata": pb.Game_GAME_TRESSETTE_CHIAMATA,
	"briscola-chiamata":  pb.Game_GAME_BRISCOLA_CHIAMATA,
}

// OptionError is a rule option or seat kind rejected before any call: an unknown game, key
// or kind, or a value of the wrong form.
type OptionError struct {
	// Key is the option (or "game", "seat").
	Key string
	// Value is the value given.
	Value string
	// Expected says what the value or key may be.
	Expected string
}

// Error names the option, the value and what was expected.
func (e *OptionError) Error() string {
	return fmt.Sprintf("calabresella: bad option %s=%q: expected %s", e.Key, e.Value, e.Expected)
}

// setter parses one value into the options message.
type setter func(value string) error

// GameOptions builds the rules of a table from a game name and rule options in the key=value
// notation of the command-line tool and the Python package (every value a string):
//
//   - calabresella: players (3|4), target, match_end (pooled|individual), stramazzo,
//     only_chiamo, chiamo_threes_only, aperta, a_due (true|false), max_deals,
//     preset (terziglio|calabresella);
//   - tressette, tressette-in-due: target, accusi, follow_suit_always, max_deals;
//   - tressette-chiamata, briscola-chiamata: players, hands, solo_bid, call_threes_only,
//     call_own_card, auction (ranks|points), two_closes, first_lead (eldest|caller),
//     bid_multiplier, max_deals.
//
// Flags take true or false (also on/off, yes/no, 1/0), numbers a whole number. Keys and
// values are read without regard to case. An unknown game or key, or a value of the wrong
// form, is an *OptionError; the server checks the values further (INVALID_ARGUMENT
// BAD_OPTIONS), such as players for tressette.
func GameOptions(game string, options map[string]string) (*pb.GameOptions, error) {
	name := strings.ToLower(strings.TrimSpace(game))
	g, ok := Games[name]
	if !ok {
		return nil, &OptionError{Key: "game", Value: game, Expected: "one of " + strings.Join(gameNames(), ", ")}
	}
	out := &pb.GameOptions{Game: g}
	var setters map[string]setter
	switch g {
	case pb.Game_GAME_CALABRESELLA:
		o := &pb.CalabresellaOptions{}
		out.Rules = &pb.GameOptions_Calabresella{Calabresella: o}
		setters = calabresellaSetters(o)
	case pb.Game_GAME_TRESSETTE, pb.Game_GAME_TRESSETTE_IN_DUE:
		o := &pb.TressetteOptions{}
		out.Rules = &pb.GameOptions_Tressette{Tressette: o}
		setters = tressetteSetters(o)
	default:
		o := &pb.ChiamataOptions{}
		out.Rules = &pb.GameOptions_Chiamata{Chiamata: o}
		setters = chiamataSetters(o)
	}
	// Sorted, so that the first bad key reported is always the same one.
	keys := make([]string, 0, len(options))
	for k := range options {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		key := strings.ToLower(strings.TrimSpace(k))
		set, ok := setters[key]
		if !ok {
			known := make([]string, 0, len(setters))
			for n := range setters {
				known = append(known, n)
			}
			sort.Strings(known)
			return nil, &OptionError{Key: k, Value: options[k], Expected: "an option of " + name + ": " + strings.Join(known, ", ")}
		}
		if err := set(options[k]); err != nil {
			var oe *OptionError
			if e, ok := err.(*OptionError); ok {
				oe = e
			} else {
				oe = &OptionError{Expected: err.Error()}
			}
			oe.Key, oe.Value = key, options[k]
			return nil, oe
		}
	}
	return out, nil
}

// gameNames lists the games by name, sorted.
func gameNames() []string {
	names := make([]string, 0, len(Games))
	for n := range Games {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// expected is the error of a value of the wrong form (GameOptions fills in key and value).
func expected(what string) error { return &OptionError{Expected: what} }

// flag parses a true/false value into *dst.
func flag(dst **bool) setter {
	return func(v string) error {
		switch strings.ToLower(strings.TrimSpace(v)) {
		case "true", "on", "yes", "1":
			b := true
			*dst = &b
		case "false", "off", "no", "0":
			b := false
			*dst = &b
		default:
			return expected("true or false")
		}
		return nil
	}
}

// number parses a whole number into *dst, from lo up.
func number(dst **uint32, lo uint32) setter {
	return func(v string) error {
		n, err := strconv.ParseUint(strings.TrimSpace(v), 10, 32)
		if err != nil || uint32(n) < lo {
			return expected(fmt.Sprintf("a whole number from %d", lo))
		}
		u := uint32(n)
		*dst = &u
		return nil
	}
}

// choice parses one of names into *dst.
func choice[T any](dst *T, names map[string]T) setter {
	return func(v string) error {
		t, ok := names[strings.ToLower(strings.TrimSpace(v))]
		if !ok {
			keys := make([]string, 0, len(names))
			for k := range names {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			return expected(strings.Join(keys, " or "))
		}
		*dst = t
		return nil
	}
}

// calabresellaSetters are the options of Calabresella.
func calabresellaSetters(o *pb.CalabresellaOptions) map[string]setter {
	return map[string]setter{
		"players": func(v string) error {
			switch strings.TrimSpace(v) {
			case "3", "4":
				return number(&o.Players, 3)(v)
			}
			return expected("3 or 4")
		},
		"target": number(&o.Target, 1),
		"match_end": choice(&o.MatchEnd, map[string]pb.MatchEnd{
			"pooled": pb.MatchEnd_MATCH_END_POOLED, "individual": pb.MatchEnd_MATCH_END_INDIVIDUAL,
		}),
		"stramazzo":          flag(&o.Stramazzo),
		"only_chiamo":        flag(&o.OnlyChiamo),
		"chiamo_threes_only": flag(&o.ChiamoThreesOnly),
		"aperta":             flag(&o.Aperta),
		"a_due":              flag(&o.ADue),
		"max_deals":          number(&o.MaxDeals, 1),
		"preset":             choice(&o.Terziglio, map[string]bool{"terziglio": true, "calabresella": false}),
	}
}

// tressetteSetters are the options of Tressette and Tressette in Due.
func tressetteSetters(o *pb.TressetteOptions) map[string]setter {
	return map[string]setter{
		"target":             number(&o.Target, 1),
		"accusi":             flag(&o.Accusi),
		"follow_suit_always": flag(&o.FollowSuitAlways),
		"max_deals":          number(&o.MaxDeals, 1),
	}
}

// chiamataSetters are the options of Tressette con la Chiamata and Briscola Chiamata.
func chiamataSetters(o *pb.ChiamataOptions) map[string]setter {
	return map[string]setter{
		"players":          number(&o.Players, 1),
		"hands":            number(&o.Hands, 1),
		"solo_bid":         flag(&o.SoloBid),
		"call_threes_only": flag(&o.CallThreesOnly),
		"call_own_card":    flag(&o.CallOwnCard),
		"auction": choice(&o.Auction, map[string]pb.ChiamataAuction{
			"ranks": pb.ChiamataAuction_CHIAMATA_AUCTION_RANKS, "points": pb.ChiamataAuction_CHIAMATA_AUCTION_POINTS,
		}),
		"two_closes": flag(&o.TwoCloses),
		"first_lead": choice(&o.FirstLead, map[string]pb.FirstLead{
			"eldest": pb.FirstLead_FIRST_LEAD_ELDEST, "caller": pb.FirstLead_FIRST_LEAD_CALLER,
		}),
		"bid_multiplier": flag(&o.BidMultiplier),
		"max_deals":      number(&o.MaxDeals, 1),
	}
}

// SeatKindNames maps each seat kind's name to its wire value.
var SeatKindNames = map[string]pb.SeatKind{
	"open":      pb.SeatKind_SEAT_KIND_OPEN,
	"random":    pb.SeatKind_SEAT_KIND_BOT_RANDOM,
	"heuristic": pb.SeatKind_SEAT_KIND_BOT_HEURISTIC,
}

// SeatKinds turns seat kind names ("open", "random", "heuristic", any case) into wire values;
// an unknown name is an *OptionError. The search bot ("pimc", "pimc:ms=50") is a seat of kind
// SEAT_KIND_BOT_NAMED whose name goes along: see SeatChoices.
func SeatKinds(names ...string) ([]pb.SeatKind, error) {
	kinds, _, err := SeatChoices(names...)
	return kinds, err
}

// SeatChoices turns seat names into wire values and, for each seat, the named bot that fills
// it: the search bot "pimc", with optional parameters after a colon ("pimc:worlds=64:ms=50"),
// or a submitted bot ("submitted:NAME", "submitted:NAME@VERSION"), which the server checks;
// empty for the other kinds. bots is nil when no seat names a bot.
func SeatChoices(names ...string) (kinds []pb.SeatKind, bots []string, err error) {
	kinds = make([]pb.SeatKind, 0, len(names))
	named := make([]string, 0, len(names))
	anyNamed := false
	for _, n := range names {
		key := strings.ToLower(strings.TrimSpace(n))
		if key == "pimc" || strings.HasPrefix(key, "pimc:") || strings.HasPrefix(key, "submitted:") {
			kinds = append(kinds, pb.SeatKind_SEAT_KIND_BOT_NAMED)
			named = append(named, key)
			anyNamed = true
			continue
		}
		k, ok := SeatKindNames[key]
		if !ok {
			return nil, nil, &OptionError{Key: "seat", Value: n, Expected: "open, random, heuristic or pimc"}
		}
		kinds = append(kinds, k)
		named = append(named, "")
	}
	if anyNamed {
		bots = named
	}
	return kinds, bots, nil
}
