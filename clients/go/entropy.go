package calabresella

import (
	"bytes"
	"crypto/rand"
	"fmt"
)

// The player's contribution to a table's committed deals (docs/RECORDS.md, "Deals: committed
// or seeded"): random bytes that Join, Seek and Compete send and that enter every hand's key,
// so that not even the server's operator could have chosen the deals.

// DealScheme is Table.DealScheme (and Tournament.DealScheme) of committed deals.
const DealScheme = "calabresella-deal/1"

// SeededScheme is Table.DealScheme of a table its creator seeded: reproducible, not committed.
const SeededScheme = "seeded"

// DefaultEntropyBytes is how many random bytes (from crypto/rand) Join, Seek and Compete
// contribute when the caller does not choose.
const DefaultEntropyBytes = 32

// MaxEntropyBytes is the most a contribution may hold; the server refuses more
// (INVALID_ARGUMENT BAD_ENTROPY), and this client refuses it before any call.
const MaxEntropyBytes = 64

// EntropyError is a contribution refused before any call: it must hold 1 to
// MaxEntropyBytes bytes (WithoutEntropy contributes none).
type EntropyError struct {
	// Len is how many bytes were given.
	Len int
}

// Error says how many bytes were given and how many are allowed.
func (e *EntropyError) Error() string {
	return fmt.Sprintf("calabresella: entropy holds %d bytes: it must hold 1 to %d (or use WithoutEntropy to contribute none)", e.Len, MaxEntropyBytes)
}

// EntropyOption chooses the contribution of one Join, Seek or Compete call: WithEntropy or
// WithoutEntropy. Without one, the call sends DefaultEntropyBytes fresh random bytes. It is a
// JoinOption too.
type EntropyOption struct {
	choice entropyChoice
}

// entropyChoice is what an EntropyOption says: nothing (the default), none, or these bytes.
type entropyChoice struct {
	set   bool
	none  bool
	bytes []byte
}

// WithEntropy sends b (1 to MaxEntropyBytes bytes, copied) as the player's contribution
// instead of random bytes of the client's own. Any other length makes the call fail with an
// *EntropyError before anything is sent.
func WithEntropy(b []byte) EntropyOption {
	return EntropyOption{entropyChoice{set: true, bytes: bytes.Clone(b)}}
}

// WithoutEntropy contributes nothing: the table's deals then depend on the server's secret
// and the other players' contributions only.
func WithoutEntropy() EntropyOption {
	return EntropyOption{entropyChoice{set: true, none: true}}
}

// applyJoin makes an EntropyOption a JoinOption.
func (o EntropyOption) applyJoin(c *joinConfig) { c.entropy = o.choice }

// entropyOf is the choice of the last option given (the default when none).
func entropyOf(opts []EntropyOption) entropyChoice {
	var ch entropyChoice
	for _, o := range opts {
		ch = o.choice
	}
	return ch
}

// resolve is the bytes to send: the chosen ones (checked), none, or, with no choice, given
// when it is not empty (a request's own field, checked) and else fresh random bytes.
func (ch entropyChoice) resolve(given []byte) ([]byte, error) {
	switch {
	case ch.none:
		return nil, nil
	case ch.set:
		return checkEntropy(ch.bytes)
	case len(given) > 0:
		return checkEntropy(given)
	}
	return RandomEntropy()
}

// checkEntropy refuses a contribution of the wrong length.
func checkEntropy(b []byte) ([]byte, error) {
	if len(b) < 1 || len(b) > MaxEntropyBytes {
		return nil, &EntropyError{Len: len(b)}
	}
	return b, nil
}

// RandomEntropy is DefaultEntropyBytes fresh bytes from crypto/rand: what Join, Seek and
// Compete send by default.
func RandomEntropy() ([]byte, error) {
	b := make([]byte, DefaultEntropyBytes)
	if _, err := rand.Read(b); err != nil {
		return nil, fmt.Errorf("calabresella: no random bytes for the entropy: %w", err)
	}
	return b, nil
}
