package io.tell.bench.tpcc;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A short TPC-C run (1 warehouse at the specification's scale, 4 terminals, 5 s) on embedded
 * Tell: New-Orders commit, nothing fails but retried conflicts, the data stays consistent, and
 * the round trips are reported.
 */
class TpccTellTest {

    @Test
    void shortRunOnEmbeddedTell(@TempDir Path dir) throws Exception {
        JdbcTarget tell = JdbcTarget.of("jdbc:tell:mem:tpcc-test-" + UUID.randomUUID().toString().substring(0, 8));
        TpccOptions options = TpccOptions.defaults(tell).withRun(4, 5, 1).withOut(dir);
        ByteArrayOutputStream table = new ByteArrayOutputStream();
        long started = System.nanoTime();
        TpccResult r = new TpccBenchmark(options, new PrintStream(table, true, StandardCharsets.UTF_8), System.err).run();
        String printed = table.toString(StandardCharsets.UTF_8);
        System.out.print(printed);
        System.out.printf("TpccTellTest: load, run, round trips and checks in %.1f s%n", (System.nanoTime() - started) / 1e9);

        TpccRunAssertions.healthy(r);
        TpccRunAssertions.roundTripsCounted(r);
        assertTrue(printed.contains("Tell round trips per transaction") && printed.contains("New-Order alone"), printed);
        assertFalse(printed.contains("REDUCED SCALE"), printed);
        String json = Files.readString(dir.resolve("result.json"));
        assertTrue(json.contains("\"roundTrips\"") && json.contains("\"aloneByType\"") && json.contains("\"spec\": true"), json);
    }
}
