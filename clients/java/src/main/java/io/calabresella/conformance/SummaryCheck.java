package io.calabresella.conformance;

import static io.calabresella.conformance.Failed.check;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.calabresella.client.CalabresellaClient;
import io.calabresella.v1.EndReason;
import io.calabresella.v1.GetRecordResponse;
import io.calabresella.v1.MatchEnded;
import io.calabresella.v1.MatchResult;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * The summary check: the table's record, replayed by the engine ({@code $CALABRESELLA_BIN
 * replay -}), agrees with the {@code MatchEnded} the client received.
 */
final class SummaryCheck {
    private SummaryCheck() {}

    /**
     * Runs the check.
     *
     */
    static void run(CalabresellaClient client, String tableId, MatchEnded ended) {
        check(ended.getReason() == EndReason.END_REASON_COMPLETED, "the match ended " + ended.getReason());
        check(ended.hasResult(), "MatchEnded without a result");
        MatchResult result = ended.getResult();
        GetRecordResponse record = client.getRecord(tableId);
        check(record.getMatchOver(), "the record says the match is not over");
        JsonObject engine = replay(record.getRecordJson());
        JsonObject match = engine.getAsJsonObject("match");
        check(match.get("over").getAsBoolean(), "the replayed record's match is not over");
        TreeSet<Integer> winners = new TreeSet<>(result.getWinnersList());
        TreeSet<Integer> replayed = new TreeSet<>(ints(match.getAsJsonArray("winning_seats")));
        check(winners.equals(replayed), "winners " + winners + " but the replay says " + replayed);
        check(result.getDraw() == match.get("draw").getAsBoolean(), "draw differs from the replay");
        List<Integer> totals = ints(match.getAsJsonArray("totals"));
        check(result.getSignedTotalsList().equals(totals),
                "totals " + result.getSignedTotalsList() + " but the replay says " + totals);
        int hands = engine.getAsJsonArray("hands").size();
        check(result.getHands() == hands, result.getHands() + " hands but the record has " + hands);
    }

    private static List<Integer> ints(JsonArray a) {
        List<Integer> out = new ArrayList<>();
        for (JsonElement e : a) {
            out.add(e.getAsInt());
        }
        return out;
    }

    /** The engine's replay JSON of a record. */
    private static JsonObject replay(String recordJson) {
        String bin = System.getenv("CALABRESELLA_BIN");
        check(bin != null && !bin.isEmpty(), "CALABRESELLA_BIN is not set");
        try {
            Process p = new ProcessBuilder(bin, "replay", "-").start();
            try (OutputStream in = p.getOutputStream()) {
                in.write(recordJson.getBytes(StandardCharsets.UTF_8));
            }
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
            int code = p.waitFor();
            check(code == 0, "the record does not replay: " + err.strip());
            return JsonParser.parseString(out).getAsJsonObject();
        } catch (IOException e) {
            throw new Failed("cannot run " + bin + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new Failed("interrupted while replaying the record");
        }
    }
}
