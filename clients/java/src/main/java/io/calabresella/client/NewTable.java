package io.calabresella.client;

import io.calabresella.v1.Clock;
import io.calabresella.v1.CreateTableRequest;
import io.calabresella.v1.SeatKind;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A table to create, described by names as people and programs give them: the game, rule
 * options in {@code key=value} form (sent as settings for the server to read, see
 * {@link Rules#settings(Map)}), seat kinds ({@code open}, {@code random}, {@code heuristic}),
 * a seed. {@link #request()} checks the names and the notation and builds the
 * {@code CreateTableRequest}.
 *
 * <pre>{@code
 * Table t = client.createTable(NewTable.of("tressette-in-due")
 *         .option("target", "11").seats("open", "heuristic").seed(7));
 * }</pre>
 */
public final class NewTable {
    private final String game;
    private final Map<String, String> options = new LinkedHashMap<>();
    private final List<String> seats = new ArrayList<>();
    private final Map<String, String> metadata = new LinkedHashMap<>();
    private String name = "";
    private Long seed;
    private Clock clock;
    private int botDelayMs;

    private NewTable(String game) {
        this.game = game;
    }

    /**
     * A table of {@code game} with every default: every seat open, committed deals (see
     * {@link #seed(long)}).
     *
     * @param game one of {@link Rules#GAMES}
     * @return the description, to refine
     */
    public static NewTable of(String game) {
        return new NewTable(game);
    }

    /**
     * Sets one rule option (later settings of the same key win; the same key in another letter
     * case is refused by {@link #request()}). {@link CalabresellaClient#listGames()} describes
     * each game's keys and values; the server checks them.
     *
     * @param key the option, such as {@code target}
     * @param value its value as text, such as {@code "31"}
     * @return this
     */
    public NewTable option(String key, String value) {
        options.put(key, value);
        return this;
    }

    /**
     * Sets rule options, in the map's order.
     *
     * @param values options as {@code key -> value}
     * @return this
     */
    public NewTable options(Map<String, String> values) {
        options.putAll(values);
        return this;
    }

    /**
     * Who fills each seat, in order: as many names as the game has seats (or none: every seat
     * open).
     *
     * @param kinds seat kind names, see {@link Rules#seatKind(String)}
     * @return this
     */
    public NewTable seats(String... kinds) {
        return seats(List.of(kinds));
    }

    /**
     * Who fills each seat, in order.
     *
     * @param kinds seat kind names, see {@link Rules#seatKind(String)}
     * @return this
     */
    public NewTable seats(List<String> kinds) {
        seats.clear();
        seats.addAll(kinds);
        return this;
    }

    /**
     * The table's display name.
     *
     * @param value at most 100 characters
     * @return this
     */
    public NewTable name(String value) {
        name = value;
        return this;
    }

    /**
     * The seed of the deals, for a reproducible simulation: the table is then marked
     * {@code seeded} ({@code deal_scheme} {@value Entropy#SEEDED_SCHEME}) and only its creator
     * may take its seats ({@code JoinTable} from another client address is FAILED_PRECONDITION
     * {@code SEEDED_TABLE}). Without a seed the deals are committed: the server publishes
     * {@code Table.commitment} and every player contributes (see {@link Entropy}).
     *
     * @param value the seed
     * @return this
     */
    public NewTable seed(long value) {
        seed = value;
        return this;
    }

    /**
     * The clock (unset fields take the server's defaults).
     *
     * @param value the clock
     * @return this
     */
    public NewTable clock(Clock value) {
        clock = value;
        return this;
    }

    /**
     * The pause before each built-in bot decision.
     *
     * @param ms milliseconds, at most 10000
     * @return this
     */
    public NewTable botDelayMs(int ms) {
        botDelayMs = ms;
        return this;
    }

    /**
     * Adds a free-form label.
     *
     * @param key the label's key
     * @param value its value
     * @return this
     */
    public NewTable metadata(String key, String value) {
        metadata.put(key, value);
        return this;
    }

    /**
     * The request for this table.
     *
     * @return the {@code CreateTableRequest}
     * @throws IllegalArgumentException for an unknown game or seat kind, or options not in the
     *     {@code key=value} notation (an empty key, the same key twice)
     */
    public CreateTableRequest request() {
        CreateTableRequest.Builder r = CreateTableRequest.newBuilder()
                .setName(name)
                .setOptions(Rules.gameOptions(game, options))
                .setBotDelayMs(botDelayMs)
                .putAllMetadata(metadata);
        boolean named = seats.stream().anyMatch(Rules::isNamedBot);
        for (String s : seats) {
            SeatKind k = Rules.seatKind(s);
            r.addSeats(k);
            if (named) {
                r.addSeatBots(Rules.isNamedBot(s) ? s.strip().toLowerCase(java.util.Locale.ROOT) : "");
            }
        }
        if (seed != null) {
            r.setSeed(seed);
        }
        if (clock != null) {
            r.setClock(clock);
        }
        return r.build();
    }
}
