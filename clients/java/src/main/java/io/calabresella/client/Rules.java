package io.calabresella.client;

import io.calabresella.v1.CalabresellaOptions;
import io.calabresella.v1.ChiamataAuction;
import io.calabresella.v1.ChiamataOptions;
import io.calabresella.v1.FirstLead;
import io.calabresella.v1.Game;
import io.calabresella.v1.GameOptions;
import io.calabresella.v1.MatchEnd;
import io.calabresella.v1.SeatKind;
import io.calabresella.v1.TressetteOptions;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Games, rule options and seat kinds by name, in the {@code key=value} notation of the
 * command-line tool and the Python package ({@code players=4}, {@code target=31},
 * {@code aperta=true}...). Unknown names and keys and malformed values are rejected here, with
 * an {@link IllegalArgumentException} saying what is allowed, before any call; the server
 * checks the combinations further ({@code INVALID_ARGUMENT}, reason {@code BAD_OPTIONS}).
 */
public final class Rules {
    private Rules() {}

    /** The game names, as the server's records and the command-line tool spell them. */
    public static final List<String> GAMES = List.of(
            "calabresella", "tressette", "tressette-in-due", "tressette-chiamata", "briscola-chiamata");

    private static final String CALABRESELLA_KEYS =
            "players, target, match_end, stramazzo, only_chiamo, chiamo_threes_only, aperta, a_due, max_deals, preset";
    private static final String TRESSETTE_KEYS = "target, accusi, follow_suit_always, max_deals";
    private static final String CHIAMATA_KEYS = "players, hands, solo_bid, call_threes_only, call_own_card, "
            + "auction, two_closes, first_lead, bid_multiplier, max_deals";

    /**
     * The game named {@code name} (any letter case).
     *
     * @param name one of {@link #GAMES}
     * @return the wire enum
     * @throws IllegalArgumentException for any other name
     */
    public static Game game(String name) {
        return switch (key(name)) {
            case "calabresella" -> Game.GAME_CALABRESELLA;
            case "tressette" -> Game.GAME_TRESSETTE;
            case "tressette-in-due" -> Game.GAME_TRESSETTE_IN_DUE;
            case "tressette-chiamata" -> Game.GAME_TRESSETTE_CHIAMATA;
            case "briscola-chiamata" -> Game.GAME_BRISCOLA_CHIAMATA;
            default -> throw new IllegalArgumentException(
                    "unknown game \"" + name + "\": " + String.join(", ", GAMES));
        };
    }

    /**
     * Whether {@code name} names a bot by name: the search bot {@code pimc}, or {@code pimc:}
     * with its budget ({@code pimc:ms=50}), or a submitted bot ({@code submitted:NAME},
     * {@code submitted:NAME@VERSION}), any letter case. Such a seat is
     * {@code SEAT_KIND_BOT_NAMED} and its name goes in {@code seat_bots}; the server checks it.
     *
     * @param name a seat's name
     * @return whether it names a bot
     */
    public static boolean isNamedBot(String name) {
        String k = key(name);
        return k.equals("pimc") || k.startsWith("pimc:") || k.startsWith("submitted:");
    }

    /**
     * The seat kind named {@code name}: {@code open} (or {@code human}, {@code player}),
     * {@code random} (or {@code bot}), {@code heuristic}, or the search bot {@code pimc}
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
                        + "\": open (or human, player), random (or bot), heuristic or pimc (pimc:ms=50)");
            }
        };
    }

    /**
     * The {@code GameOptions} of a game with rule options given as {@code key=value} strings,
     * applied in the map's order (so {@code preset=terziglio} then {@code target=5} plays to 5).
     *
     * @param game one of {@link #GAMES}
     * @param options rule options; unset ones take the engine defaults
     * @return the options to send
     * @throws IllegalArgumentException for an unknown game or key, or a malformed value
     */
    public static GameOptions gameOptions(String game, Map<String, String> options) {
        Game g = game(game);
        GameOptions.Builder out = GameOptions.newBuilder().setGame(g);
        switch (g) {
            case GAME_CALABRESELLA -> {
                CalabresellaOptions.Builder o = CalabresellaOptions.newBuilder();
                options.forEach((k, v) -> calabresella(o, key(k), v));
                out.setCalabresella(o);
            }
            case GAME_TRESSETTE, GAME_TRESSETTE_IN_DUE -> {
                TressetteOptions.Builder o = TressetteOptions.newBuilder();
                options.forEach((k, v) -> tressette(o, key(k), v, game));
                out.setTressette(o);
            }
            default -> {
                ChiamataOptions.Builder o = ChiamataOptions.newBuilder();
                options.forEach((k, v) -> chiamata(o, key(k), v, game));
                out.setChiamata(o);
            }
        }
        return out.build();
    }

    private static void calabresella(CalabresellaOptions.Builder o, String k, String v) {
        switch (k) {
            case "players" -> o.setPlayers(number(k, v, 3, 4));
            case "target" -> o.setTarget(number(k, v, 1, 1_000_000));
            case "max_deals" -> o.setMaxDeals(number(k, v, 1, 10_000_000));
            case "match_end" -> o.setMatchEnd(switch (key(v)) {
                case "pooled" -> MatchEnd.MATCH_END_POOLED;
                case "individual" -> MatchEnd.MATCH_END_INDIVIDUAL;
                default -> throw bad(k, v, "pooled or individual");
            });
            case "stramazzo" -> o.setStramazzo(flag(k, v));
            case "only_chiamo" -> o.setOnlyChiamo(flag(k, v));
            case "chiamo_threes_only" -> o.setChiamoThreesOnly(flag(k, v));
            case "aperta" -> o.setAperta(flag(k, v));
            case "a_due" -> {
                o.setADue(flag(k, v));
                // A due needs the individual match end: the engine selects it with a_due, so
                // the same options mean the same game here as in the CLI and Python.
                if (o.getADue()) {
                    o.setMatchEnd(MatchEnd.MATCH_END_INDIVIDUAL);
                }
            }
            case "preset" -> o.setTerziglio(switch (key(v)) {
                case "terziglio" -> true;
                case "calabresella" -> false;
                default -> throw bad(k, v, "terziglio or calabresella");
            });
            default -> throw unknown(k, "calabresella", CALABRESELLA_KEYS);
        }
    }

    private static void tressette(TressetteOptions.Builder o, String k, String v, String game) {
        switch (k) {
            case "target" -> o.setTarget(number(k, v, 1, 1_000_000));
            case "max_deals" -> o.setMaxDeals(number(k, v, 1, 10_000_000));
            case "accusi" -> o.setAccusi(flag(k, v));
            case "follow_suit_always" -> o.setFollowSuitAlways(flag(k, v));
            default -> throw unknown(k, game, TRESSETTE_KEYS);
        }
    }

    private static void chiamata(ChiamataOptions.Builder o, String k, String v, String game) {
        switch (k) {
            case "players" -> o.setPlayers(number(k, v, 4, 5));
            case "hands" -> o.setHands(number(k, v, 1, 100_000));
            case "max_deals" -> o.setMaxDeals(number(k, v, 1, 10_000_000));
            case "solo_bid" -> o.setSoloBid(flag(k, v));
            case "call_threes_only" -> o.setCallThreesOnly(flag(k, v));
            case "call_own_card" -> o.setCallOwnCard(flag(k, v));
            case "two_closes" -> o.setTwoCloses(flag(k, v));
            case "bid_multiplier" -> o.setBidMultiplier(flag(k, v));
            case "auction" -> o.setAuction(switch (key(v)) {
                case "ranks" -> ChiamataAuction.CHIAMATA_AUCTION_RANKS;
                case "points" -> ChiamataAuction.CHIAMATA_AUCTION_POINTS;
                default -> throw bad(k, v, "ranks or points");
            });
            case "first_lead" -> o.setFirstLead(switch (key(v)) {
                case "eldest" -> FirstLead.FIRST_LEAD_ELDEST;
                case "caller" -> FirstLead.FIRST_LEAD_CALLER;
                default -> throw bad(k, v, "eldest or caller");
            });
            default -> throw unknown(k, game, CHIAMATA_KEYS);
        }
    }

    /** A name as compared: trimmed, lower case. */
    private static String key(String s) {
        if (s == null) {
            throw new IllegalArgumentException("a name must not be null");
        }
        return s.trim().toLowerCase(Locale.ROOT);
    }

    private static boolean flag(String k, String v) {
        return switch (key(v)) {
            case "true", "on", "yes", "1" -> true;
            case "false", "off", "no", "0" -> false;
            default -> throw bad(k, v, "true or false");
        };
    }

    private static int number(String k, String v, int lo, int hi) {
        try {
            int n = Integer.parseInt(key(v));
            if (n >= lo && n <= hi) {
                return n;
            }
        } catch (NumberFormatException e) {
            // Reported below with what is allowed.
        }
        throw bad(k, v, "a whole number from " + lo + " to " + hi);
    }

    private static IllegalArgumentException bad(String k, String v, String expected) {
        return new IllegalArgumentException("option " + k + "=\"" + v + "\": expected " + expected);
    }

    private static IllegalArgumentException unknown(String k, String game, String known) {
        return new IllegalArgumentException("unknown option \"" + k + "\" for " + game + ": " + known);
    }
}
