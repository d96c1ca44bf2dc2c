package main

import (
	"encoding/json"
	"fmt"
	"os"
)

// scenario is one entry of scenarios.json (fields as tests/conformance/README.md lists them).
type scenario struct {
	Name              string            `json:"name"`
	Kind              string            `json:"kind"`
	Game              string            `json:"game"`
	Options           map[string]string `json:"options"`
	Seats             []string          `json:"seats"`
	Seat              uint32            `json:"seat"`
	Seed              uint64            `json:"seed"`
	Expect            *expectation      `json:"expect"`
	DropAfterUpdates  int               `json:"drop_after_updates"`
	Try               []string          `json:"try"`
	Token             string            `json:"token"`
	TableID           string            `json:"table_id"`
	RestartAtDecision int               `json:"restart_at_decision"`
	Matches           int               `json:"matches"`
	BotDelayMs        uint32            `json:"bot_delay_ms"`
}

// expectation is the error a scenario expects: a canonical code name and an ErrorInfo reason.
type expectation struct {
	Code   string `json:"code"`
	Reason string `json:"reason"`
}

// loadScenarios reads the scenarios file.
func loadScenarios(path string) ([]scenario, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var f struct {
		Format    string     `json:"format"`
		Scenarios []scenario `json:"scenarios"`
	}
	if err := json.Unmarshal(b, &f); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return f.Scenarios, nil
}
