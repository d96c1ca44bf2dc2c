package calabresella

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"iter"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/backoff"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/keepalive"

	pb "github.com/calabresella/calabresella/clients/go/gen/calabresella/v1"
)

// Client is a connection to a server. It is safe for concurrent use; Close it when done.
//
// Its calls (CreateTable, GetTable, Join, GetRecord...) are not retried: when the server
// cannot be reached they fail at once with an *Error UNAVAILABLE, and one that gets no answer
// within the outage window (WithReconnectFor) is given up as UNAVAILABLE too. Only Seat.Act
// (with Seat.Observation) and the streams retry through an outage.
type Client struct {
	conn         *grpc.ClientConn
	rpc          pb.TableServiceClient
	reconnectFor time.Duration

	// closed is set by Close before the connection is closed, so that the CANCELLED status
	// gRPC then gives the calls and streams in flight is read as the end (ErrClientClosed),
	// not as a broken connection to retry.
	closed atomic.Bool
	// done is closed by Close: it wakes the retries waiting out a backoff.
	done      chan struct{}
	closeOnce sync.Once
}

// ClientOption configures Dial.
type ClientOption func(*clientConfig)

// clientConfig is what the options of Dial set.
type clientConfig struct {
	reconnectFor time.Duration
	caCert       string
	apiKey       string
	dial         []grpc.DialOption
}

// WithReconnectFor sets how long an outage may last (from its first failure) before a
// stream, an Act or a play gives up with ErrConnectionLost; default 30 s.
func WithReconnectFor(d time.Duration) ClientOption {
	return func(c *clientConfig) { c.reconnectFor = d }
}

// WithCACert makes a TLS connection ("https://" address) trust the CA certificate(s) in the
// PEM file at path instead of the system's root certificates; the server's name (or IP
// address) is still checked against its certificate. Dial reads the file at once: a file it
// cannot read or that holds no certificate is an error naming the path, and so is this option
// with an address that is not "https://".
func WithCACert(path string) ClientOption {
	return func(c *clientConfig) { c.caCert = path }
}

// WithDialOptions adds gRPC dial options (credentials, interceptors...). They come after the
// defaults, so they override them: the transport credentials (plaintext, or TLS for an
// "https://" address) with grpc.WithTransportCredentials, the keepalive (a ping after 20 s
// without traffic, the connection given up when no answer comes within 10 s) with
// grpc.WithKeepaliveParams, the reconnection backoff with grpc.WithConnectParams.
func WithDialOptions(opts ...grpc.DialOption) ClientOption {
	return func(c *clientConfig) { c.dial = append(c.dial, opts...) }
}

// ErrCACertWithoutTLS is the error of Dial given WithCACert and an address that is not
// "https://" (a plaintext connection has no certificate to check).
var ErrCACertWithoutTLS = errors.New("calabresella: ca cert given but the address is not https://")

// Dial makes a client for the server at address. "https://host:port" connects over TLS,
// checking the server's certificate against the system's root certificates (or the CA of
// WithCACert) and its host name or IP address; "host:port" or "http://host:port" connects in
// plaintext. It does not wait for the server: the connection is made by the first call and
// made again after a drop, so a server whose certificate does not check out fails the calls
// with an *Error UNAVAILABLE, as one that cannot be reached.
func Dial(address string, opts ...ClientOption) (*Client, error) {
	cfg := clientConfig{reconnectFor: DefaultReconnectFor}
	for _, o := range opts {
		o(&cfg)
	}
	target, creds, err := transportCredentials(address, cfg.caCert)
	if err != nil {
		return nil, err
	}
	dial := []grpc.DialOption{
		grpc.WithTransportCredentials(creds),
		// gRPC's default reconnection backoff grows to two minutes; a server that restarts
		// must be found again at the pace of the retry policy (50 ms doubling to 1 s).
		grpc.WithConnectParams(grpc.ConnectParams{
			Backoff: backoff.Config{
				BaseDelay:  firstBackoff,
				Multiplier: 2,
				Jitter:     0.2,
				MaxDelay:   maxBackoff,
			},
			MinConnectTimeout: 5 * time.Second,
		}),
		// Without keepalive a connection to a host that vanished silently (no RST, packets
		// dropped) looks alive for as long as the kernel retransmits (many minutes): a
		// stream's Recv would block all that time. Pings find it dead within 30 s, the outage
		// window, and the stream is reopened. The server (tonic: its HTTP/2 layer sets no
		// minimum interval between pings) answers them however often they come.
		grpc.WithKeepaliveParams(keepalive.ClientParameters{Time: 20 * time.Second, Timeout: 10 * time.Second}),
	}
	if cfg.apiKey != "" {
		dial = append(dial, grpc.WithPerRPCCredentials(bearer{key: cfg.apiKey, tls: strings.HasPrefix(address, "https://")}))
	}
	conn, err := grpc.NewClient(target, append(dial, cfg.dial...)...)
	if err != nil {
		return nil, err
	}
	return &Client{conn: conn, rpc: pb.NewTableServiceClient(conn), reconnectFor: cfg.reconnectFor, done: make(chan struct{})}, nil
}

// transportCredentials splits address into the gRPC target and its credentials: TLS for
// "https://" (the system's roots, or the certificates of the PEM file caCert), plaintext
// otherwise.
func transportCredentials(address, caCert string) (string, credentials.TransportCredentials, error) {
	if rest, ok := strings.CutPrefix(address, "https://"); ok {
		cfg := &tls.Config{MinVersion: tls.VersionTLS12}
		if caCert != "" {
			pem, err := os.ReadFile(caCert)
			if err != nil {
				return "", nil, fmt.Errorf("calabresella: reading the CA certificate %s: %w", caCert, err)
			}
			roots := x509.NewCertPool()
			if !roots.AppendCertsFromPEM(pem) {
				return "", nil, fmt.Errorf("calabresella: no PEM certificate in the CA certificate file %s", caCert)
			}
			cfg.RootCAs = roots
		}
		return strings.TrimSuffix(rest, "/"), credentials.NewTLS(cfg), nil
	}
	if caCert != "" {
		return "", nil, ErrCACertWithoutTLS
	}
	return strings.TrimSuffix(strings.TrimPrefix(address, "http://"), "/"), insecure.NewCredentials(), nil
}

// Close closes the connection. The calls, streams and plays in flight, and any made after,
// end at once with ErrClientClosed (not retried: a closed client does not come back).
func (c *Client) Close() error {
	// The flag first: the calls the closing connection cancels must find it set.
	c.closed.Store(true)
	c.closeOnce.Do(func() { close(c.done) })
	return c.conn.Close()
}

// isClosed says whether Close was called.
func (c *Client) isClosed() bool { return c.closed.Load() }

// outage starts measuring an outage against the client's window.
func (c *Client) outage() outage { return outage{window: c.reconnectFor, closed: c.done} }

// RPC is the generated stub, for calls and fields this package does not wrap. Its errors are
// raw gRPC statuses: FromStatus decodes them.
func (c *Client) RPC() pb.TableServiceClient { return c.rpc }

// TableOption configures CreateTable.
type TableOption func(*tableConfig)

// tableConfig is what the options of CreateTable set.
type tableConfig struct {
	rules map[string]string
	seats []string
	req   *pb.CreateTableRequest
}

// WithRules sets rule options in the key=value notation, e.g. {"target": "11", "accusi":
// "false"}, sent as settings for the server to read (see GameOptions; ListGames describes
// each game's options).
func WithRules(rules map[string]string) TableOption {
	return func(c *tableConfig) { c.rules = rules }
}

// WithSeats names who fills each seat, in order: "open", "random", "heuristic", or a search bot,
// "pimc", "ismcts" or "best" (the strongest of each game), with an optional budget after a colon
// ("pimc:ms=50"). Without it every seat is open.
func WithSeats(kinds ...string) TableOption {
	return func(c *tableConfig) { c.seats = kinds }
}

// WithSeed deals from this seed, for a reproducible simulation: the table is then marked
// Seeded (DealScheme SeededScheme) and only its creator may take its seats (JoinTable from
// another client address is FAILED_PRECONDITION SEEDED_TABLE). Without it the deals are
// committed: see Table.Commitment and docs/RECORDS.md.
func WithSeed(seed uint64) TableOption {
	return func(c *tableConfig) { c.req.Seed = &seed }
}

// WithName sets the table's display name.
func WithName(name string) TableOption {
	return func(c *tableConfig) { c.req.Name = name }
}

// WithClock sets the table's clock (unset fields take the server defaults).
func WithClock(clock *pb.Clock) TableOption {
	return func(c *tableConfig) { c.req.Clock = clock }
}

// WithBotDelay pauses before each built-in bot decision, so people can follow a bot table.
func WithBotDelay(d time.Duration) TableOption {
	return func(c *tableConfig) { c.req.BotDelayMs = uint32(d / time.Millisecond) }
}

// WithMetadata sets the table's free-form labels.
func WithMetadata(m map[string]string) TableOption {
	return func(c *tableConfig) { c.req.Metadata = m }
}

// CreateTable creates a table of game (calabresella, tressette, tressette-in-due,
// tressette-chiamata, briscola-chiamata: see Games). An unknown game or seat kind, or rule
// options not in the key=value notation, are an *OptionError before any call; the server
// answers an option the game does not have or a value it does not take with
// INVALID_ARGUMENT BAD_OPTIONS and its message.
func (c *Client) CreateTable(ctx context.Context, game string, opts ...TableOption) (*pb.Table, error) {
	t, _, err := c.CreateTableWithKey(ctx, game, opts...)
	return t, err
}

// CreateTableWithKey is CreateTable, with the table's creator key: for a seeded table with
// open seats, the key that takes them (Join with WithCreatorKey); empty otherwise.
func (c *Client) CreateTableWithKey(ctx context.Context, game string, opts ...TableOption) (*pb.Table, string, error) {
	cfg := tableConfig{req: &pb.CreateTableRequest{}}
	for _, o := range opts {
		o(&cfg)
	}
	options, err := GameOptions(game, cfg.rules)
	if err != nil {
		return nil, "", err
	}
	seats, bots, err := SeatChoices(cfg.seats...)
	if err != nil {
		return nil, "", err
	}
	cfg.req.Options = options
	cfg.req.Seats = seats
	cfg.req.SeatBots = bots
	r, err := call(ctx, c, func(ctx context.Context) (*pb.CreateTableResponse, error) {
		return c.rpc.CreateTable(ctx, cfg.req)
	})
	return r.GetTable(), r.GetCreatorKey(), err
}

// GetTable is one table's public state (NOT_FOUND TABLE_NOT_FOUND when there is none).
func (c *Client) GetTable(ctx context.Context, tableID string) (*pb.Table, error) {
	r, err := call(ctx, c, func(ctx context.Context) (*pb.GetTableResponse, error) {
		return c.rpc.GetTable(ctx, &pb.GetTableRequest{TableId: tableID})
	})
	return r.GetTable(), err
}

// ListTables is one page of tables, newest first (state TABLE_STATE_UNSPECIFIED: all).
// Pass the returned token back for the next page; it is empty on the last page.
func (c *Client) ListTables(ctx context.Context, state pb.TableState, pageToken string) ([]*pb.Table, string, error) {
	r, err := call(ctx, c, func(ctx context.Context) (*pb.ListTablesResponse, error) {
		return c.rpc.ListTables(ctx, &pb.ListTablesRequest{State: state, PageToken: pageToken})
	})
	return r.GetTables(), r.GetNextPageToken(), err
}

// Tables yields every table in state (unspecified: all), newest first, page after page.
func (c *Client) Tables(ctx context.Context, state pb.TableState) iter.Seq2[*pb.Table, error] {
	return func(yield func(*pb.Table, error) bool) {
		token := ""
		for {
			tables, next, err := c.ListTables(ctx, state, token)
			if err != nil {
				yield(nil, err)
				return
			}
			for _, t := range tables {
				if !yield(t, nil) {
					return
				}
			}
			if next == "" {
				return
			}
			token = next
		}
	}
}

// GetRecord is a table's game record (format calabresella-record/1, in RecordJson), with
// its number of completed hands and whether the match is over.
func (c *Client) GetRecord(ctx context.Context, tableID string) (*pb.GetRecordResponse, error) {
	return call(ctx, c, func(ctx context.Context) (*pb.GetRecordResponse, error) {
		return c.rpc.GetRecord(ctx, &pb.GetRecordRequest{TableId: tableID})
	})
}

// ListRecords is one page of finished matches, newest first, filtered as req says.
func (c *Client) ListRecords(ctx context.Context, req *pb.ListRecordsRequest) (*pb.ListRecordsResponse, error) {
	return call(ctx, c, func(ctx context.Context) (*pb.ListRecordsResponse, error) {
		return c.rpc.ListRecords(ctx, req)
	})
}

// ListGames is every game the server plays, in the server's order, with its seats
// (MinPlayers to MaxPlayers, DefaultPlayers) and the description of each of its rule options
// (Key, Kind: a flag, a number from Min to Max or one of Choices; DefaultValue, Doc): the keys
// and values WithRules takes. A server from before ListGames answers UNIMPLEMENTED (it takes
// only the typed rules).
func (c *Client) ListGames(ctx context.Context) ([]*pb.GameDescription, error) {
	r, err := call(ctx, c, func(ctx context.Context) (*pb.ListGamesResponse, error) {
		return c.rpc.ListGames(ctx, &pb.ListGamesRequest{})
	})
	return r.GetGames(), err
}

// GetResults is the results table (per player: matches, wins, points, rating), best first.
func (c *Client) GetResults(ctx context.Context, req *pb.GetResultsRequest) (*pb.GetResultsResponse, error) {
	if req == nil {
		req = &pb.GetResultsRequest{}
	}
	return call(ctx, c, func(ctx context.Context) (*pb.GetResultsResponse, error) {
		return c.rpc.GetResults(ctx, req)
	})
}
