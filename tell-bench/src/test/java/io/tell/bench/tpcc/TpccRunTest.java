package io.tell.bench.tpcc;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A short TPC-C run on H2 in memory: New-Orders commit, nothing fails but retried conflicts, the data stays consistent. */
class TpccRunTest {

    @Test
    void shortRunOnH2(@TempDir Path dir) throws Exception {
        JdbcTarget h2 = JdbcTarget.of("jdbc:h2:mem:tpcc-run-test;LOCK_TIMEOUT=10000");
        TpccOptions options = TpccOptions.defaults(h2).withRun(4, 5, 1).withOut(dir);
        ByteArrayOutputStream table = new ByteArrayOutputStream();
        TpccResult r = new TpccBenchmark(options, new PrintStream(table, true, StandardCharsets.UTF_8), System.err).run();
        System.out.print(table.toString(StandardCharsets.UTF_8));

        TpccRunAssertions.healthy(r);
        assertNull(r.roundTrips(), "round trips are Tell's");
        assertTrue(r.roundTripsAlone().isEmpty());

        String json = Files.readString(dir.resolve("result.json"));
        assertTrue(json.contains("\"tpmC\"") && json.contains("\"New-Order\"") && json.contains("\"passed\": true"), json);
        assertFalse(json.contains("roundTrips"), json);
        for (String png : new String[] {"throughput.png", "latency.png"}) {
            byte[] bytes = Files.readAllBytes(dir.resolve(png));
            assertTrue(bytes.length > 1_000 && bytes[1] == 'P' && bytes[2] == 'N' && bytes[3] == 'G', png);
        }
        assertTrue(table.toString(StandardCharsets.UTF_8).contains("tpmC"));
    }
}
