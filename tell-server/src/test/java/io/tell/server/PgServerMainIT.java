package io.tell.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code tell pn} as a real process: it prints where it listens, serves SCRAM users, and stops on SIGTERM. */
class PgServerMainIT {
    private static final Pattern LISTENING = Pattern.compile("processing node listening on 127\\.0\\.0\\.1:(\\d+) .*scram.*pool oltp.*");

    private static ProcessBuilder pn(String... args) {
        List<String> command = new ArrayList<>(List.of(
                System.getProperty("java.home") + File.separator + "bin" + File.separator + "java",
                "-cp", System.getProperty("java.class.path"), PgServerMain.class.getName()));
        command.addAll(List.of(args));
        return new ProcessBuilder(command).redirectErrorStream(true);
    }

    @Test
    void servesUntilKilled(@TempDir Path dir) throws Exception {
        Path users = dir.resolve("users");
        Files.writeString(users, "app:app-pw\n");
        Process p = pn("--port", "0", "--users-file", users.toString(), "--pool", "oltp", "--metrics-port", "0").start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
            Matcher m = null;
            Matcher metrics = null;
            Pattern metricsLine = Pattern.compile("metrics on http://127\\.0\\.0\\.1:(\\d+)/metrics");
            List<String> seen = new ArrayList<>();
            for (String line; metrics == null && (line = out.readLine()) != null; ) {
                seen.add(line);
                Matcher candidate = LISTENING.matcher(line);
                if (candidate.matches()) {
                    m = candidate;
                }
                Matcher mm = metricsLine.matcher(line);
                if (mm.matches()) {
                    metrics = mm;
                }
            }
            assertNotNull(m, "no listening line in " + seen);
            assertNotNull(metrics, "no metrics line in " + seen);
            String url = "jdbc:postgresql://127.0.0.1:" + m.group(1) + "/tell";
            try (Connection c = DriverManager.getConnection(url, "app", "app-pw"); Statement s = c.createStatement()) {
                s.execute("CREATE TABLE t (id INTEGER PRIMARY KEY)");
                assertEquals(1, s.executeUpdate("INSERT INTO t VALUES (1)"));
                assertEquals(1, PgJdbcIT.count(s, "SELECT count(*) FROM t"));
                // The node's meters, while the session is open.
                java.net.http.HttpResponse<String> scrape = java.net.http.HttpClient.newHttpClient().send(
                        java.net.http.HttpRequest.newBuilder(java.net.URI.create("http://127.0.0.1:" + metrics.group(1) + "/metrics")).build(),
                        java.net.http.HttpResponse.BodyHandlers.ofString());
                assertEquals(200, scrape.statusCode());
                String body = scrape.body();
                assertTrue(body.matches("(?s).*tell_sessions\\{node=\"pn-[^\"]+\"} 1\\.0.*"), body);
                assertTrue(body.matches("(?s).*tell_statements_seconds_count\\{kind=\"dml\",node=\"pn-[^\"]+\"} [1-9].*"), body);
                assertTrue(body.contains("tell_store_calls_total{"), body);
            }
            p.destroy(); // SIGTERM: the shutdown hook closes server and node
            assertTrue(p.waitFor(20, TimeUnit.SECONDS), "did not stop on SIGTERM");
        } finally {
            p.destroyForcibly();
        }
    }

    @Test
    void waitsForAStoreThatIsNotUpYet() throws Exception {
        try (io.tell.store.redis.process.RedisProcess redis = io.tell.store.redis.process.RedisProcess.start()) {
            redis.kill(); // down when the server starts; back on the same port below
            int cmPort = io.tell.store.redis.process.RedisProcess.freePortPair();
            Process p = pn("--port", "0", "--store", redis.url(), "--cm", "127.0.0.1:" + cmPort).start();
            try {
                BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
                List<String> before = new ArrayList<>();
                for (String line; (line = out.readLine()) != null && !line.contains("waiting for the store and commit managers"); ) {
                    before.add(line); // JVM warnings
                    assertTrue(before.size() < 20 && !line.contains("listening"), "did not wait: " + before);
                }
                redis.restart();
                try (io.tell.store.RecordStore store = io.tell.store.RecordStores.open(redis.url());
                     io.tell.txn.CommitManager cm = io.tell.cm.LocalCommitManager.open(store,
                             io.tell.cm.LocalCommitManager.Options.embedded());
                     io.tell.cm.CommitManagerServer server = io.tell.cm.CommitManagerServer.start(cm, "127.0.0.1", cmPort)) {
                    Matcher m = null;
                    List<String> seen = new ArrayList<>();
                    for (String line; m == null && (line = out.readLine()) != null; ) {
                        seen.add(line);
                        Matcher candidate = Pattern.compile("processing node listening on 127\\.0\\.0\\.1:(\\d+) .*").matcher(line);
                        if (candidate.matches()) {
                            m = candidate;
                        }
                    }
                    assertNotNull(m, "never listened: " + seen);
                    try (Connection c = DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + m.group(1) + "/tell", "app", "");
                         Statement s = c.createStatement()) {
                        s.execute("CREATE TABLE t (id INTEGER PRIMARY KEY)");
                        assertEquals(1, s.executeUpdate("INSERT INTO t VALUES (1)"));
                    }
                    p.destroy();
                    assertTrue(p.waitFor(20, TimeUnit.SECONDS), "did not stop on SIGTERM");
                }
            } finally {
                p.destroyForcibly();
            }
        }
    }

    @Test
    void trustOffLoopbackExitsWith2() throws Exception {
        Process p = pn("--port", "0", "--host", "0.0.0.0").start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(20, TimeUnit.SECONDS));
        assertEquals(2, p.exitValue(), output);
        assertTrue(output.contains("trust authentication is refused on 0.0.0.0") && output.contains("usage: tell pn"), output);
    }
}
