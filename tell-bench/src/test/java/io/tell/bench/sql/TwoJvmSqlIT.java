package io.tell.bench.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tell.bench.process.CommitManagerProcess;
import io.tell.bench.process.JavaProcess;
import io.tell.store.redis.process.RedisProcess;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Two processing nodes in two JVMs (this one and a child process) over one real
 * {@code redis-server} and one commit-manager process: DDL and data of one are seen by the
 * other, and concurrent transfers from both keep the total (snapshot isolation, first
 * committer wins across nodes).
 */
class TwoJvmSqlIT {
    private static final int ACCOUNTS = 5;
    private static final int TRANSFERS = 200;

    @Test
    void ddlDataAndSnapshotIsolationAcrossJvms() throws Exception {
        long seed = Long.getLong("tell.seed", System.nanoTime());
        System.out.println("TwoJvmSqlIT seed " + seed + " (rerun with -Dtell.seed=" + seed + ")");
        try (RedisProcess redis = RedisProcess.start();
             CommitManagerProcess cm = CommitManagerProcess.start(redis.url(), redis.dir().resolve("cm.log"))) {
            String url = "jdbc:" + "tell:" + redis.url() + "?cm=" + cm.address();
            try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
                s.executeUpdate("CREATE TABLE account (id INTEGER PRIMARY KEY, balance BIGINT NOT NULL)");
                s.executeUpdate("CREATE TABLE node_log (id BIGINT PRIMARY KEY, note VARCHAR(40))");
                StringBuilder insert = new StringBuilder("INSERT INTO account VALUES ");
                for (int i = 0; i < ACCOUNTS; i++) {
                    insert.append(i == 0 ? "" : ", ").append('(').append(i).append(", 1000)");
                }
                s.executeUpdate(insert.toString());

                Process child = java(TransferNode.class.getName(), url, String.valueOf(ACCOUNTS),
                        String.valueOf(TRANSFERS), String.valueOf(seed));
                CompletableFuture<String> childOut = CompletableFuture.supplyAsync(() -> output(child));
                awaitChildStarted(s, seed, child);
                int[] mine;
                try (Connection c2 = DriverManager.getConnection(url)) {
                    mine = TransferNode.transfers(c2, ACCOUNTS, TRANSFERS, new Random(seed + 1));
                }
                assertTrue(child.waitFor(120, TimeUnit.SECONDS), "child node did not finish");
                String out = childOut.get();
                assertEquals(0, child.exitValue(), "child node failed:\n" + out);
                assertTrue(out.contains("done " + TRANSFERS), out);
                String childDone = out.lines().filter(l -> l.startsWith("done")).findFirst().orElse("done 0 0");
                int childConflicts = Integer.parseInt(childDone.split(" ")[2]);
                System.out.println("this JVM: " + mine[0] + " committed, " + mine[1] + " conflicts retried; child: "
                        + childDone);
                assertTrue(mine[1] + childConflicts > 0,
                        "two nodes transferring between " + ACCOUNTS + " accounts at once never conflicted");

                try (ResultSet rs = s.executeQuery("SELECT note FROM node_log WHERE id = " + seed)) {
                    assertTrue(rs.next(), "the child's committed row is visible here");
                    assertEquals("child started", rs.getString(1));
                }
                try (ResultSet rs = s.executeQuery("SELECT SUM(balance), COUNT(*) FROM account")) {
                    assertTrue(rs.next());
                    assertEquals(ACCOUNTS * 1000L, rs.getLong(1), "money was created or lost");
                    assertEquals(ACCOUNTS, rs.getInt(2));
                }
            }
        }
    }

    /** Waits until the child's marker row is visible here: its DDL view and its commits reach this node. */
    private static void awaitChildStarted(Statement s, long seed, Process child) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM node_log WHERE id = " + seed)) {
                rs.next();
                if (rs.getInt(1) == 1) {
                    return;
                }
            }
            if (!child.isAlive()) {
                throw new IllegalStateException("child node exited early");
            }
            Thread.sleep(20);
        }
        throw new IllegalStateException("the child's marker row never became visible");
    }

    private static Process java(String main, String... args) throws IOException {
        return JavaProcess.builder(main, List.of(args)).redirectErrorStream(true).start();
    }

    private static String output(Process p) {
        StringBuilder sb = new StringBuilder();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                sb.append(line).append('\n');
            }
        } catch (IOException e) {
            sb.append(e);
        }
        return sb.toString();
    }
}
