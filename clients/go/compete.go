package calabresella

import (
	"context"
	"errors"
	"io"
	"iter"
	"strings"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/proto"

	pb "github.com/calabresella/calabresella/clients/go/gen/calabresella/v1"
)

// WithAPIKey makes every call carry "authorization: Bearer <key>": a registered player's API
// key (calabresella players add), so that Join seats the player under its registered name and
// Compete and Seek work, or the server's admin key for organiser calls (CreateTournament).
// The key is sent over TLS ("https://" addresses); over plaintext it is sent too, for trials
// on one machine, where anyone on the path could read it.
func WithAPIKey(key string) ClientOption {
	return func(c *clientConfig) { c.apiKey = strings.TrimSpace(key) }
}

// bearer is the per-call credential of WithAPIKey.
type bearer struct {
	key string
	tls bool
}

// GetRequestMetadata adds the authorization header.
func (b bearer) GetRequestMetadata(context.Context, ...string) (map[string]string, error) {
	return map[string]string{"authorization": "Bearer " + b.key}, nil
}

// RequireTransportSecurity is true over TLS, so gRPC never sends the key in plaintext on a
// connection meant to be secure.
func (b bearer) RequireTransportSecurity() bool { return b.tls }

// Compete opens the player's long-lived Compete call (the client needs WithAPIKey): it yields
// every table a tournament schedules for the player, as an Assignment (table, seat, seat
// token; play it with Client.Seat and Seat.Play), starting with the player's unfinished tables
// with fresh tokens. The server gives it maxTables (1 to 16) tables at once. The sequence ends
// when the server closes the call or ctx is done; a failure is yielded as an *Error (reconnect
// by calling Compete again: the server hands back the unfinished tables).
//
// The player contributes DefaultEntropyBytes fresh random bytes to the deals of the tables
// the call is given (a duplicate tournament's take none); WithEntropy sends the caller's own,
// WithoutEntropy none (a bad length is an *EntropyError, yielded before any call).
func (c *Client) Compete(ctx context.Context, maxTables uint32, opts ...EntropyOption) iter.Seq2[*pb.Assignment, error] {
	return func(yield func(*pb.Assignment, error) bool) {
		entropy, err := entropyOf(opts).resolve(nil)
		if err != nil {
			yield(nil, err)
			return
		}
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		stream, err := c.rpc.Compete(ctx, &pb.CompeteRequest{MaxTables: maxTables, Entropy: entropy})
		if err != nil {
			yield(nil, FromStatus(err))
			return
		}
		for {
			r, err := stream.Recv()
			if errors.Is(err, io.EOF) || (err != nil && ctx.Err() != nil) {
				return
			}
			if err != nil {
				yield(nil, FromStatus(err))
				return
			}
			if !yield(r.GetAssignment(), nil) {
				return
			}
		}
	}
}

// Seek asks the server for a match of req's game, options and clock (the client needs
// WithAPIKey) and waits until it is seated: paired with other seekers first come first
// served, or with built-in bots after req.BotsAfterMs. Cancelling ctx cancels the seek.
//
// The player contributes req.Entropy to the table's deals when it is set (1 to
// MaxEntropyBytes bytes), else DefaultEntropyBytes fresh random bytes; an option overrides
// both (WithEntropy, or WithoutEntropy for none). A bad length is an *EntropyError before any
// call. req itself is not changed.
func (c *Client) Seek(ctx context.Context, req *pb.SeekRequest, opts ...EntropyOption) (*pb.Assignment, error) {
	entropy, err := entropyOf(opts).resolve(req.GetEntropy())
	if err != nil {
		return nil, err
	}
	sent := &pb.SeekRequest{}
	if req != nil {
		sent = proto.CloneOf(req)
	}
	sent.Entropy = entropy
	stream, err := c.rpc.Seek(ctx, sent)
	if err != nil {
		return nil, FromStatus(err)
	}
	return seated(stream)
}

func seated(stream grpc.ServerStreamingClient[pb.SeekResponse]) (*pb.Assignment, error) {
	for {
		r, err := stream.Recv()
		if err != nil {
			if errors.Is(err, io.EOF) {
				return nil, &Error{Code: codes.Unavailable, Message: "the seek ended without a seat"}
			}
			return nil, FromStatus(err)
		}
		if a := r.GetSeated(); a != nil {
			return a, nil
		}
	}
}
