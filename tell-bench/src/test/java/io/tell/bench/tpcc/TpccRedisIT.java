package io.tell.bench.tpcc;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tell.bench.process.CommitManagerProcess;
import io.tell.store.redis.process.RedisProcess;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A short TPC-C run on Tell over a real {@code redis-server} and a commit-manager process (this
 * JVM is the processing node): New-Orders commit, nothing fails but retried conflicts, the data
 * stays consistent, and the round trips are reported. Loading the full warehouse over Redis takes
 * minutes on a small machine, so this test loads the reduced scale of
 * {@link TpccScale#reducedBy} (10,000 items, 300 customers per district); all else is TPC-C.
 */
class TpccRedisIT {
    private static final int SCALE_DOWN = 10;

    @Test
    void shortRunOnTellOverRedis(@TempDir Path dir) throws Exception {
        long started = System.nanoTime();
        try (RedisProcess redis = RedisProcess.start();
             CommitManagerProcess cm = CommitManagerProcess.start(redis.url(), dir.resolve("cm.log"))) {
            JdbcTarget tell = JdbcTarget.of("jdbc:tell:" + redis.url() + "?cm=" + cm.address());
            TpccOptions options = TpccOptions.defaults(tell).withRun(4, 5, 1).withOut(dir)
                    .withScale(TpccScale.reducedBy(SCALE_DOWN));
            ByteArrayOutputStream table = new ByteArrayOutputStream();
            TpccResult r = new TpccBenchmark(options, new PrintStream(table, true, StandardCharsets.UTF_8), System.err).run();
            String printed = table.toString(StandardCharsets.UTF_8);
            System.out.print(printed);
            System.out.printf("TpccRedisIT: redis, commit manager, load, run, round trips and checks in %.1f s%n",
                    (System.nanoTime() - started) / 1e9);

            TpccRunAssertions.healthy(r);
            TpccRunAssertions.roundTripsCounted(r);
            assertTrue(printed.contains("REDUCED SCALE"), printed);
        }
    }
}
