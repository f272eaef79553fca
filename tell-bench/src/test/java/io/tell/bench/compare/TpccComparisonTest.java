package io.tell.bench.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tell.bench.tpcc.JdbcTarget;
import io.tell.bench.tpcc.TpccOptions;
import io.tell.bench.tpcc.TpccScale;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The comparison without servers: Tell embedded and H2 run (on the reduced scale, for speed), a
 * database that is not available is skipped, one that cannot be set up fails, and the table,
 * Markdown and JSON show all four with the Tell embedded / H2 ratio.
 */
class TpccComparisonTest {

    @Test
    void comparesRunsSkipsAndFailures(@TempDir Path dir) throws Exception {
        TpccOptions settings = TpccOptions.defaults(JdbcTarget.of("jdbc:tell:mem:")).withRun(2, 2, 0.5)
                .withScale(TpccScale.reducedBy(10));
        ComparedDatabase missing = new ComparedDatabase("postgres", "PostgreSQL", d -> {
            throw new ComparedDatabase.Unavailable("no server here");
        });
        ComparedDatabase broken = new ComparedDatabase("tell-redis", "Tell on Redis", d -> {
            throw new java.io.IOException("redis-server crashed");
        });
        ByteArrayOutputStream tables = new ByteArrayOutputStream();
        List<ComparedRun> runs = new Comparison(settings, List.of(ComparedDatabase.tellEmbedded(), ComparedDatabase.h2(),
                broken, missing), dir, new PrintStream(tables, true, StandardCharsets.UTF_8), System.err).run();

        assertEquals(List.of("ran", "ran", "failed", "skipped"), runs.stream().map(ComparedRun::status).toList());
        assertNotNull(runs.get(0).result().roundTrips(), "Tell embedded counts round trips");
        assertNull(runs.get(1).result().roundTrips());
        assertTrue(runs.get(0).result().consistent() && runs.get(1).result().consistent());

        ComparisonReport report = new ComparisonReport(settings, runs);
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        report.print(new PrintStream(printed, true, StandardCharsets.UTF_8));
        String text = printed.toString(StandardCharsets.UTF_8);
        System.out.print(text);
        assertTrue(text.contains("× H2 in-memory") && text.contains("Tell embedded / H2 in-memory: tpmC"), text);
        assertTrue(text.contains("skipped: no server here") && text.contains("FAILED: set-up failed"), text);
        assertTrue(text.contains("New-Order alone") && text.contains("NO p99 ms") && text.contains("REDUCED SCALE"), text);

        report.write(dir);
        String markdown = Files.readString(dir.resolve("compare.md"));
        assertTrue(markdown.contains("| database | tpmC |") && markdown.contains("| --- |"), markdown);
        String json = Files.readString(dir.resolve("compare.json"));
        assertTrue(json.matches("(?s).*\\{\"of\": \"tell-embedded\", \"to\": \"h2\", \"value\": \\d+\\.\\d{4}}.*"), json);
        assertTrue(json.contains("\"status\": \"skipped\"") && json.contains("\"roundTripsAlone\""), json);
        assertTrue(Files.exists(dir.resolve("h2").resolve("result.json")));
    }
}
