package io.tell.bench.ch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tell.bench.tpcc.JdbcTarget;
import io.tell.bench.tpcc.TpccScale;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** {@code tell bench ch}: every chosen query runs as often as asked, timed, at a reduced scale here; with its plan if asked. */
class ChTimingsTest {
    @Test
    void timesEachQueryAsOftenAsAsked() throws Exception {
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        List<ChTimings.Timing> timings = ChTimings.run(new ChTimings.Options(
                JdbcTarget.of("jdbc:tell:mem:chtimings-" + UUID.randomUUID() + "?parallelism=2"), List.of(1, 6, 19), 3, 30, 42,
                TpccScale.reducedBy(100), true), new PrintStream(printed, true, StandardCharsets.UTF_8));
        assertEquals(List.of(1, 6, 19), timings.stream().map(t -> t.query().number()).toList());
        for (ChTimings.Timing t : timings) {
            assertEquals(3, t.millis().size(), t.query().label());
            assertEquals(0, t.timeouts());
            assertTrue(t.fastest() <= t.median(), t.query().label());
        }
        assertEquals(15, timings.get(0).rows(), "Q1: one row per order-line number");
        String out = printed.toString(StandardCharsets.UTF_8);
        assertTrue(out.contains("sum of medians"), out);
        assertTrue(out.contains("Q19 plan:") && out.contains("TellTableScan(table=[[PUBLIC, ORDER_LINE]]"), out);
    }
}
