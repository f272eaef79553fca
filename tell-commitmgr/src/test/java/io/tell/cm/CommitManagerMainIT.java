package io.tell.cm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tell.txn.TxStart;
import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** {@code tell commitmgr} as a real process: it prints where it listens, serves, and stops on SIGTERM. */
class CommitManagerMainIT {
    private static final Pattern LISTENING = Pattern.compile("commit manager listening on 127\\.0\\.0\\.1:(\\d+) \\(mem:\\)");

    private static ProcessBuilder commitmgr(String... args) {
        List<String> command = new ArrayList<>(List.of(
                System.getProperty("java.home") + File.separator + "bin" + File.separator + "java",
                "-cp", System.getProperty("java.class.path"), CommitManagerMain.class.getName()));
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command);
        pb.environment().remove(ClusterSecret.ENV); // these runs serve clients without a secret
        return pb;
    }

    @Test
    void servesUntilKilled() throws Exception {
        Process p = commitmgr("--port", "0", "--store", "mem:", "--tid-range", "10").redirectErrorStream(true).start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
            Matcher m = null;
            List<String> seen = new ArrayList<>();
            for (String line; (line = out.readLine()) != null; ) {
                seen.add(line);
                Matcher candidate = LISTENING.matcher(line);
                if (candidate.matches()) {
                    m = candidate;
                    break;
                }
            }
            assertNotNull(m, "no listening line in " + seen);
            int port = Integer.parseInt(m.group(1));
            try (CommitManagerClient c = CommitManagerClient.connect("127.0.0.1:" + port,
                    CommitManagerClient.Options.defaults().withRequestTimeout(Duration.ofSeconds(10)))) {
                long last = 0;
                for (int i = 0; i < 30; i++) {
                    TxStart s = c.start(false);
                    assertTrue(s.tid() > last);
                    last = s.tid();
                    c.committed(s.tid());
                }
                assertTrue(c.start(true).snapshot().isVisible(last));
            }
            p.destroy(); // SIGTERM: the shutdown hook closes server, manager and store
            assertTrue(p.waitFor(20, TimeUnit.SECONDS), "did not stop on SIGTERM");
        } finally {
            p.destroyForcibly();
        }
    }

    @Test
    void servesItsMetricsToPrometheus() throws Exception {
        Process p = commitmgr("--port", "0", "--store", "mem:", "--metrics-port", "0").redirectErrorStream(true).start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
            Pattern metricsLine = Pattern.compile("metrics on http://127\\.0\\.0\\.1:(\\d+)/metrics");
            Integer port = null;
            Integer metricsPort = null;
            List<String> seen = new ArrayList<>();
            for (String line; metricsPort == null && (line = out.readLine()) != null; ) {
                seen.add(line);
                Matcher l = LISTENING.matcher(line);
                Matcher mm = metricsLine.matcher(line);
                if (l.matches()) {
                    port = Integer.parseInt(l.group(1));
                } else if (mm.matches()) {
                    metricsPort = Integer.parseInt(mm.group(1));
                }
            }
            assertNotNull(port, "no listening line in " + seen);
            assertNotNull(metricsPort, "no metrics line in " + seen);
            try (CommitManagerClient c = CommitManagerClient.connect("127.0.0.1:" + port,
                    CommitManagerClient.Options.defaults().withRequestTimeout(Duration.ofSeconds(10)))) {
                for (int i = 0; i < 7; i++) {
                    c.committed(c.start(false).tid());
                }
            }
            java.net.http.HttpResponse<String> scrape = java.net.http.HttpClient.newHttpClient().send(
                    java.net.http.HttpRequest.newBuilder(java.net.URI.create("http://127.0.0.1:" + metricsPort + "/metrics")).build(),
                    java.net.http.HttpResponse.BodyHandlers.ofString());
            assertEquals(200, scrape.statusCode());
            String body = scrape.body();
            String node = "node=\"commitmgr-127.0.0.1:" + port + "\"";
            assertTrue(body.contains("tell_cm_requests_total{" + node + ",op=\"start\"} 7.0"), body);
            assertTrue(body.contains("tell_cm_requests_total{" + node + ",op=\"committed\"} 7.0"), body);
            assertTrue(body.contains("tell_store_calls_total{" + node + ",op=\"increment\"}"), body);
            assertTrue(body.contains("jvm_memory_used_bytes"), body);
            p.destroy();
            assertTrue(p.waitFor(20, TimeUnit.SECONDS), "did not stop on SIGTERM");
        } finally {
            p.destroyForcibly();
        }
    }

    @Test
    void badArgumentsExitWith2() throws Exception {
        Process p = commitmgr("--port", "1").redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(20, TimeUnit.SECONDS));
        assertEquals(2, p.exitValue(), output);
        assertTrue(output.contains("--store is required") && output.contains("usage: tell commitmgr"), output);
    }
}
