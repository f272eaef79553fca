package io.tell.bench.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Ratios per round and their median; rounds in which a side has no result count for nothing. */
class ComparisonRoundsTest {

    @Test
    void eachRoundHasItsRatioAndTheMedianSkipsRoundsWithoutOne() {
        ComparisonRounds.Pair odd = new ComparisonRounds.Pair("tell-redis", "postgres",
                Arrays.asList(9_000.0, null, 11_000.0, 8_000.0), Arrays.asList(10_000.0, 9_000.0, 10_000.0, 10_000.0));
        List<Double> ratios = odd.ratios();
        assertEquals(0.9, ratios.get(0), 1e-9);
        assertNull(ratios.get(1));
        assertEquals(1.1, ratios.get(2), 1e-9);
        assertEquals(0.8, ratios.get(3), 1e-9);
        assertEquals(0.9, odd.median(), 1e-9, "the middle of 0.8, 0.9, 1.1");

        ComparisonRounds.Pair even = new ComparisonRounds.Pair("tell-embedded", "h2", List.of(8_000.0, 12_000.0),
                List.of(10_000.0, 10_000.0));
        assertEquals(1.0, even.median(), 1e-9, "the mean of the middle two");

        ComparisonRounds.Pair none = new ComparisonRounds.Pair("tell-embedded", "h2", Arrays.asList(8_000.0, null),
                Arrays.asList(null, 10_000.0));
        assertNull(none.median());
    }

    @Test
    void roundsWithoutResultsShowNoRatio() {
        ComparedDatabase redis = new ComparedDatabase("tell-redis", "Tell on Redis", d -> {
            throw new java.io.IOException("redis-server crashed");
        });
        ComparedDatabase postgres = new ComparedDatabase("postgres", "PostgreSQL", d -> {
            throw new ComparedDatabase.Unavailable("no server here");
        });
        List<List<ComparedRun>> rounds = List.of(
                List.of(ComparedRun.failed(redis, null, null, "crashed"), ComparedRun.skipped(postgres, "no server")),
                List.of(ComparedRun.skipped(postgres, "no server"), ComparedRun.failed(redis, null, null, "crashed")));
        ComparisonRounds summary = ComparisonRounds.of(rounds);
        assertEquals(1, summary.pairs().size(), "only the pair whose databases took part");
        String markdown = summary.markdown();
        assertTrue(markdown.contains("Tell on Redis / PostgreSQL over 2 rounds"), markdown);
        assertTrue(markdown.contains("| 2 | - | - | - |") && markdown.contains("median ratio - (goal: at least 1)"), markdown);
        String json = summary.json();
        assertTrue(json.contains("\"ratios\": [null, null]") && json.contains("\"median\": null"), json);
    }
}
