// Package calabresella is the Go client of the Calabresella game server (gRPC service
// calabresella.v1.TableService).
//
// A program connects with [Dial], creates or finds a table, joins a seat with [Client.Join]
// and plays it with [Seat.Play] and a [Bot]. The pieces below the play loop are public too:
// [Seat.Updates] follows a seat's ordered stream (checking sequence numbers and resuming
// after a drop or a server restart), [Seat.Act] answers a decision (retried idempotently
// while the server is unreachable), [Client.Spectate] follows the public stream.
//
// Every error from the server is an [*Error] carrying the gRPC code and the
// google.rpc.ErrorInfo reason (such as "ILLEGAL_ACTION"); use [errors.As] to reach it.
// Every call takes a [context.Context]: cancelling it stops the call, a stream or a whole
// match; [Client.Close] stops them all with [ErrClientClosed].
//
// Tables made without a seed deal committed deals (docs/RECORDS.md): the server publishes
// the table's Commitment at creation and reveals its secret in the record, and [Client.Join],
// [Client.Seek] and [Client.Compete] send the player's contribution, 32 fresh bytes from
// crypto/rand unless [WithEntropy] or [WithoutEntropy] says otherwise.
//
// Only [Seat.Act] and the streams' reopening retry through an outage (with
// [Seat.Observation], the read the play loop makes for a bot); every other call fails at once
// with UNAVAILABLE when the server cannot be reached. No call waits longer than the outage
// window (30 s, [WithReconnectFor]) for an answer.
//
// The generated messages and stubs live in the subpackage gen/calabresella/v1 (imported here
// as pb); they are committed, so the module builds without a code generator. It is not
// published yet: README.md says how to depend on a local copy (a replace directive).
package calabresella
