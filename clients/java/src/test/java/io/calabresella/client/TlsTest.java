package io.calabresella.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.calabresella.v1.GetTableRequest;
import io.calabresella.v1.GetTableResponse;
import io.calabresella.v1.Table;
import io.calabresella.v1.TableServiceGrpc;
import io.grpc.Grpc;
import io.grpc.Server;
import io.grpc.ServerCredentials;
import io.grpc.Status;
import io.grpc.TlsServerCredentials;
import io.grpc.stub.StreamObserver;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * TLS against a local fake server over netty: the server's certificate is checked against the
 * CA given (and its name), a wrong CA fails like an unreachable server, and the CA option's
 * mistakes are caught when the client is made. The throwaway certificates are made with the
 * JDK's keytool.
 */
class TlsTest {
    private static final String PASSWORD = "changeit";

    @TempDir
    static Path dir;

    /** The CA that signed the server's certificates, and one that did not. */
    static Path ca;
    static Path otherCa;

    @BeforeAll
    static void certificates() throws Exception {
        for (String name : new String[] {"ca", "other-ca"}) {
            keytool("-genkeypair", "-alias", name, "-keyalg", "EC", "-groupname", "secp256r1",
                    "-dname", "CN=calabresella test " + name, "-ext", "bc:c", "-validity", "1",
                    "-keystore", name + ".p12");
            keytool("-exportcert", "-rfc", "-alias", name, "-keystore", name + ".p12", "-file", name + ".pem");
        }
        ca = dir.resolve("ca.pem");
        otherCa = dir.resolve("other-ca.pem");
        keytool("-importcert", "-noprompt", "-alias", "ca", "-file", "ca.pem", "-keystore", "server.p12");
        // "server": localhost and 127.0.0.1, as `calabresella dev-certs` makes it; "named": a
        // certificate for another host.
        issue("server", "san=dns:localhost,ip:127.0.0.1");
        issue("named", "san=dns:cards.example.org");
    }

    /** A key pair in server.p12 whose certificate the CA signs for these names. */
    private static void issue(String alias, String san) throws Exception {
        keytool("-genkeypair", "-alias", alias, "-keyalg", "EC", "-groupname", "secp256r1",
                "-dname", "CN=calabresella test server", "-validity", "1", "-keystore", "server.p12");
        keytool("-certreq", "-alias", alias, "-keystore", "server.p12", "-file", alias + ".csr");
        keytool("-gencert", "-rfc", "-alias", "ca", "-keystore", "ca.p12", "-infile", alias + ".csr",
                "-outfile", alias + ".pem", "-ext", san, "-ext", "eku=serverAuth", "-validity", "1");
        keytool("-importcert", "-noprompt", "-alias", alias, "-file", alias + ".pem", "-keystore", "server.p12");
    }

    /** Runs the JDK's keytool in the test's directory on PKCS12 stores. */
    private static void keytool(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-J-XX:TieredStopAtLevel=1", "-J-XX:+UseSerialGC"));
        command.addAll(List.of(args));
        command.addAll(List.of("-storetype", "PKCS12", "-storepass", PASSWORD));
        Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IllegalStateException("keytool " + String.join(" ", args) + ": " + out);
        }
    }

    /** Serves GetTable over TLS with the key and certificate chain of {@code alias}. */
    private static Server serve(String alias) throws Exception {
        char[] password = PASSWORD.toCharArray();
        KeyStore all = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(dir.resolve("server.p12"))) {
            all.load(in, password);
        }
        KeyStore one = KeyStore.getInstance("PKCS12");
        one.load(null, null);
        one.setKeyEntry(alias, all.getKey(alias, password), password, all.getCertificateChain(alias));
        KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        keys.init(one, password);
        ServerCredentials credentials = TlsServerCredentials.newBuilder().keyManager(keys.getKeyManagers()).build();
        return Grpc.newServerBuilderForPort(0, credentials).addService(new Tables()).build().start();
    }

    /** The fake: GetTable answers with the table asked for. */
    private static final class Tables extends TableServiceGrpc.TableServiceImplBase {
        @Override
        public void getTable(GetTableRequest request, StreamObserver<GetTableResponse> out) {
            out.onNext(GetTableResponse.newBuilder().setTable(Table.newBuilder().setTableId(request.getTableId())).build());
            out.onCompleted();
        }
    }

    /** A GetTable over a client of {@code address}, trusting {@code caCert} (null: the JDK's roots). */
    private static CalabresellaException refused(String address, Path caCert) {
        CalabresellaClient.Builder b = CalabresellaClient.builder(address).retryPolicy(RetryPolicy.DEFAULT);
        if (caCert != null) {
            b.caCert(caCert);
        }
        long started = System.nanoTime();
        try (CalabresellaClient client = b.connect()) {
            CalabresellaException e = assertThrows(CalabresellaException.class, () -> client.getTable("t1"));
            Duration took = Duration.ofNanos(System.nanoTime() - started);
            assertTrue(took.compareTo(Duration.ofSeconds(10)) < 0, "failed after " + took);
            return e;
        }
    }

    @Test
    void theRightCaReachesTheServerByIpAndByName() throws Exception {
        Server server = serve("server");
        try {
            for (String host : new String[] {"127.0.0.1", "localhost"}) {
                try (CalabresellaClient client = CalabresellaClient.builder("https://" + host + ":" + server.getPort())
                        .caCert(ca).connect()) {
                    assertEquals("t1", client.getTable("t1").getTableId(), host);
                }
            }
        } finally {
            server.shutdownNow();
        }
    }

    @Test
    void aWrongCaFailsUnavailableAtOnce() throws Exception {
        Server server = serve("server");
        try {
            String address = "https://127.0.0.1:" + server.getPort();
            CalabresellaException e = refused(address, otherCa);
            assertEquals(Status.Code.UNAVAILABLE, e.code(), e.getMessage());
            assertTrue(e.getMessage().contains("certification path"), "the message says why: " + e.getMessage());
            // Without a CA file: the JDK's trusted roots, which do not know the test CA.
            assertEquals(Status.Code.UNAVAILABLE, refused(address, null).code());
        } finally {
            server.shutdownNow();
        }
    }

    @Test
    void aCertificateForAnotherNameIsRefused() throws Exception {
        Server server = serve("named");
        try {
            CalabresellaException e = refused("https://127.0.0.1:" + server.getPort(), ca);
            assertEquals(Status.Code.UNAVAILABLE, e.code(), e.getMessage());
            assertTrue(e.getMessage().contains("127.0.0.1"), "the message says why: " + e.getMessage());
        } finally {
            server.shutdownNow();
        }
    }

    @Test
    void caCertMistakesAreCaughtWhenTheClientIsMade() throws Exception {
        for (String address : new String[] {"127.0.0.1:50051", "http://127.0.0.1:50051"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> CalabresellaClient.builder(address).caCert(ca).connect());
            assertTrue(e.getMessage().contains("ca cert given but the address is not https://"), e.getMessage());
        }
        Path missing = dir.resolve("nowhere").resolve("ca.pem");
        UncheckedIOException e = assertThrows(UncheckedIOException.class,
                () -> CalabresellaClient.builder("https://127.0.0.1:50051").caCert(missing).connect());
        assertTrue(e.getMessage().contains(missing.toString()), e.getMessage());
        Path notPem = Files.writeString(dir.resolve("not.pem"), "not a certificate\n");
        IllegalArgumentException bad = assertThrows(IllegalArgumentException.class,
                () -> CalabresellaClient.builder("https://127.0.0.1:50051").caCert(notPem).connect());
        assertTrue(bad.getMessage().contains(notPem.toString()), bad.getMessage());
        // TLS without a CA file, and plain text, are made as before.
        CalabresellaClient.connect("https://127.0.0.1:50051").close();
        CalabresellaClient.connect("http://127.0.0.1:50051/").close();
    }
}
