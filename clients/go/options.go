package calabresella

import (
	"fmt"
	"sort"
	"strings"

	pb "github.com/calabresella/calabresella/clients/go/gen/calabresella/v1"
)

// Games maps each game's name to its wire value, read from the contract's Game enum
// (pb.Game_GAME_TRESSETTE_IN_DUE is "tressette-in-due").
var Games = gamesByName()

// gamesByName names every value of the Game enum but the unset one.
func gamesByName() map[string]pb.Game {
	out := make(map[string]pb.Game, len(pb.Game_name))
	for n := range pb.Game_name {
		if g := pb.Game(n); g != pb.Game_GAME_UNSPECIFIED {
			out[GameName(g)] = g
		}
	}
	return out
}

// GameName is a game's name as the command-line tool and the records spell it: its Game
// enum value in lower case with dashes (pb.Game_GAME_TRESSETTE_IN_DUE is
// "tressette-in-due"); "" for an unset or unknown value.
func GameName(g pb.Game) string {
	name, ok := pb.Game_name[int32(g)]
	if !ok || g == pb.Game_GAME_UNSPECIFIED {
		return ""
	}
	return strings.ReplaceAll(strings.ToLower(strings.TrimPrefix(name, "GAME_")), "_", "-")
}

// OptionError is a game name, rule option or seat kind rejected before any call: an unknown
// game or seat kind, or options that are not the key=value notation.
type OptionError struct {
	// Key is the option (or "game", "seat").
	Key string
	// Value is the value given.
	Value string
	// Expected says what the key or value may be.
	Expected string
}

// Error names the option, the value and what was expected.
func (e *OptionError) Error() string {
	return fmt.Sprintf("calabresella: bad option %s=%q: expected %s", e.Key, e.Value, e.Expected)
}

// GameOptions builds the rules of a table from a game name (see Games) and rule options in
// the key=value notation of the command-line tool and the Python package (every value a
// string), sent as the message's Settings for the server to read with the game's own grammar.
// The client keeps no copy of any game's options: ListGames describes them. An unknown game,
// or options that are not the notation (see Settings), is an *OptionError before any call; an
// option the game does not have or a value it does not take is the server's INVALID_ARGUMENT
// BAD_OPTIONS, with its message.
func GameOptions(game string, options map[string]string) (*pb.GameOptions, error) {
	g, ok := Games[strings.ToLower(strings.TrimSpace(game))]
	if !ok {
		return nil, &OptionError{Key: "game", Value: game, Expected: "one of " + strings.Join(gameNames(), ", ")}
	}
	settings, err := Settings(options)
	if err != nil {
		return nil, err
	}
	return &pb.GameOptions{Game: g, Settings: settings}, nil
}

// Settings are the GameOptions settings of rule options: keys trimmed and in lower case, as
// the server reads them, values trimmed. An empty key, or the same key twice ("Target" and
// "target"), is an *OptionError; whether the game has a key and takes its value is the
// server's to say.
func Settings(options map[string]string) (map[string]string, error) {
	// Sorted, so that the error reported is always the same one.
	keys := make([]string, 0, len(options))
	for k := range options {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make(map[string]string, len(options))
	for _, k := range keys {
		key := strings.ToLower(strings.TrimSpace(k))
		if key == "" {
			return nil, &OptionError{Key: k, Value: options[k], Expected: "a key"}
		}
		if _, twice := out[key]; twice {
			return nil, &OptionError{Key: k, Value: options[k], Expected: "each key once (" + key + " is given twice)"}
		}
		out[key] = strings.TrimSpace(options[k])
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

// SeatKindNames maps each seat kind's name to its wire value.
var SeatKindNames = map[string]pb.SeatKind{
	"open":      pb.SeatKind_SEAT_KIND_OPEN,
	"random":    pb.SeatKind_SEAT_KIND_BOT_RANDOM,
	"heuristic": pb.SeatKind_SEAT_KIND_BOT_HEURISTIC,
}

// SearchBots are the built-in search bots a seat names, with optional parameters after a colon:
// "best" plays as the strongest bot of each game.
var SearchBots = []string{"pimc", "ismcts", "best"}

// isSearchBot reports whether key (lower case, trimmed) names a search bot, with or without
// parameters.
func isSearchBot(key string) bool {
	base, _, _ := strings.Cut(key, ":")
	base = strings.TrimSpace(base)
	for _, b := range SearchBots {
		if base == b {
			return true
		}
	}
	return false
}

// SeatKinds turns seat kind names ("open", "random", "heuristic", any case) into wire values;
// an unknown name is an *OptionError. A search bot ("pimc", "pimc:ms=50", "ismcts", "best") is a
// seat of kind SEAT_KIND_BOT_NAMED whose name goes along: see SeatChoices.
func SeatKinds(names ...string) ([]pb.SeatKind, error) {
	kinds, _, err := SeatChoices(names...)
	return kinds, err
}

// SeatChoices turns seat names into wire values and, for each seat, the named bot that fills
// it: a search bot (SearchBots: "pimc", "ismcts", or "best", the strongest of each game), with
// optional parameters after a colon ("pimc:worlds=64:ms=50"), or a submitted bot
// ("submitted:NAME", "submitted:NAME@VERSION"), which the server checks; empty for the other
// kinds. bots is nil when no seat names a bot.
func SeatChoices(names ...string) (kinds []pb.SeatKind, bots []string, err error) {
	kinds = make([]pb.SeatKind, 0, len(names))
	named := make([]string, 0, len(names))
	anyNamed := false
	for _, n := range names {
		key := strings.ToLower(strings.TrimSpace(n))
		if isSearchBot(key) || strings.HasPrefix(key, "submitted:") {
			kinds = append(kinds, pb.SeatKind_SEAT_KIND_BOT_NAMED)
			named = append(named, key)
			anyNamed = true
			continue
		}
		k, ok := SeatKindNames[key]
		if !ok {
			return nil, nil, &OptionError{Key: "seat", Value: n, Expected: "open, random, heuristic, pimc, ismcts or best"}
		}
		kinds = append(kinds, k)
		named = append(named, "")
	}
	if anyNamed {
		bots = named
	}
	return kinds, bots, nil
}
