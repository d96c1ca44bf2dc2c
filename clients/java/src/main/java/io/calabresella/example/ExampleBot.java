package io.calabresella.example;

import io.calabresella.client.CalabresellaClient;
import io.calabresella.client.CalabresellaException;
import io.calabresella.client.NewTable;
import io.calabresella.client.PlayReport;
import io.calabresella.client.Seat;
import io.calabresella.v1.Action;
import io.calabresella.v1.MatchResult;
import io.calabresella.v1.Table;
import java.util.List;
import java.util.Random;

/**
 * Connects, creates a table with one open seat and built-in bots, plays the open seat with a
 * random bot to the end of the match and prints the result.
 *
 * <pre>
 * java -cp 'target/classes:target/lib/*' io.calabresella.example.ExampleBot 127.0.0.1:50051 \
 *     [game] [seat kinds...]
 * </pre>
 * Defaults: {@code tressette-in-due open heuristic}.
 */
public final class ExampleBot {
    private ExampleBot() {}

    /**
     * Plays one match.
     *
     * @param args the server address, then optionally the game and the seat kinds
     */
    public static void main(String[] args) {
        if (args.length < 1) {
            System.err.println("usage: ExampleBot HOST:PORT [game] [seat kinds...]");
            System.exit(2);
        }
        String game = args.length > 1 ? args[1] : "tressette-in-due";
        List<String> seats = args.length > 2 ? List.of(args).subList(2, args.length) : List.of("open", "heuristic");
        Random random = new Random();
        try (CalabresellaClient client = CalabresellaClient.connect(args[0])) {
            Table table = client.createTable(NewTable.of(game).seats(seats).name("java example"));
            Seat seat = client.join(table.getTableId(), null, "java-example");
            System.out.printf("table %s, seat %d%n", table.getTableId(), seat.number());
            PlayReport report = seat.play(d -> {
                // A random legal action; d.observation() would fetch the whole view when wanted.
                List<Action> legal = d.legalActions();
                return legal.get(random.nextInt(legal.size()));
            });
            MatchResult r = report.ended().getResult();
            boolean won = r.getWinnersList().contains(seat.number());
            System.out.printf("%s after %d hands: winners %s, totals %s; %s (%d decisions, %d faults, %d reconnects)%n",
                    report.ended().getReason(), r.getHands(), r.getWinnersList(), r.getSignedTotalsList(),
                    r.getDraw() ? "a draw" : won ? "won" : "lost",
                    report.decisions(), report.faults(), report.reconnects());
        } catch (CalabresellaException e) {
            System.err.println("example: " + e.getMessage());
            System.exit(1);
        } catch (IllegalArgumentException e) {
            // A wrong game, option or seat kind, refused before any call.
            System.err.println("example: " + e.getMessage());
            System.exit(2);
        }
    }
}
