package io.tell.bench.tpcc;

import java.util.SplittableRandom;

/**
 * The run-time constants {@code C} of NURand (TPC-C §2.1.6), one per field. The loader and the
 * terminals use different {@code C} for C_LAST: the difference between the run value and the load
 * value must lie in [65, 119] and be neither 96 nor 112 (§2.1.6.1), so the run value is derived
 * from the load value. Both come from the benchmark seed, so a run with {@code --no-load} finds
 * the load value again when given the seed the data was loaded with.
 *
 * @param cLast C for C_LAST, in [0, 255]
 * @param cId C for C_ID, in [0, 1023]
 * @param olIId C for OL_I_ID, in [0, 8191]
 */
public record NuRandConstants(int cLast, int cId, int olIId) {

    public NuRandConstants {
        if (cLast < 0 || cLast > 255 || cId < 0 || cId > 1023 || olIId < 0 || olIId > 8191) {
            throw new IllegalArgumentException("NURand constant out of range: " + cLast + ", " + cId + ", " + olIId);
        }
    }

    /** The constants the loader uses, drawn from {@code seed}. */
    public static NuRandConstants forLoad(long seed) {
        SplittableRandom r = new SplittableRandom(seed ^ 0x5DEECE66DL);
        return new NuRandConstants(r.nextInt(256), r.nextInt(1024), r.nextInt(8192));
    }

    /** The constants the terminals use: same C_ID and OL_I_ID values, C_LAST per the delta rule. */
    public static NuRandConstants forRun(long seed) {
        NuRandConstants load = forLoad(seed);
        SplittableRandom r = new SplittableRandom(seed ^ 0x2545F4914F6CDD1DL);
        while (true) {
            int candidate = r.nextInt(256);
            if (validDelta(load.cLast, candidate)) {
                return new NuRandConstants(candidate, load.cId, load.olIId);
            }
        }
    }

    /** Whether a run-time C_LAST constant may follow a load-time one (§2.1.6.1). */
    public static boolean validDelta(int loadCLast, int runCLast) {
        int delta = Math.abs(runCLast - loadCLast);
        return delta >= 65 && delta <= 119 && delta != 96 && delta != 112;
    }
}
