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
import java.util.concurrent.CancellationException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Connects, creates a table with one open seat and built-in bots, plays the open seat with a
 * random bot to the end of the match and prints the result.
 *
 * <pre>
 * java -cp 'target/classes:target/lib/*' io.calabresella.example.ExampleBot 127.0.0.1:50051 \
 *     [game] [seat kinds...]
 * </pre>
 * Defaults: {@code tressette-in-due open heuristic}. Ctrl-C closes the client: play stops with
 * a {@link java.util.concurrent.CancellationException} and the program says so and exits.
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
        // Ctrl-C: the JVM runs shutdown hooks and halts once they return, so the hook closes the
        // client (play then ends with a CancellationException) and waits for main to print why
        // it stopped. main never calls System.exit while stopping: that would wait for this hook.
        AtomicBoolean stopping = new AtomicBoolean();
        CountDownLatch finished = new CountDownLatch(1);
        // Closed in finally rather than by try-with-resources: the hook closes it too.
        CalabresellaClient client = CalabresellaClient.connect(args[0]);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            stopping.set(true);
            client.close();
            try {
                finished.await(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "example-stop"));
        int status = 0;
        try {
            status = play(client, game, seats, random);
        } catch (CancellationException e) {
            System.err.println("example: stopped" + (stopping.get() ? " (Ctrl-C)" : "") + ": " + e.getMessage());
        } finally {
            client.close();
            finished.countDown(); // Before System.exit, which runs the hook and waits for it.
        }
        if (status != 0 && !stopping.get()) {
            System.exit(status);
        }
    }

    /** Plays one match; the exit status (0, or 1 for a failure, 2 for a wrong argument). */
    private static int play(CalabresellaClient client, String game, List<String> seats, Random random) {
        try {
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
            return 0;
        } catch (CalabresellaException e) {
            System.err.println("example: " + e.getMessage());
            return 1;
        } catch (IllegalArgumentException e) {
            // A wrong game, option or seat kind, refused before any call.
            System.err.println("example: " + e.getMessage());
            return 2;
        }
    }
}
