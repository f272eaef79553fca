package io.tell.bench.compare;

import io.tell.bench.process.CommitManagerProcess;
import io.tell.bench.process.ExitGuard;
import io.tell.bench.process.PostgresServer;
import io.tell.bench.tpcc.JdbcTarget;
import io.tell.store.mem.MemStoreProvider;
import io.tell.store.redis.process.RedisBinaries;
import io.tell.store.redis.process.RedisProcess;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.UUID;

/**
 * One database of the comparison: {@code key} names its output directory and the {@code --only}
 * choice, {@code name} its row in the table; {@link #open} starts what it needs (servers on
 * loopback) and returns where to connect.
 */
public record ComparedDatabase(String key, String name, Opener opener) {

    /** Sets the database up in {@code dir}. */
    @FunctionalInterface
    public interface Opener {
        Setup open(Path dir) throws Unavailable, IOException, InterruptedException;
    }

    /** A database ready for its run: where to connect, how it was set up (for the report), and what to stop after. */
    public record Setup(JdbcTarget target, String description, AutoCloseable teardown) implements AutoCloseable {
        @Override
        public void close() throws Exception {
            if (teardown != null) {
                teardown.close();
            }
        }
    }

    /** The database cannot be had on this machine: its run is skipped with this message, not failed. */
    public static final class Unavailable extends Exception {
        private static final long serialVersionUID = 1L;

        public Unavailable(String message) {
            super(message);
        }
    }

    public Setup open(Path dir) throws Unavailable, IOException, InterruptedException {
        return opener.open(dir);
    }

    /**
     * Tell embedded in this JVM: a named in-memory database of its own, dropped after its run
     * (as H2 drops its in-memory database when the last connection closes), so the databases
     * after it do not run beside its data.
     */
    public static ComparedDatabase tellEmbedded() {
        String name = "compare-" + UUID.randomUUID().toString().substring(0, 8);
        return new ComparedDatabase("tell-embedded", "Tell embedded", dir -> new Setup(JdbcTarget.of("jdbc:tell:mem:" + name),
                "in this JVM (in-memory store, commit manager in-process)", () -> MemStoreProvider.drop(name)));
    }

    /** H2 in memory in this JVM, waiting up to 10 s for a row lock (its default, 1 s, would turn waits into errors). */
    public static ComparedDatabase h2() {
        return new ComparedDatabase("h2", "H2 in-memory", dir -> new Setup(JdbcTarget.of("jdbc:h2:mem:compare-"
                + UUID.randomUUID().toString().substring(0, 8) + ";LOCK_TIMEOUT=10000"), "in this JVM", null));
    }

    /**
     * Tell over Redis: a redis-server and a commit-manager process of its own on loopback; this
     * JVM is the processing node.
     */
    public static ComparedDatabase tellOverRedis() {
        return new ComparedDatabase("tell-redis", "Tell on Redis", dir -> {
            RedisProcess redis;
            try {
                // In memory only (--save "" --appendonly no); dir/redis keeps its redis.log.
                redis = RedisProcess.builder().dir(dir.resolve("redis")).start();
            } catch (IllegalStateException | UncheckedIOException e) {
                throw new Unavailable(e.getMessage());
            }
            ExitGuard guard = new ExitGuard("redis-server", redis::kill);
            try {
                CommitManagerProcess cm = CommitManagerProcess.start(redis.url(), dir.resolve("commit-manager.log"));
                String description = RedisBinaries.version() + " on " + redis.url().substring("redis://".length())
                        + " (--save \"\" --appendonly no: memory only), one commit-manager process on " + cm.address()
                        + "; this JVM is the processing node";
                return new Setup(JdbcTarget.of("jdbc:tell:" + redis.url() + "?cm=" + cm.address()), description, () -> {
                    cm.close();
                    guard.release();
                    redis.close();
                });
            } catch (IOException | RuntimeException e) {
                guard.release();
                redis.close();
                throw e;
            }
        });
    }

    /** PostgreSQL on loopback (see {@link PostgresServer}); a throw-away cluster when asked for. */
    public static ComparedDatabase postgres(boolean throwAway) {
        return new ComparedDatabase("postgres", "PostgreSQL", dir -> {
            try {
                PostgresServer pg = PostgresServer.open(throwAway);
                return new Setup(new JdbcTarget(pg.url(), pg.user(), pg.password()), pg.description(), pg);
            } catch (PostgresServer.Unavailable e) {
                throw new Unavailable(e.getMessage());
            }
        });
    }
}
