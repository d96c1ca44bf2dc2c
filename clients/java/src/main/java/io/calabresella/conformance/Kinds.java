package io.calabresella.conformance;

import static io.calabresella.conformance.Failed.check;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.calabresella.client.Bot;
import io.calabresella.client.CalabresellaClient;
import io.calabresella.client.CalabresellaException;
import io.calabresella.client.Entropy;
import io.calabresella.client.NewTable;
import io.calabresella.client.PlayReport;
import io.calabresella.client.Seat;
import io.calabresella.client.UpdateStream;
import io.calabresella.v1.ActResponse;
import io.calabresella.v1.Action;
import io.calabresella.v1.MatchEnded;
import io.calabresella.v1.Observation;
import io.calabresella.v1.SeatInfo;
import io.calabresella.v1.Table;
import io.calabresella.v1.Turn;
import io.calabresella.v1.Update;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/** One method per scenario kind, each exactly as the runner contract describes it. */
final class Kinds {
    /** The player name the runner joins as. */
    static final String PLAYER = "conformance-java";

    private final CalabresellaClient client;
    private final JsonObject s;

    Kinds(CalabresellaClient client, JsonObject scenario) {
        this.client = client;
        this.s = scenario;
    }

    /** Runs the scenario's kind; a kind this runner does not know fails. */
    void run() {
        String kind = s.get("kind").getAsString();
        switch (kind) {
            case "match" -> match();
            case "resume" -> resume();
            case "duplicate_act" -> duplicateAct();
            case "stale_decision" -> staleDecision();
            case "illegal_action" -> illegalAction();
            case "bad_token" -> badToken();
            case "unknown_table" -> expectError(() -> client.getTable(s.get("table_id").getAsString()));
            case "spectate" -> spectate();
            case "restart" -> restart();
            case "fair_deal" -> fairDeal();
            case "bench" -> bench();
            default -> throw new Failed("unknown kind \"" + kind + "\"");
        }
    }

    private String create(long seed) {
        return client.createTable(table(seed)).getTableId();
    }

    /** The scenario's table, seeded unless {@code seed} is null (committed deals). */
    private NewTable table(Long seed) {
        int botDelayMs = s.has("bot_delay_ms") ? s.get("bot_delay_ms").getAsInt() : 0;
        Map<String, String> options = new LinkedHashMap<>();
        for (Map.Entry<String, JsonElement> e : s.getAsJsonObject("options").entrySet()) {
            options.put(e.getKey(), e.getValue().getAsString());
        }
        List<String> seats = new ArrayList<>();
        s.getAsJsonArray("seats").forEach(e -> seats.add(e.getAsString()));
        NewTable t = NewTable.of(s.get("game").getAsString())
                .options(options)
                .seats(seats)
                .name(s.get("name").getAsString())
                .botDelayMs(botDelayMs);
        return seed == null ? t : t.seed(seed);
    }

    private String create() {
        return create(s.get("seed").getAsLong());
    }

    private Seat join(String tableId) {
        return client.join(tableId, s.get("seat").getAsInt(), PLAYER);
    }

    /** The turn an update makes due for {@code seat}, if any. */
    static Turn myTurn(Update u, int seat) {
        Turn kind = switch (u.getKindCase()) {
            case TURN -> u.getTurn();
            case SNAPSHOT -> u.getSnapshot().hasTurn() ? u.getSnapshot().getTurn() : null;
            default -> null;
        };
        for (Turn t : new Turn[] {kind, u.hasNextTurn() ? u.getNextTurn() : null}) {
            if (t != null && t.getDecider() == seat && t.getLegalActionsCount() > 0) {
                return t;
            }
        }
        return null;
    }

    private void expectError(Runnable call) {
        JsonObject want = s.getAsJsonObject("expect");
        String code = want.get("code").getAsString();
        String reason = want.get("reason").getAsString();
        try {
            call.run();
        } catch (CalabresellaException e) {
            String got = e.code().name() + " " + e.reason();
            check(got.equals(code + " " + reason), "got " + got + ", expected " + code + " " + reason + ": " + e.getMessage());
            return;
        }
        throw new Failed("the call succeeded; expected " + code + " " + reason);
    }

    private void match() {
        String tableId = create();
        int[] asked = {0};
        PlayReport r = join(tableId).play(d -> {
            asked[0]++;
            return d.legalActions().get(0);
        });
        check(asked[0] > 0, "the bot was never asked");
        SummaryCheck.run(client, tableId, r.ended());
    }

    /** Reads the stream directly, answering turns, and drops it after a number of updates. */
    private void resume() {
        String tableId = create();
        Seat seat = join(tableId);
        int dropAfter = s.get("drop_after_updates").getAsInt();
        List<Long> seqs = new ArrayList<>();
        Set<Long> answered = new HashSet<>();
        MatchEnded ended = null;
        try (UpdateStream first = seat.observe()) {
            while (seqs.size() < dropAfter && first.hasNext()) {
                Update u = first.next();
                ended = follow(seat, u, seqs, answered);
                check(ended == null, "the match ended before the drop");
            }
        }
        check(seqs.size() == dropAfter, "the stream ended after " + seqs.size() + " updates");
        long last = seqs.get(seqs.size() - 1);
        try (UpdateStream resumed = seat.observe()) {
            check(resumed.hasNext(), "the resumed stream is empty");
            Update u = resumed.next();
            check(u.getKindCase() != Update.KindCase.SNAPSHOT,
                    "the resumed stream opened with a snapshot (" + u.getSnapshot().getReason() + ")");
            check(u.getSeq() == last + 1, "the resumed stream opened at " + u.getSeq() + " after " + last);
            ended = follow(seat, u, seqs, answered);
            while (ended == null && resumed.hasNext()) {
                ended = follow(seat, resumed.next(), seqs, answered);
            }
        }
        check(ended != null, "the stream ended without MatchEnded");
        SummaryCheck.run(client, tableId, ended);
    }

    /**
     * Checks an update's number, answers a turn it makes due; the MatchEnded if it is one. Every
     * update after the stream's first must be the last plus one, a snapshot included: the
     * contract allows no fresh snapshot in mid-stream, so one is a failure, never a reset.
     */
    private static MatchEnded follow(Seat seat, Update u, List<Long> seqs, Set<Long> answered) {
        if (!seqs.isEmpty()) {
            long last = seqs.get(seqs.size() - 1);
            check(u.getSeq() == last + 1, "update " + u.getSeq() + " (" + u.getKindCase() + ") after " + last);
        }
        seqs.add(u.getSeq());
        if (u.getKindCase() == Update.KindCase.MATCH_ENDED) {
            return u.getMatchEnded();
        }
        Turn t = myTurn(u, seat.number());
        if (t != null && answered.add(t.getDecision())) {
            seat.act(t.getDecision(), t.getLegalActions(0));
        }
        return null;
    }

    /** Answers turns with the first legal action until one satisfies {@code want}. */
    private static Turn firstTurn(Seat seat, Predicate<Turn> want) {
        Set<Long> answered = new HashSet<>();
        try (UpdateStream stream = seat.observe()) {
            while (stream.hasNext()) {
                Turn t = myTurn(stream.next(), seat.number());
                if (t == null || !answered.add(t.getDecision())) {
                    continue;
                }
                if (want.test(t)) {
                    return t;
                }
                seat.act(t.getDecision(), t.getLegalActions(0));
            }
        }
        throw new Failed("the match ended before a suitable turn");
    }

    private void duplicateAct() {
        Seat seat = join(create());
        Turn t = firstTurn(seat, x -> true);
        Action action = t.getLegalActions(0);
        ActResponse a = seat.act(t.getDecision(), action);
        ActResponse b = seat.act(t.getDecision(), action);
        check(!a.getDuplicate(), "the first answer was a duplicate");
        check(b.getDuplicate(), "the second answer was not marked duplicate");
        check(a.getAction().equals(b.getAction()) && a.getAction().getNotation().equals(action.getNotation()),
                "actions differ: " + a.getAction().getNotation() + " / " + b.getAction().getNotation());
    }

    private void staleDecision() {
        Seat seat = join(create());
        Turn t = firstTurn(seat, x -> x.getLegalActionsCount() >= 2);
        seat.act(t.getDecision(), t.getLegalActions(0));
        expectError(() -> seat.act(t.getDecision(), t.getLegalActions(1)));
    }

    private void illegalAction() {
        Seat seat = join(create());
        Turn t = firstTurn(seat, x -> true);
        Set<String> legal = new HashSet<>();
        t.getLegalActionsList().forEach(a -> legal.add(a.getNotation()));
        String action = null;
        for (JsonElement e : s.getAsJsonArray("try")) {
            if (!legal.contains(e.getAsString())) {
                action = e.getAsString();
                break;
            }
        }
        check(action != null, "every action of `try` is legal");
        String chosen = action;
        expectError(() -> seat.act(t.getDecision(), chosen));
    }

    private void badToken() {
        String tableId = create();
        join(tableId);
        Seat forged = client.seat(tableId, s.get("seat").getAsInt(), s.get("token").getAsString());
        expectError(() -> forged.act(0, "pass"));
    }

    private void spectate() {
        // The scenario's bot_delay_ms lets the stream open before the first hand is over.
        String tableId = create();
        Long last = null;
        List<Integer> revealed = new ArrayList<>();
        MatchEnded ended = null;
        try (UpdateStream stream = client.spectate(tableId)) {
            while (stream.hasNext()) {
                Update u = stream.next();
                // Contiguous from the first update on: a snapshot in mid-stream is a gap too.
                if (last != null) {
                    check(u.getSeq() == last + 1, "update " + u.getSeq() + " (" + u.getKindCase() + ") after " + last);
                }
                last = u.getSeq();
                Turn kindTurn = null;
                switch (u.getKindCase()) {
                    case SNAPSHOT -> {
                        Observation o = u.getSnapshot().getObservation();
                        check(o.getHandCount() == 0, "a snapshot shows a hand: " + o.getHandList());
                        check(o.getVisibleHandsCount() == 0, "a snapshot shows hands");
                        check(o.getLegalActionsCount() == 0, "a snapshot shows legal actions");
                        kindTurn = u.getSnapshot().hasTurn() ? u.getSnapshot().getTurn() : null;
                    }
                    case TURN -> kindTurn = u.getTurn();
                    case HAND_REVEALED -> revealed.add(u.getHandRevealed().getHandNumber());
                    case MATCH_ENDED -> ended = u.getMatchEnded();
                    default -> { }
                }
                for (Turn t : new Turn[] {kindTurn, u.hasNextTurn() ? u.getNextTurn() : null}) {
                    check(t == null || t.getLegalActionsCount() == 0, "a turn shows legal actions: " + t);
                }
            }
        }
        check(ended != null && ended.hasResult(), "no MatchEnded with a result");
        int hands = ended.getResult().getHands();
        List<Integer> sorted = new ArrayList<>(revealed);
        sorted.sort(null);
        List<Integer> want = new ArrayList<>();
        for (int i = 0; i < hands; i++) {
            want.add(i);
        }
        check(sorted.equals(want), "hands revealed " + revealed + ", expected each of " + hands + " once");
        SummaryCheck.run(client, tableId, ended);
    }

    private void restart() {
        String tableId = create();
        int at = s.get("restart_at_decision").getAsInt();
        int[] asked = {0};
        Bot bot = d -> {
            asked[0]++;
            if (asked[0] == at) {
                restartServer();
            }
            return d.legalActions().get(0);
        };
        PlayReport r = join(tableId).play(bot);
        check(asked[0] >= at, "the server was never restarted");
        // The restart broke the stream: play must have reopened it, and said so.
        check(r.reconnects() > 0, "the play report shows no reconnect after the restart");
        SummaryCheck.run(client, tableId, r.ended());
    }

    /** 64 lower-case hex digits: a SHA-256 commitment, a 256-bit secret. */
    private static final Pattern HEX64 = Pattern.compile("[0-9a-f]{64}");

    /**
     * Checks that a table shows committed deals ({@code when} names it in a failure) and
     * returns its commitment.
     */
    private static String committed(Table t, String when) {
        check(t.getDealScheme().equals(Entropy.DEAL_SCHEME),
                when + ": deal_scheme \"" + t.getDealScheme() + "\", expected " + Entropy.DEAL_SCHEME);
        check(HEX64.matcher(t.getCommitment()).matches(),
                when + ": commitment \"" + t.getCommitment() + "\" is not 64 lower-case hex digits");
        check(!t.getSeeded(), when + ": seeded is true");
        return t.getCommitment();
    }

    /**
     * Creates the table without a seed, checks its commitment, plays it after the plain join
     * (the client's own 32 random bytes), then checks the seats' entropy, the record's
     * {@code meta.deals} and {@code $CALABRESELLA_BIN verify -}.
     */
    private void fairDeal() {
        Table created = client.createTable(table(null));
        String commitment = committed(created, "the created table");
        String tableId = created.getTableId();
        String before = committed(client.getTable(tableId), "GetTable before the join");
        check(before.equals(commitment), "GetTable shows commitment " + before + ", the created table " + commitment);
        Seat seat = join(tableId);
        int[] asked = {0};
        PlayReport r = seat.play(d -> {
            asked[0]++;
            return d.legalActions().get(0);
        });
        check(asked[0] > 0, "the bot was never asked");
        SummaryCheck.run(client, tableId, r.ended());

        int mine = s.get("seat").getAsInt();
        List<SeatInfo> seats = client.getTable(tableId).getSeatsList();
        JsonArray kinds = s.getAsJsonArray("seats");
        check(seats.size() == kinds.size(), "GetTable shows " + seats.size() + " seats, the scenario has " + kinds.size());
        SeatInfo joined = seats.get(mine);
        check(joined.getContributed() && joined.getEntropy().size() == Entropy.DEFAULT_BYTES,
                "the joined seat: contributed " + joined.getContributed() + " with " + joined.getEntropy().size()
                        + " bytes of entropy, expected true with " + Entropy.DEFAULT_BYTES);
        check(joined.getEntropy().equals(seat.entropy()),
                "GetTable shows the joined seat's entropy other than the bytes the join sent");
        for (int i = 0; i < kinds.size(); i++) {
            if (kinds.get(i).getAsString().equals("open")) {
                continue;
            }
            SeatInfo bot = seats.get(i);
            check(!bot.getContributed() && bot.getEntropy().isEmpty(), "bot seat " + i + ": contributed "
                    + bot.getContributed() + " with " + bot.getEntropy().size() + " bytes of entropy, expected none");
        }

        String record = client.getRecord(tableId).getRecordJson();
        JsonObject meta = JsonParser.parseString(record).getAsJsonObject().getAsJsonObject("meta");
        check(meta != null && meta.has("deals") && meta.get("deals").isJsonObject(), "the record has no meta.deals");
        JsonObject deals = meta.getAsJsonObject("deals");
        String recorded = text(deals, "commitment");
        check(commitment.equals(recorded), "the record's commitment " + recorded + ", the table's " + commitment);
        String secret = text(deals, "secret");
        check(secret != null && HEX64.matcher(secret).matches(),
                "the record's secret " + secret + " is not 64 lower-case hex digits");
        JsonElement contributions = deals.get("contributions");
        check(contributions != null && contributions.isJsonArray() && contributions.getAsJsonArray().size() > mine,
                "the record's contributions " + contributions + " have no seat " + mine);
        String hex = HexFormat.of().formatHex(joined.getEntropy().toByteArray());
        JsonElement given = contributions.getAsJsonArray().get(mine);
        check(given.isJsonPrimitive() && given.getAsString().equals(hex),
                "the record's contribution of seat " + mine + " is " + given + ", GetTable's entropy " + hex);
        verify(record);
    }

    /** A string member of a JSON object, or null when absent, null or not a string. */
    private static String text(JsonObject o, String key) {
        JsonElement e = o.get(key);
        return e != null && e.isJsonPrimitive() && e.getAsJsonPrimitive().isString() ? e.getAsString() : null;
    }

    /** Runs {@code $CALABRESELLA_BIN verify -} on the record and expects it to exit with 0. */
    private static void verify(String record) {
        String bin = System.getenv("CALABRESELLA_BIN");
        check(bin != null && !bin.isEmpty(), "CALABRESELLA_BIN is not set");
        try {
            Process p = new ProcessBuilder(bin, "verify", "-").redirectErrorStream(true).start();
            try (OutputStream in = p.getOutputStream()) {
                in.write(record.getBytes(StandardCharsets.UTF_8));
            }
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            int code = p.waitFor();
            check(code == 0, "verify exited with " + code + ": " + out.strip());
        } catch (IOException e) {
            throw new Failed("cannot run " + bin + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new Failed("interrupted while verifying the record");
        }
    }

    /** Runs {@code CONFORMANCE_RESTART}: kills the server and starts it again. */
    private static void restartServer() {
        String cmd = System.getenv("CONFORMANCE_RESTART");
        check(cmd != null && !cmd.isEmpty(), "CONFORMANCE_RESTART is not set");
        try {
            Process p = new ProcessBuilder("sh", "-c", cmd).inheritIO().start();
            check(p.waitFor() == 0, "CONFORMANCE_RESTART failed");
        } catch (IOException e) {
            throw new Failed("cannot run CONFORMANCE_RESTART: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new Failed("interrupted while restarting the server");
        }
    }

    private void bench() {
        int matches = s.get("matches").getAsInt();
        long seed = s.get("seed").getAsLong();
        long decisions = 0;
        long started = System.nanoTime();
        for (int i = 0; i < matches; i++) {
            String tableId = create(seed + i);
            decisions += join(tableId).play(Bot.firstLegal()).decisions();
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        System.out.printf("BENCH java %s decisions=%d seconds=%.3f decisions_per_second=%.0f%n",
                s.get("name").getAsString(), decisions, seconds, decisions / seconds);
        System.out.flush();
    }
}
