package io.calabresella.client;

import com.google.protobuf.ByteString;
import io.calabresella.v1.Assignment;
import io.calabresella.v1.CompeteRequest;
import io.calabresella.v1.CompeteResponse;
import io.calabresella.v1.CreateTableRequest;
import io.calabresella.v1.CreateTableResponse;
import io.calabresella.v1.GameDescription;
import io.calabresella.v1.GetRecordRequest;
import io.calabresella.v1.GetRecordResponse;
import io.calabresella.v1.GetResultsRequest;
import io.calabresella.v1.GetResultsResponse;
import io.calabresella.v1.GetTableRequest;
import io.calabresella.v1.JoinTableRequest;
import io.calabresella.v1.JoinTableResponse;
import io.calabresella.v1.ListGamesRequest;
import io.calabresella.v1.ListRecordsRequest;
import io.calabresella.v1.ListRecordsResponse;
import io.calabresella.v1.ListTablesRequest;
import io.calabresella.v1.ListTablesResponse;
import io.calabresella.v1.SeekRequest;
import io.calabresella.v1.SeekResponse;
import io.calabresella.v1.SpectateRequest;
import io.calabresella.v1.SpectateResponse;
import io.calabresella.v1.Table;
import io.calabresella.v1.TableServiceGrpc;
import io.calabresella.v1.TableState;
import io.calabresella.v1.Update;
import io.grpc.ChannelCredentials;
import io.grpc.ClientInterceptor;
import io.grpc.Metadata;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.MetadataUtils;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.TlsChannelCredentials;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * A connection to a Calabresella server: tables, seats, spectating and records. Every method
 * blocks the calling thread. Its calls are sent once: when the server cannot be reached they
 * fail at once with {@code UNAVAILABLE}, so the program decides what to do (only
 * {@link Seat#act(long, io.calabresella.v1.Action)}, a bot's {@link Decision#observation()} and
 * the reopening of streams ride out an outage: see {@link RetryPolicy}). Failures are
 * {@link CalabresellaException}s with the gRPC code and the server's reason.
 *
 * <pre>{@code
 * try (CalabresellaClient client = CalabresellaClient.connect("127.0.0.1:50051")) {
 *     Table t = client.createTable(NewTable.of("tressette-in-due").seats("open", "heuristic"));
 *     PlayReport r = client.join(t.getTableId(), 0, "me").play(Bot.firstLegal());
 * }
 * }</pre>
 *
 * <p>{@link #close()} shuts the channel down: calls and streams in progress end with a
 * {@link java.util.concurrent.CancellationException}.
 */
public final class CalabresellaClient implements AutoCloseable {
    private final Connection connection;

    private CalabresellaClient(ManagedChannel channel, RetryPolicy policy) {
        this.connection = new Connection(channel, policy);
    }

    /**
     * Connects to a server (the connection is made on the first call). An {@code https://}
     * address connects over TLS, checking the server's certificate against the JDK's trusted
     * root certificates and its host name or IP address; {@code host:port} or
     * {@code http://host:port} connects in plain text. A CA certificate of your own:
     * {@link #builder(String)}.
     *
     * @param address {@code host:port}, or an {@code http://} or {@code https://} URL
     * @return the client; close it when done
     */
    public static CalabresellaClient connect(String address) {
        return builder(address).connect();
    }

    /**
     * Connects to a server with a retry policy of its own.
     *
     * @param address {@code host:port}, or an {@code http://} or {@code https://} URL
     * @param policy how long outages are ridden out, and refusals tolerated in play
     * @return the client; close it when done
     */
    public static CalabresellaClient connect(String address, RetryPolicy policy) {
        return builder(address).retryPolicy(policy).connect();
    }

    /**
     * A builder of a client of the server at {@code address}, for the settings beyond the
     * address: the CA certificate of a TLS connection, the retry policy.
     *
     * <pre>{@code
     * CalabresellaClient client = CalabresellaClient.builder("https://127.0.0.1:50051")
     *         .caCert(Path.of("ca.pem"))
     *         .connect();
     * }</pre>
     *
     * @param address {@code host:port}, or an {@code http://} or {@code https://} URL
     * @return the builder
     */
    public static Builder builder(String address) {
        return new Builder(address);
    }

    /**
     * The settings of a client: see {@link CalabresellaClient#builder(String)}. Each method
     * returns the builder; {@link #connect()} makes the client.
     */
    public static final class Builder {
        private final String address;
        private RetryPolicy policy = RetryPolicy.DEFAULT;
        private Path caCert;
        private String apiKey;

        private Builder(String address) {
            this.address = Objects.requireNonNull(address, "address");
        }

        /**
         * Trusts the CA certificate(s) in this PEM file, instead of the JDK's trusted roots, for
         * the server's certificate of a TLS ({@code https://}) connection. The server's host name
         * or IP address is still checked against its certificate.
         *
         * @param path a PEM file of one or more CA certificates
         * @return this builder
         */
        public Builder caCert(Path path) {
            this.caCert = Objects.requireNonNull(path, "caCert");
            return this;
        }

        /**
         * Sends {@code authorization: Bearer <key>} on every call: a registered player's API key
         * ({@code calabresella players add}), so {@link #join} seats the player under its
         * registered name and {@link CalabresellaClient#compete} and
         * {@link CalabresellaClient#seek} work, or the server's admin key for organiser calls.
         * Send keys over TLS ({@code https://}).
         *
         * @param key the key
         * @return this builder
         */
        public Builder apiKey(String key) {
            this.apiKey = Objects.requireNonNull(key, "apiKey").trim();
            return this;
        }

        /**
         * Sets the retry policy (default {@link RetryPolicy#DEFAULT}).
         *
         * @param policy how long outages are ridden out, and refusals tolerated in play
         * @return this builder
         */
        public Builder retryPolicy(RetryPolicy policy) {
            this.policy = Objects.requireNonNull(policy, "policy");
            return this;
        }

        /**
         * Makes the client (the connection is made on the first call). A server whose
         * certificate does not check out fails the calls with {@code UNAVAILABLE}, as one that
         * cannot be reached.
         *
         * @return the client; close it when done
         * @throws IllegalArgumentException when a CA certificate is given for an address that is
         *     not {@code https://}, or its file holds no certificate
         * @throws UncheckedIOException when the CA certificate file cannot be read
         */
        public CalabresellaClient connect() {
            boolean tls = address.startsWith("https://");
            String target = address.replaceFirst("^https?://", "").replaceFirst("/+$", "");
            ChannelCredentials credentials;
            if (tls) {
                credentials = caCert == null ? TlsChannelCredentials.create() : trusting(caCert);
            } else if (caCert != null) {
                throw new IllegalArgumentException("ca cert given but the address is not https://: " + address);
            } else {
                credentials = InsecureChannelCredentials.create();
            }
            var builder = Grpc.newChannelBuilder(target, credentials);
            if (apiKey != null) {
                builder.intercept(bearer(apiKey));
            }
            ManagedChannel channel = builder
                    // Keepalive pings notice a dead connection on a quiet stream (a host gone
                    // without a reset), so the stream can be reopened within the outage window.
                    .keepAliveTime(20, TimeUnit.SECONDS)
                    .keepAliveTimeout(10, TimeUnit.SECONDS)
                    .build();
            return new CalabresellaClient(channel, policy);
        }

        /** TLS credentials trusting the CA certificates of a PEM file (and no other root). */
        private static ChannelCredentials trusting(Path caCert) {
            byte[] pem = readCaCert(caCert);
            try {
                return TlsChannelCredentials.newBuilder().trustManager(new ByteArrayInputStream(pem)).build();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read the CA certificate " + caCert + ": " + e, e);
            }
        }

        /** The CA file's bytes, checked to hold at least one certificate. */
        private static byte[] readCaCert(Path path) {
            byte[] pem;
            try {
                pem = Files.readAllBytes(path);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read the CA certificate " + path + ": " + e, e);
            }
            try {
                if (CertificateFactory.getInstance("X.509").generateCertificates(new ByteArrayInputStream(pem)).isEmpty()) {
                    throw new IllegalArgumentException("no certificate in the CA certificate file " + path);
                }
            } catch (CertificateException e) {
                throw new IllegalArgumentException("no PEM certificate in the CA certificate file " + path + ": "
                        + e.getMessage(), e);
            }
            return pem;
        }
    }

    /**
     * The interceptor that sends {@code authorization: Bearer <key>} on every call (for a
     * channel made elsewhere, with {@link #over}).
     *
     * @param key an API key or the admin key
     * @return the interceptor
     */
    public static ClientInterceptor bearer(String key) {
        Metadata headers = new Metadata();
        headers.put(Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER), "Bearer " + key.trim());
        return MetadataUtils.newAttachHeadersInterceptor(headers);
    }

    /**
     * The tables a tournament schedules for the registered player whose API key the client
     * sends ({@link Builder#apiKey}): each an {@link Assignment} (table, seat, seat token; play
     * it with {@link #seat(String, int, String)}), first the player's unfinished tables with
     * fresh tokens. The server gives it {@code maxTables} (1 to 16) tables at once. The
     * iterator ends when the server closes the call; a failure is thrown as a
     * {@link CalabresellaException} from {@code hasNext} (call again to reconnect). The player
     * contributes {@value Entropy#DEFAULT_BYTES} fresh random bytes to the deals of the tables
     * the call is given (see {@link #compete(int, Entropy)}).
     *
     * @param maxTables tables played at once
     * @return the assignments as they come
     */
    public Iterator<Assignment> compete(int maxTables) {
        return compete(maxTables, Entropy.random());
    }

    /**
     * {@link #compete(int)} with the player's contribution to the deals of the tables the call
     * is given chosen: {@link Entropy#random()}, {@link Entropy#of(byte[])} or
     * {@link Entropy#none()} (a duplicate tournament's tables take none whatever is sent).
     *
     * @param maxTables tables played at once
     * @param entropy the contribution
     * @return the assignments as they come
     */
    public Iterator<Assignment> compete(int maxTables, Entropy entropy) {
        CompeteRequest request = CompeteRequest.newBuilder()
                .setMaxTables(maxTables)
                .setEntropy(Objects.requireNonNull(entropy, "entropy").bytes())
                .build();
        Iterator<CompeteResponse> it;
        try {
            it = connection.streamStub().compete(request);
        } catch (StatusRuntimeException e) {
            throw connection.failure(e);
        }
        return new Iterator<>() {
            @Override
            public boolean hasNext() {
                try {
                    return it.hasNext();
                } catch (StatusRuntimeException e) {
                    throw connection.failure(e);
                }
            }

            @Override
            public Assignment next() {
                try {
                    return it.next().getAssignment();
                } catch (StatusRuntimeException e) {
                    throw connection.failure(e);
                }
            }
        };
    }

    /**
     * Matchmaking for the registered player whose API key the client sends: waits until the
     * server pairs it with other seekers of the same settings, or fills the missing seats with
     * built-in bots after {@code request.getBotsAfterMs()}. The player contributes
     * {@code request.getEntropy()} to the table's deals when it is set (1 to
     * {@value Entropy#MAX_BYTES} bytes), else {@value Entropy#DEFAULT_BYTES} fresh random bytes;
     * {@link #seek(SeekRequest, Entropy)} chooses otherwise.
     *
     * @param request the game, options, clock, wait for bots, rating window and entropy
     * @return the seat
     * @throws InvalidEntropyException when the request's entropy is over
     *     {@value Entropy#MAX_BYTES} bytes (before any call)
     */
    public Assignment seek(SeekRequest request) {
        Entropy entropy = request.getEntropy().isEmpty() ? Entropy.random() : Entropy.of(request.getEntropy());
        return seek(request, entropy);
    }

    /**
     * {@link #seek(SeekRequest)} with the player's contribution to the table's deals chosen (in
     * place of the request's own {@code entropy}): {@link Entropy#random()},
     * {@link Entropy#of(byte[])} or {@link Entropy#none()}.
     *
     * @param request the game, options, clock, wait for bots and rating window
     * @param entropy the contribution
     * @return the seat
     */
    public Assignment seek(SeekRequest request, Entropy entropy) {
        SeekRequest sent = request.toBuilder().setEntropy(Objects.requireNonNull(entropy, "entropy").bytes()).build();
        try {
            Iterator<SeekResponse> it = connection.streamStub().seek(sent);
            while (it.hasNext()) {
                SeekResponse r = it.next();
                if (r.hasSeated()) {
                    return r.getSeated();
                }
            }
        } catch (StatusRuntimeException e) {
            throw connection.failure(e);
        }
        throw connection.failure(io.grpc.Status.UNAVAILABLE
                .withDescription("the seek ended without a seat").asRuntimeException());
    }

    /**
     * A client over a channel made elsewhere (TLS settings, interceptors, an in-process server
     * in tests). Closing the client shuts the channel down.
     *
     * @param channel the channel
     * @param policy the retry policy
     * @return the client
     */
    public static CalabresellaClient over(ManagedChannel channel, RetryPolicy policy) {
        return new CalabresellaClient(channel, policy);
    }

    /**
     * Creates a table (sent once, as every call here: a retry could create two).
     *
     * @param table the table, by names
     * @return its public state
     * @throws IllegalArgumentException when a name is unknown or an option is not in the
     *     {@code key=value} notation (before any call); the server answers an option the game
     *     does not have, or a value it does not take, with INVALID_ARGUMENT BAD_OPTIONS
     */
    public Table createTable(NewTable table) {
        return createTable(table.request());
    }

    /**
     * Creates a table from a request built by hand.
     *
     * @param request the request
     * @return its public state
     */
    public Table createTable(CreateTableRequest request) {
        return createTableWithKey(request).getTable();
    }

    /**
     * Creates a table and returns the whole answer: its public state and, for a seeded table
     * with open seats, the creator key that takes them ({@link #join(String, Integer, String,
     * Entropy, String)}).
     *
     * @param table the table, by names
     * @return the table and its creator key (empty unless seeded with open seats)
     * @throws IllegalArgumentException when a name is unknown or an option is not in the
     *     {@code key=value} notation (before any call); the server answers an option the game
     *     does not have, or a value it does not take, with INVALID_ARGUMENT BAD_OPTIONS
     */
    public CreateTableResponse createTableWithKey(NewTable table) {
        return createTableWithKey(table.request());
    }

    /**
     * {@link #createTableWithKey(NewTable)} from a request built by hand.
     *
     * @param request the request
     * @return the table and its creator key
     */
    public CreateTableResponse createTableWithKey(CreateTableRequest request) {
        return connection.once(s -> s.createTable(request));
    }

    /**
     * One page of tables, newest first.
     *
     * @param request the state filter, page size and page token
     * @return the page
     */
    public ListTablesResponse listTables(ListTablesRequest request) {
        return connection.once(s -> s.listTables(request));
    }

    /**
     * Every table in a state, newest first, through all the pages.
     *
     * @param state the state, or {@code TABLE_STATE_UNSPECIFIED} for all
     * @return the tables
     */
    public List<Table> listTables(TableState state) {
        List<Table> out = new ArrayList<>();
        String token = "";
        do {
            ListTablesResponse page = listTables(ListTablesRequest.newBuilder()
                    .setState(state).setPageSize(100).setPageToken(token).build());
            out.addAll(page.getTablesList());
            token = page.getNextPageToken();
        } while (!token.isEmpty());
        return out;
    }

    /**
     * One table's public state.
     *
     * @param tableId the table's id
     * @return the table
     * @throws CalabresellaException NOT_FOUND TABLE_NOT_FOUND for an unknown id
     */
    public Table getTable(String tableId) {
        GetTableRequest r = GetTableRequest.newBuilder().setTableId(tableId).build();
        return connection.once(s -> s.getTable(r)).getTable();
    }

    /**
     * Takes a seat as a named player (sent once). The seat contributes
     * {@value Entropy#DEFAULT_BYTES} fresh random bytes ({@link java.security.SecureRandom}) to
     * the table's committed deals; {@link #join(String, Integer, String, Entropy)} chooses
     * otherwise.
     *
     * @param tableId the table's id
     * @param seat the seat wanted, or null for the lowest open seat
     * @param playerName 1 to 64 characters, no control or invisible formatting characters, not a built-in bot's name in any form; shown to everyone
     * @return the seat handle, holding the secret token
     */
    public Seat join(String tableId, Integer seat, String playerName) {
        return join(tableId, seat, playerName, Entropy.random());
    }

    /**
     * Takes a seat as a named player with the seat's contribution to the table's committed
     * deals chosen: {@link Entropy#random()}, {@link Entropy#of(byte[])} or
     * {@link Entropy#none()}. {@link Seat#entropy()} is what was sent; once the match starts
     * {@link #getTable} shows every seat's ({@code SeatInfo.entropy}), and the record names them.
     *
     * @param tableId the table's id
     * @param seat the seat wanted, or null for the lowest open seat
     * @param playerName 1 to 64 characters, no control or invisible formatting characters, not a built-in bot's name in any form; shown to everyone
     * @param entropy the contribution
     * @return the seat handle, holding the secret token
     */
    public Seat join(String tableId, Integer seat, String playerName, Entropy entropy) {
        return join(tableId, seat, playerName, entropy, "");
    }

    /**
     * Takes a seat of a seeded table, which seats only its creator: {@code creatorKey} is the
     * key {@link #createTableWithKey(NewTable)} returned.
     *
     * @param tableId the table's id
     * @param seat the seat wanted, or null for the lowest open seat
     * @param playerName as for {@link #join(String, Integer, String)}
     * @param entropy the contribution
     * @param creatorKey the table's creator key (empty: none)
     * @return the seat handle, holding the secret token
     */
    public Seat join(String tableId, Integer seat, String playerName, Entropy entropy, String creatorKey) {
        ByteString bytes = Objects.requireNonNull(entropy, "entropy").bytes();
        JoinTableRequest.Builder b = JoinTableRequest.newBuilder()
                .setTableId(tableId).setPlayerName(playerName).setEntropy(bytes)
                .setCreatorKey(Objects.requireNonNull(creatorKey, "creatorKey"));
        if (seat != null) {
            b.setSeat(seat);
        }
        JoinTableRequest r = b.build();
        JoinTableResponse joined = connection.once(s -> s.joinTable(r));
        return new Seat(connection, tableId, joined.getSeat(), joined.getSeatToken(), ResumePoint.START,
                joined.getTable(), bytes);
    }

    /**
     * The handle of a seat joined before (by this program or an earlier run of it), from its
     * table id, seat and token; its first stream opens with a snapshot.
     *
     * @param tableId the table's id
     * @param seat the seat number
     * @param token the seat token {@link #join} returned
     * @return the seat handle (nothing is checked until the first call)
     */
    public Seat seat(String tableId, int seat, String token) {
        return seat(tableId, seat, token, ResumePoint.START);
    }

    /**
     * A seat handle whose first stream resumes after a saved point.
     *
     * @param tableId the table's id
     * @param seat the seat number
     * @param token the seat token
     * @param from the saved {@link Seat#resumePoint()}
     * @return the seat handle
     */
    public Seat seat(String tableId, int seat, String token, ResumePoint from) {
        return new Seat(connection, tableId, seat, token, from);
    }

    /**
     * Follows a table's public stream from its start (a snapshot); same ordering and resume
     * rules as a seat's stream. After each hand, a {@code HandRevealed} shows its deal.
     *
     * @param tableId the table's id
     * @return the stream; close it when done
     */
    public UpdateStream spectate(String tableId) {
        return spectate(tableId, ResumePoint.START);
    }

    /**
     * Follows a table's public stream, resuming after a saved point.
     *
     * @param tableId the table's id
     * @param from where a previous stream stood ({@link UpdateStream#resumePoint()})
     * @return the stream; close it when done
     */
    public UpdateStream spectate(String tableId, ResumePoint from) {
        StreamCursor cursor = new StreamCursor("table " + tableId + " public stream", from);
        return new UpdateStream(connection, cursor, p -> {
            SpectateRequest.Builder r = SpectateRequest.newBuilder().setTableId(tableId).setStreamEpoch(p.epoch());
            if (p.started()) {
                r.setResumeAfter(p.seq());
            }
            Iterator<SpectateResponse> it = connection.streamStub().spectate(r.build());
            return new Iterator<Update>() {
                @Override
                public boolean hasNext() {
                    return it.hasNext();
                }

                @Override
                public Update next() {
                    return it.next().getUpdate();
                }
            };
        });
    }

    /**
     * A table's game record (format {@code calabresella-record/1}).
     *
     * @param tableId the table's id
     * @return the record JSON, its number of hands, and whether the match is over
     */
    public GetRecordResponse getRecord(String tableId) {
        GetRecordRequest r = GetRecordRequest.newBuilder().setTableId(tableId).build();
        return connection.once(s -> s.getRecord(r));
    }

    /**
     * Finished matches in the store, newest first, filtered.
     *
     * @param request the filters and page
     * @return one page of summaries
     */
    public ListRecordsResponse listRecords(ListRecordsRequest request) {
        return connection.once(s -> s.listRecords(request));
    }

    /**
     * The results table: per player, matches, wins, draws, points and rating.
     *
     * @param request the game filter, and whether to leave bots out
     * @return the players, best first
     */
    public GetResultsResponse getResults(GetResultsRequest request) {
        return connection.once(s -> s.getResults(request));
    }

    /**
     * Every game the server plays, with its seats ({@code min_players} to {@code max_players},
     * {@code default_players}) and the description of each of its rule options ({@code key},
     * {@code kind}: a flag, a number from {@code min} to {@code max} or one of {@code choices};
     * {@code default_value}, {@code doc}): the keys and values {@link NewTable#option(String,
     * String)} takes.
     *
     * @return the games, in the server's order
     * @throws CalabresellaException UNIMPLEMENTED from a server from before {@code ListGames},
     *     which takes only the typed rules
     */
    public List<GameDescription> listGames() {
        return connection.once(s -> s.listGames(ListGamesRequest.getDefaultInstance())).getGamesList();
    }

    /**
     * The generated blocking stub on this client's channel, for calls this class does not
     * wrap (no retry, no typed errors).
     *
     * @return the stub
     */
    public TableServiceGrpc.TableServiceBlockingStub stub() {
        return connection.streamStub();
    }

    /** Shuts the channel down, ending calls and streams in progress. */
    @Override
    public void close() {
        connection.channel.shutdownNow();
        try {
            connection.channel.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
