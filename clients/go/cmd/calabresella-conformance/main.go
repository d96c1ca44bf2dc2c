// Command calabresella-conformance runs the language-neutral conformance scenarios
// (tests/conformance/scenarios.json) against a real server through the Go client's public
// API, and prints one PASS/FAIL (or BENCH) line per scenario and a summary line, as
// tests/conformance/README.md specifies.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	calabresella "github.com/calabresella/calabresella/clients/go"
)

// scenarioLimit is the time limit of one scenario.
const scenarioLimit = 120 * time.Second

// names collects a repeatable flag.
type names []string

// String lists the names given.
func (n *names) String() string { return strings.Join(*n, ",") }

// Set adds one name.
func (n *names) Set(v string) error { *n = append(*n, v); return nil }

func main() {
	var (
		path   = flag.String("scenarios", "", "the scenarios file")
		server = flag.String("server", "", "the server's address: HOST:PORT, or https://HOST:PORT for TLS")
		caCert = flag.String("ca-cert", "", "a PEM file of the CA that signed the server's certificate (TLS; default: the system's roots)")
		bench  = flag.Bool("bench", false, "run only scenarios of kind bench (otherwise skip them)")
		only   names
	)
	flag.Var(&only, "only", "run only the scenario of this name (repeatable)")
	flag.Parse()
	if *path == "" || *server == "" {
		fmt.Fprintln(os.Stderr, "usage: calabresella-conformance --scenarios PATH --server HOST:PORT|https://HOST:PORT [--ca-cert PATH] [--bench] [--only NAME]...")
		os.Exit(2)
	}
	scenarios, err := loadScenarios(*path)
	if err != nil {
		fmt.Fprintln(os.Stderr, "calabresella-conformance:", err)
		os.Exit(2)
	}
	r := &runner{address: *server}
	if *caCert != "" {
		r.options = append(r.options, calabresella.WithCACert(*caCert))
	}
	// A bad address or CA file is the caller's mistake: say so once, not in every scenario.
	if c, err := calabresella.Dial(r.address, r.options...); err != nil {
		fmt.Fprintln(os.Stderr, "calabresella-conformance:", err)
		os.Exit(2)
	} else {
		_ = c.Close()
	}
	passed, failed := 0, 0
	for _, s := range scenarios {
		if len(only) > 0 && !slices.Contains(only, s.Name) {
			continue
		}
		if (s.Kind == "bench") != *bench {
			continue
		}
		line, ok := r.runLimited(s)
		fmt.Println(line)
		if ok {
			passed++
		} else {
			failed++
		}
	}
	fmt.Printf("go: %d passed, %d failed\n", passed, failed)
	if failed > 0 {
		os.Exit(1)
	}
}

// runLimited runs one scenario under the time limit and returns its line and whether it
// passed. A scenario that outlives its limit (even ignoring its context) fails.
func (r *runner) runLimited(s scenario) (string, bool) {
	ctx, cancel := context.WithTimeout(context.Background(), scenarioLimit)
	defer cancel()
	type outcome struct {
		line string
		err  error
	}
	done := make(chan outcome, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				done <- outcome{err: fmt.Errorf("panic: %v", p)}
			}
		}()
		line, err := r.run(ctx, s)
		done <- outcome{line, err}
	}()
	select {
	case o := <-done:
		if o.err != nil {
			return fmt.Sprintf("FAIL %s: %s", s.Name, oneLine(o.err.Error())), false
		}
		if o.line != "" {
			return o.line, true
		}
		return "PASS " + s.Name, true
	case <-time.After(scenarioLimit + 5*time.Second):
		return fmt.Sprintf("FAIL %s: over the time limit of %v", s.Name, scenarioLimit), false
	}
}

// oneLine keeps a failure's reason on its line.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
