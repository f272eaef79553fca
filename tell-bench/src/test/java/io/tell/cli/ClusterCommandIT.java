package io.tell.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tell.bench.cluster.ClusterState;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code tell cluster up}, then the pools at work: write through the OLTP pool's URL, read the
 * same live data through the OLAP pool's, a PN server killed with SIGKILL going stale and out of
 * its pool's URL, and {@code tell cluster down} leaving no process behind.
 */
class ClusterCommandIT {
    /** Runs {@code tell args…} in this JVM; its exit code and what it printed on stdout and stderr. */
    private record Run(int code, String out) {
    }

    private static Run tell(String... args) throws Exception {
        PrintStream stdout = System.out;
        PrintStream stderr = System.err;
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream capture = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        System.setOut(capture);
        System.setErr(capture);
        int code;
        try {
            code = Tell.run(args);
        } finally {
            System.setOut(stdout);
            System.setErr(stderr);
        }
        String out = bytes.toString(StandardCharsets.UTF_8);
        stdout.println("$ tell " + String.join(" ", args) + "  -> exit " + code + "\n" + out);
        return new Run(code, out);
    }

    @Test
    void aFailedUpStopsWhatItStarted(@TempDir Path dir) throws Exception {
        System.setProperty("tell.cluster.startTimeoutSeconds", "2"); // too short for the whole cluster
        Run up;
        try {
            up = tell("cluster", "up", "--dir", dir.toString());
        } finally {
            System.clearProperty("tell.cluster.startTimeoutSeconds");
        }
        assertEquals(1, up.code(), up.out());
        assertTrue(up.out().contains("gave up after 2 s"), up.out());
        java.util.regex.Matcher stopped = java.util.regex.Pattern.compile("stopping \\S+ \\(pid (\\d+)\\)").matcher(up.out());
        int count = 0;
        while (stopped.find()) {
            count++;
            Optional<ProcessHandle> h = ProcessHandle.of(Long.parseLong(stopped.group(1)));
            assertFalse(h.isPresent() && h.get().isAlive(), "pid " + stopped.group(1) + " still runs after a failed up");
        }
        assertTrue(count >= 6, "stopped " + count + " processes:\n" + up.out());
        assertFalse(Files.exists(dir.resolve("cluster.properties")));
    }

    @Test
    void upWriteOnOltpReadOnOlapKillOneDown(@TempDir Path dir) throws Exception {
        String d = dir.toString();
        List<Long> pids = List.of();
        try {
            Run up = tell("cluster", "up", "--dir", d);
            assertEquals(0, up.code(), up.out());
            ClusterState state = ClusterState.load(dir).orElseThrow();
            pids = state.processes().stream().map(ClusterState.Started::pid).toList();
            assertEquals(6 + 2 + 3, pids.size());
            assertTrue(up.out().contains("tell cluster down --dir " + d), up.out());
            Run again = tell("cluster", "up", "--dir", d);
            assertEquals(1, again.code(), again.out());
            assertTrue(again.out().contains("still runs"), again.out());
            assertEquals(pids, ClusterState.load(dir).orElseThrow().processes().stream().map(ClusterState.Started::pid).toList());
            String oltp = state.get("url.oltp");
            String olap = state.get("url.olap");
            assertTrue(oltp.matches("jdbc:postgresql://127\\.0\\.0\\.1:\\d+,127\\.0\\.0\\.1:\\d+/tell\\?loadBalanceHosts=true"
                    + "&targetServerType=any"), oltp);
            assertTrue(olap.matches("jdbc:postgresql://127\\.0\\.0\\.1:\\d+/tell\\?loadBalanceHosts=true&targetServerType=any"), olap);

            try (Connection c = DriverManager.getConnection(oltp, "app", "");
                 Statement s = c.createStatement()) {
                s.execute("CREATE TABLE kv (k INT PRIMARY KEY, v VARCHAR(20))");
                s.execute("INSERT INTO kv VALUES (1, 'one'), (2, 'two'), (3, 'three')");
            }
            try (Connection c = DriverManager.getConnection(olap, "analyst", "");
                 Statement s = c.createStatement();
                 ResultSet r = s.executeQuery("SELECT COUNT(*), SUM(k) FROM kv")) {
                assertTrue(r.next());
                assertEquals(3, r.getLong(1));
                assertEquals(6, r.getLong(2));
            }
            try (Connection c = DriverManager.getConnection(olap, "analyst", ""); Statement s = c.createStatement()) {
                java.sql.SQLException refused = org.junit.jupiter.api.Assertions.assertThrows(java.sql.SQLException.class,
                        () -> s.execute("INSERT INTO kv VALUES (4, 'four')"));
                assertEquals("25006", refused.getSQLState(), "the OLAP pool is read-only: " + refused);
                refused = org.junit.jupiter.api.Assertions.assertThrows(java.sql.SQLException.class,
                        () -> s.execute("BEGIN READ WRITE"));
                assertEquals("25006", refused.getSQLState(), refused.toString());
            }

            String store = state.get("store");
            Run status = tell("cluster", "status", "--store", store);
            assertEquals(0, status.code(), status.out());
            assertTrue(status.out().contains("pool oltp") && status.out().contains("pool olap"), status.out());
            assertEquals(3, status.out().lines().filter(l -> l.startsWith("    127.0.0.1:") && l.contains(" live ")).count(), status.out());

            // kill -9 one OLTP server: it goes stale and out of the pool's URL; the other still serves.
            ClusterState.Started victim = state.processes().stream().filter(p -> p.name().equals("pn-oltp-1")).findFirst().orElseThrow();
            ProcessHandle.of(victim.pid()).orElseThrow().destroyForcibly();
            Run url = tell("cluster", "url", "--store", store, "--pool", "oltp");
            assertEquals(0, url.code(), url.out());
            assertFalse(url.out().contains(":" + victim.port() + ","), url.out());
            assertFalse(url.out().contains(":" + victim.port() + "/"), url.out());
            try (Connection c = DriverManager.getConnection(url.out().trim(), "app", "");
                 Statement s = c.createStatement();
                 ResultSet r = s.executeQuery("SELECT v FROM kv WHERE k = 2")) {
                assertTrue(r.next());
                assertEquals("two", r.getString(1));
            }
            status = tell("cluster", "status", "--store", store);
            assertTrue(status.out().contains("127.0.0.1:" + victim.port()) && status.out().contains("stale"), status.out());
            assertEquals(1, tell("cluster", "url", "--store", store, "--pool", "nosuchpool").code());

            // SIGTERM the OLAP server: it leaves its pool, which then has no live server.
            ClusterState.Started olapServer = state.processes().stream().filter(p -> p.name().equals("pn-olap-1")).findFirst()
                    .orElseThrow();
            ProcessHandle olapHandle = ProcessHandle.of(olapServer.pid()).orElseThrow();
            olapHandle.destroy();
            olapHandle.onExit().get(20, java.util.concurrent.TimeUnit.SECONDS);
            Run noOlap = tell("cluster", "url", "--store", store, "--pool", "olap");
            assertEquals(1, noOlap.code(), noOlap.out());
            assertTrue(noOlap.out().contains("pool olap has no live server"), noOlap.out());
            status = tell("cluster", "status", "--store", store);
            assertFalse(status.out().contains("127.0.0.1:" + olapServer.port()), status.out());

            Run down = tell("cluster", "down", "--dir", d);
            assertEquals(0, down.code(), down.out());
            for (long pid : pids) {
                Optional<ProcessHandle> h = ProcessHandle.of(pid);
                assertFalse(h.isPresent() && h.get().isAlive(), "pid " + pid + " still runs after down");
            }
            assertFalse(Files.exists(dir.resolve("cluster.properties")));
            assertEquals(1, tell("cluster", "down", "--dir", d).code());
        } finally {
            Optional<ClusterState> left = ClusterState.load(dir);
            if (left.isPresent()) {
                left.get().stop(System.out);
            }
        }
    }
}
