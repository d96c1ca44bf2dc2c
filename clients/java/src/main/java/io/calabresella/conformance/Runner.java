package io.calabresella.conformance;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.calabresella.client.CalabresellaClient;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The Java client's conformance runner. Arguments: {@code --scenarios PATH},
 * {@code --server HOST:PORT} (or {@code https://HOST:PORT} for TLS), {@code --ca-cert PATH}
 * (the CA of the server's certificate; default: the JDK's trusted roots), {@code --bench},
 * {@code --only NAME} (repeatable). Prints one {@code PASS}/{@code FAIL} (or {@code BENCH})
 * line per scenario and {@code java: N passed, M failed}; exits 0 when every scenario passed.
 */
public final class Runner {
    private static final long SCENARIO_SECONDS = 120;

    private Runner() {}

    /**
     * Runs the scenarios.
     *
     * @param args the runner contract's arguments
     * @throws IOException when the scenarios file cannot be read
     */
    public static void main(String[] args) throws IOException {
        String scenarios = null;
        String server = null;
        Path caCert = null;
        boolean bench = false;
        List<String> only = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--scenarios" -> scenarios = value(args, ++i);
                case "--server" -> server = value(args, ++i);
                case "--ca-cert" -> caCert = Path.of(value(args, ++i));
                case "--bench" -> bench = true;
                case "--only" -> only.add(value(args, ++i));
                default -> usage("unknown argument " + args[i]);
            }
        }
        if (scenarios == null || server == null) {
            usage("--scenarios and --server are required");
        }
        CalabresellaClient.Builder clients = CalabresellaClient.builder(server);
        if (caCert != null) {
            clients.caCert(caCert);
        }
        // A bad address or CA file is the caller's mistake: say so once, not in every scenario.
        try {
            clients.connect().close();
        } catch (RuntimeException e) {
            usage(e.getMessage());
        }
        JsonObject file = JsonParser.parseString(Files.readString(Path.of(scenarios), StandardCharsets.UTF_8))
                .getAsJsonObject();
        int passed = 0;
        int failed = 0;
        ExecutorService pool = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "scenario");
            t.setDaemon(true);
            return t;
        });
        for (JsonElement e : file.getAsJsonArray("scenarios")) {
            JsonObject s = e.getAsJsonObject();
            String name = s.get("name").getAsString();
            boolean isBench = "bench".equals(s.get("kind").getAsString());
            if ((!only.isEmpty() && !only.contains(name)) || isBench != bench) {
                continue;
            }
            String why = runOne(pool, clients, s);
            if (why == null) {
                if (!isBench) {
                    System.out.println("PASS " + name);
                }
                passed++;
            } else {
                System.out.println("FAIL " + name + ": " + why.replace('\n', ' '));
                failed++;
            }
            System.out.flush();
        }
        System.out.println("java: " + passed + " passed, " + failed + " failed");
        System.out.flush();
        pool.shutdownNow();
        System.exit(failed == 0 ? 0 : 1);
    }

    /** Runs one scenario on a client of its own, within the time limit; null when it passed. */
    private static String runOne(ExecutorService pool, CalabresellaClient.Builder clients, JsonObject s) {
        CalabresellaClient client = clients.connect();
        try {
            Future<?> f = pool.submit(() -> new Kinds(client, s).run());
            try {
                f.get(SCENARIO_SECONDS, TimeUnit.SECONDS);
                return null;
            } catch (TimeoutException t) {
                f.cancel(true);
                return "took longer than " + SCENARIO_SECONDS + " s";
            } catch (ExecutionException x) {
                Throwable c = x.getCause();
                return c instanceof Failed ? c.getMessage() : c.getClass().getSimpleName() + ": " + c.getMessage();
            } catch (InterruptedException i) {
                Thread.currentThread().interrupt();
                return "interrupted";
            }
        } finally {
            // Also ends whatever a timed-out scenario still waits on.
            client.close();
        }
    }

    private static String value(String[] args, int i) {
        if (i >= args.length) {
            usage(args[i - 1] + " needs a value");
        }
        return args[i];
    }

    private static void usage(String why) {
        System.err.println("conformance runner: " + why
                + "\nusage: --scenarios PATH --server HOST:PORT|https://HOST:PORT [--ca-cert PATH] [--bench] [--only NAME]...");
        System.exit(2);
    }
}
