package io.tell.bench.tpcc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class TpccRandomTest {
    private static final long SEED = Long.getLong("tell.seed", 20261122L);
    private final TpccRandom random = new TpccRandom(SEED, NuRandConstants.forLoad(SEED));

    @Test
    void nuRandStaysInRangeAndIsSkewed() {
        int[] counts = new int[3001];
        for (int i = 0; i < 300_000; i++) {
            int c = random.nuRand(1023, 1, 3000);
            assertTrue(c >= 1 && c <= 3000, "C_ID out of range: " + c);
            counts[c]++;
        }
        int[] sorted = Arrays.stream(counts, 1, 3001).sorted().toArray();
        // Uniform would give 100 each; NURand makes some ids several times as frequent as others.
        assertTrue(sorted[sorted.length - 1] > 3 * Math.max(1, sorted[sorted.length / 2]),
                "NURand(1023) is not skewed: max " + sorted[sorted.length - 1] + ", median " + sorted[sorted.length / 2]);
        for (int i = 0; i < 100_000; i++) {
            int item = random.itemId();
            assertTrue(item >= 1 && item <= TpccScale.SPEC.items());
            int n = random.nuRand(255, 0, 999);
            assertTrue(n >= 0 && n <= 999);
        }
        assertThrows(IllegalArgumentException.class, () -> random.nuRand(100, 1, 10));
    }

    @Test
    void runConstantForLastNameKeepsTheSpecifiedDistanceFromTheLoadConstant() {
        for (long seed = 0; seed < 2_000; seed++) {
            NuRandConstants load = NuRandConstants.forLoad(seed);
            NuRandConstants run = NuRandConstants.forRun(seed);
            int delta = Math.abs(run.cLast() - load.cLast());
            assertTrue(delta >= 65 && delta <= 119 && delta != 96 && delta != 112, "seed " + seed + ": delta " + delta);
            assertEquals(load.cId(), run.cId());
            assertEquals(load.olIId(), run.olIId());
        }
        assertFalse(NuRandConstants.validDelta(0, 96));
        assertFalse(NuRandConstants.validDelta(200, 88));
        assertTrue(NuRandConstants.validDelta(10, 75));
        assertFalse(NuRandConstants.validDelta(10, 74 - 10));
    }

    @Test
    void lastNamesAreThreeSyllables() {
        assertEquals("BARBARBAR", TpccRandom.lastName(0));
        assertEquals("OUGHTABLEPRI", TpccRandom.lastName(123));
        assertEquals("EINGEINGEING", TpccRandom.lastName(999));
        assertEquals("PRESCALLYATION", TpccRandom.lastName(478));
        Set<String> names = new HashSet<>();
        for (int n = 0; n < 1000; n++) {
            names.add(TpccRandom.lastName(n));
        }
        assertEquals(1000, names.size());
    }

    @Test
    void stringsHaveTheirLengthsAndAlphabets() {
        for (int i = 0; i < 10_000; i++) {
            String a = random.aString(8, 16);
            assertTrue(a.length() >= 8 && a.length() <= 16, a);
            assertTrue(a.chars().allMatch(Character::isLetterOrDigit), a);
            String n = random.nString(16, 16);
            assertEquals(16, n.length());
            assertTrue(n.chars().allMatch(Character::isDigit), n);
            String zip = random.zip();
            assertTrue(zip.matches("\\d{4}11111"), zip);
        }
    }

    @Test
    void tenPercentOfDataHoldsOriginal() {
        int original = 0;
        int draws = 50_000;
        for (int i = 0; i < draws; i++) {
            String d = random.data();
            assertTrue(d.length() >= 26 && d.length() <= 50, d);
            if (d.contains("ORIGINAL")) {
                original++;
            }
        }
        assertEquals(0.10, original / (double) draws, 0.01);
    }

    @Test
    void decimalsAndPermutations() {
        for (int i = 0; i < 10_000; i++) {
            BigDecimal d = random.decimal("0.0000", "0.2000", 4);
            assertEquals(4, d.scale());
            assertTrue(d.signum() >= 0 && d.compareTo(new BigDecimal("0.2")) <= 0, d.toString());
        }
        int[] p = random.permutation(3000);
        assertEquals(3000, Arrays.stream(p).distinct().count());
        assertEquals(1, Arrays.stream(p).min().getAsInt());
        assertEquals(3000, Arrays.stream(p).max().getAsInt());
        for (int i = 0; i < 1000; i++) {
            assertNotEquals(3, random.otherWarehouse(3, 5));
        }
        assertEquals(1, random.otherWarehouse(1, 1));
    }

    @Test
    void deckDealsTheMixInEveryHundred() {
        TransactionDeck deck = new TransactionDeck(random);
        for (int round = 0; round < 5; round++) {
            int[] counts = new int[TransactionType.values().length];
            for (int i = 0; i < 100; i++) {
                counts[deck.next().ordinal()]++;
            }
            assertEquals("[45, 43, 4, 4, 4]", Arrays.toString(counts));
        }
    }

    @Test
    void customerByNamePicksPositionHalfRoundedUp() {
        assertEquals(0, CustomerByName.middle(1));
        assertEquals(0, CustomerByName.middle(2));
        assertEquals(1, CustomerByName.middle(3));
        assertEquals(1, CustomerByName.middle(4));
        assertEquals(2, CustomerByName.middle(5));
    }
}
