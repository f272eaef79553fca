package io.tell.bench.htap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tell.bench.tpcc.JdbcTarget;
import io.tell.bench.tpcc.TpccOptions;
import io.tell.bench.tpcc.TpccScale;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The HTAP run end to end on embedded Tell at a reduced scale: TPC-C alone, then beside an
 * analytical stream on the same node, the CH-benCHmark queries run without an error (one that
 * runs out of time counted as such), both TPC-C runs consistent, and the report written.
 */
class HtapRunTest {
    @Test
    void tpccRunsAloneThenBesideTheAnalyticalQueries(@TempDir Path dir) throws Exception {
        JdbcTarget tell = JdbcTarget.of("jdbc:tell:mem:htap-test");
        TpccOptions tpcc = new TpccOptions(tell, 1, 2, 3, 0.5, 2, true, false, false, dir, 7, 1_000,
                Connection.TRANSACTION_REPEATABLE_READ, TpccScale.reducedBy(100));
        List<Integer> queries = java.util.stream.IntStream.rangeClosed(1, 22).boxed().toList();
        HtapResult r = new HtapRun(new HtapRun.Options(tpcc, tell, 1, queries, 10), System.out, System.out).run();
        HtapReport.print(r, System.out);

        assertTrue(r.alone().tpmC() > 0 && r.mixed().tpmC() > 0, "tpmC " + r.alone().tpmC() + ", " + r.mixed().tpmC());
        assertTrue(r.consistent(), "TPC-C consistency");
        assertEquals(queries, r.queries().stream().map(HtapResult.Query::number).toList());
        for (HtapResult.Query q : r.queries()) {
            assertEquals(0, q.errors(), "Q" + q.number() + ": " + q.firstError());
            assertTrue(q.runs() + q.timeouts() >= 1, "Q" + q.number() + " was never tried: " + q);
        }
        // TPC-C's inserts make ORDER_LINE many times its initial size while the queries run, so
        // the slowest (Q19's join under an OR) may run out of time on a busy machine.
        assertTrue(r.queries().stream().filter(q -> q.runs() > 0).count() >= 20, "queries completed: " + r.queries());
        assertTrue(r.queriesPerHour() > 0);
        assertTrue(r.queries().get(3).rows() > 0, "Q4's date window (2007-2012) finds the population: " + r.queries().get(3));

        HtapReport.write(r, dir);
        String json = Files.readString(dir.resolve("htap.json"));
        assertEquals(queries.size(), json.split("\"query\":", -1).length - 1, json);
        assertTrue(Files.size(dir.resolve("queries.png")) > 0);
        assertTrue(Files.exists(dir.resolve("alone/result.json")) && Files.exists(dir.resolve("mixed/result.json")));
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        HtapReport.print(r, new PrintStream(printed, true, StandardCharsets.UTF_8));
        assertTrue(printed.toString(StandardCharsets.UTF_8).contains("tpmC alone"), printed::toString);
    }
}
