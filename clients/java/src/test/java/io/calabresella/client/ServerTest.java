package io.calabresella.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.calabresella.v1.Game;
import io.calabresella.v1.GameDescription;
import io.calabresella.v1.OptionDescription;
import io.calabresella.v1.OptionKind;
import io.calabresella.v1.Table;
import io.calabresella.v1.TressetteOptions;
import io.grpc.Status;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The client against the real server ({@code $CALABRESELLA_BIN}, else the repository's
 * {@code target/debug/calabresella}, on a free port with a store in memory): the games it
 * describes, options sent as settings and echoed back as the typed rules, an option the game
 * does not have refused with the server's message. Without a binary the tests are skipped,
 * saying why (the test command builds it before it runs them: scripts/test.sh).
 */
class ServerTest {
    private static Process server;
    private static CalabresellaClient client;

    @BeforeAll
    static void start() throws IOException {
        String env = System.getenv("CALABRESELLA_BIN");
        // Maven runs the tests in clients/java, two below the repository's root.
        Path bin = env == null || env.isEmpty() ? Path.of("..", "..", "target", "debug", "calabresella") : Path.of(env);
        Assumptions.assumeTrue(Files.isExecutable(bin), "no server binary at " + bin + " (set CALABRESELLA_BIN)");
        server = new ProcessBuilder(bin.toString(), "serve", "--listen", "127.0.0.1:0", "--db", ":memory:",
                "--log", "error").redirectError(ProcessBuilder.Redirect.DISCARD).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8));
        String prefix = "calabresella: listening on ";
        String line;
        while ((line = out.readLine()) != null && !line.startsWith(prefix)) {
            // Lines before the address: none today, skipped if ever there are.
        }
        if (line == null) {
            throw new IllegalStateException("the server exited before listening");
        }
        // Read on, so that the server never blocks writing to a full pipe.
        Thread drain = new Thread(() -> out.lines().forEach(l -> { }), "server-stdout");
        drain.setDaemon(true);
        drain.start();
        client = CalabresellaClient.connect(line.substring(prefix.length()).strip());
    }

    @AfterAll
    static void stop() throws InterruptedException {
        if (client != null) {
            client.close();
        }
        if (server != null) {
            server.destroyForcibly().waitFor();
        }
    }

    @Test
    void listGamesDescribesEveryGameAndItsOptions() {
        List<GameDescription> games = client.listGames();
        assertEquals(Rules.GAMES, games.stream().map(GameDescription::getName).toList());
        for (GameDescription g : games) {
            assertEquals(Rules.game(g.getName()), g.getGame());
            assertFalse(g.getOptionsList().isEmpty(), g.getName());
            for (OptionDescription o : g.getOptionsList()) {
                assertNotEquals(OptionKind.OPTION_KIND_UNSPECIFIED, o.getKind(), g.getName() + " " + o.getKey());
                assertFalse(o.getDoc().isEmpty(), g.getName() + " " + o.getKey());
            }
        }
        OptionDescription target = games.get(Rules.GAMES.indexOf("tressette-in-due")).getOptionsList().stream()
                .filter(o -> o.getKey().equals("target")).findFirst().orElseThrow();
        assertEquals(OptionKind.OPTION_KIND_NUMBER, target.getKind());
        assertTrue(target.getMin() >= 1 && target.getMax() > target.getMin(), target.toString());
        assertEquals("21", target.getDefaultValue());
    }

    @Test
    void settingsComeBackAsTheTypedRules() {
        Table t = client.createTable(NewTable.of("tressette-in-due").seats("random", "random")
                .options(Map.of("target", "11", "accusi", "false", "follow_suit_always", "yes")));
        assertEquals(Game.GAME_TRESSETTE_IN_DUE, t.getOptions().getGame());
        TressetteOptions r = t.getOptions().getTressette();
        assertEquals(11, r.getTarget());
        assertTrue(r.hasAccusi() && !r.getAccusi());
        assertTrue(r.getFollowSuitAlways());
    }

    @Test
    void anOptionTheGameDoesNotHaveOrABadValueIsBadOptionsWithTheServersMessage() {
        assertRefused("colour", "red", "unknown option \"colour\"");
        assertRefused("target", "zero", "\"zero\"");
    }

    /** Creating a table with {@code key=value} fails with BAD_OPTIONS, its message saying {@code says}. */
    private static void assertRefused(String key, String value, String says) {
        CalabresellaException e = assertThrows(CalabresellaException.class,
                () -> client.createTable(NewTable.of("tressette-in-due").option(key, value)));
        assertEquals(Status.Code.INVALID_ARGUMENT, e.code());
        assertEquals("BAD_OPTIONS", e.reason());
        assertTrue(e.getMessage().contains(says), e.getMessage());
    }
}
