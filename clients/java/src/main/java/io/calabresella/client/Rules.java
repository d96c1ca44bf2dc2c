package io.calabresella.client;

import io.calabresella.v1.Game;
import io.calabresella.v1.GameOptions;
import io.calabresella.v1.SeatKind;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Games and seat kinds by name, and rule options in the {@code key=value} notation of the
 * command-line tool and the Python package ({@code players=4}, {@code target=31},
 * {@code aperta=true}...) sent as {@code GameOptions.settings}. The client keeps no copy of any
 * game's options: it refuses only what is not the notation (an unknown game, an empty key, the
 * same key twice), with an {@link IllegalArgumentException} before any call; the server reads
 * the keys and values with the game's own grammar and answers an option the game does not
 * have, or a value it does not take, with {@code INVALID_ARGUMENT}, reason {@code BAD_OPTIONS}
 * and its message. {@link CalabresellaClient#listGames()} describes every game's options.
 */
public final class Rules {
    private Rules() {}

    /**
     * The game names, as the server's records and the command-line tool spell them: each value
     * of the contract's {@code Game} enum in lower case with dashes
     * ({@code GAME_TRESSETTE_IN_DUE} is {@code tressette-in-due}).
     */
    public static final List<String> GAMES = Arrays.stream(Game.values())
            .filter(g -> g != Game.GAME_UNSPECIFIED && g != Game.UNRECOGNIZED)
            .map(Rules::gameName)
            .toList();

    /**
     * The built-in search bots a seat names, bare or with parameters after a colon:
     * {@code best} plays as the strongest bot of each game.
     */
    public static final List<String> SEARCH_BOTS = List.of("pimc", "ismcts", "best");

    /**
     * A game's name, as the server's records and the command-line tool spell it.
     *
     * @param game a game
     * @return its name ({@code tressette-in-due}), or "" for an unset or unknown one
     */
    public static String gameName(Game game) {
        if (game == Game.GAME_UNSPECIFIED || game == Game.UNRECOGNIZED) {
            return "";
        }
        return game.name().substring("GAME_".length()).toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /**
     * The game named {@code name} (any letter case).
     *
     * @param name one of {@link #GAMES}
     * @return the wire enum
     * @throws IllegalArgumentException for any other name
     */
    public static Game game(String name) {
        String k = key(name);
        return Arrays.stream(Game.values())
                .filter(g -> !k.isEmpty() && gameName(g).equals(k))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException(
                        "unknown game \"" + name + "\": " + String.join(", ", GAMES)));
    }

    /**
     * Whether {@code name} names a bot by name: a search bot ({@code pimc}, {@code ismcts}, or
     * {@code best}, the strongest of each game), bare or with its budget after a colon
     * ({@code pimc:ms=50}), or a submitted bot ({@code submitted:NAME},
     * {@code submitted:NAME@VERSION}), any letter case. Such a seat is
     * {@code SEAT_KIND_BOT_NAMED} and its name goes in {@code seat_bots}; the server checks it.
     *
     * @param name a seat's name
     * @return whether it names a bot
     */
    public static boolean isNamedBot(String name) {
        String k = key(name);
        String base = k.split(":", 2)[0].strip();
        return SEARCH_BOTS.contains(base) || k.startsWith("submitted:");
    }

    /**
     * The seat kind named {@code name}: {@code open} (or {@code human}, {@code player}),
     * {@code random} (or {@code bot}), {@code heuristic}, or a search bot
     * ({@link #isNamedBot(String)}), any letter case.
     *
     * @param name the kind's name
     * @return the wire enum
     * @throws IllegalArgumentException for any other name
     */
    public static SeatKind seatKind(String name) {
        return switch (key(name)) {
            case "open", "human", "player" -> SeatKind.SEAT_KIND_OPEN;
            case "random", "bot" -> SeatKind.SEAT_KIND_BOT_RANDOM;
            case "heuristic" -> SeatKind.SEAT_KIND_BOT_HEURISTIC;
            default -> {
                if (isNamedBot(name)) {
                    yield SeatKind.SEAT_KIND_BOT_NAMED;
                }
                throw new IllegalArgumentException("unknown seat kind \"" + name
                        + "\": open (or human, player), random (or bot), heuristic, or a search bot:"
                        + " pimc, ismcts or best (pimc:ms=50)");
            }
        };
    }

    /**
     * The {@code GameOptions} of a game with rule options given as {@code key=value} strings,
     * sent as its {@code settings} (see {@link #settings(Map)}): the server reads them in the
     * order of their keys and takes unset ones at their defaults.
     *
     * @param game one of {@link #GAMES}
     * @param options rule options; unset ones take the engine defaults
     * @return the options to send
     * @throws IllegalArgumentException for an unknown game, or options not in the notation
     */
    public static GameOptions gameOptions(String game, Map<String, String> options) {
        return GameOptions.newBuilder().setGame(game(game)).putAllSettings(settings(options)).build();
    }

    /**
     * The {@code GameOptions.settings} of rule options: keys trimmed and in lower case, as the
     * server reads them, values trimmed. Whether the game has a key and takes its value is the
     * server's to say.
     *
     * @param options rule options as {@code key -> value}
     * @return the settings, in the map's order
     * @throws IllegalArgumentException for an empty key, the same key twice in any letter case
     *     ({@code Target} and {@code target}), or a missing value
     */
    public static Map<String, String> settings(Map<String, String> options) {
        Map<String, String> out = new LinkedHashMap<>();
        options.forEach((k, v) -> {
            String key = key(k);
            if (key.isEmpty()) {
                throw new IllegalArgumentException("option \"" + k + "=" + v + "\" has no key");
            }
            if (v == null) {
                throw new IllegalArgumentException("option " + key + " has no value");
            }
            if (out.putIfAbsent(key, v.strip()) != null) {
                throw new IllegalArgumentException("option " + key + " is given twice");
            }
        });
        return out;
    }

    /** A name as compared: trimmed, lower case. */
    private static String key(String s) {
        if (s == null) {
            throw new IllegalArgumentException("a name must not be null");
        }
        return s.strip().toLowerCase(Locale.ROOT);
    }
}
