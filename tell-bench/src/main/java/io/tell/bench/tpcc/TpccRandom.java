package io.tell.bench.tpcc;

import java.math.BigDecimal;
import java.util.SplittableRandom;

/**
 * The random functions of TPC-C §2.1 and §4.3.2: uniform integers and decimals, NURand, the
 * a-strings and n-strings, customer last names from syllables, zip codes and the data fields of
 * which 10 % contain "ORIGINAL". Not thread-safe: one per thread.
 */
public final class TpccRandom {
    private static final char[] ALPHANUMERIC =
            "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789".toCharArray();
    private static final String[] SYLLABLES =
            {"BAR", "OUGHT", "ABLE", "PRI", "PRES", "ESE", "ANTI", "CALLY", "ATION", "EING"};

    private final SplittableRandom random;
    private final NuRandConstants c;
    private final TpccScale scale;

    /** Draws for the specification's scale. */
    public TpccRandom(long seed, NuRandConstants c) {
        this(seed, c, TpccScale.SPEC);
    }

    public TpccRandom(long seed, NuRandConstants c, TpccScale scale) {
        this.random = new SplittableRandom(seed);
        this.c = c;
        this.scale = scale;
    }

    public NuRandConstants constants() {
        return c;
    }

    public TpccScale scale() {
        return scale;
    }

    /** A uniform integer in [min, max]. */
    public int uniform(int min, int max) {
        return min + random.nextInt(max - min + 1);
    }

    /** A uniform double in [0, 1). */
    public double nextDouble() {
        return random.nextDouble();
    }

    /** A uniform decimal in [min, max] with {@code scale} digits after the point. */
    public BigDecimal decimal(String min, String max, int scale) {
        long lo = new BigDecimal(min).movePointRight(scale).longValueExact();
        long hi = new BigDecimal(max).movePointRight(scale).longValueExact();
        return BigDecimal.valueOf(lo + random.nextLong(hi - lo + 1), scale);
    }

    /** NURand(A, x, y) = (((random(0, A) | random(x, y)) + C) % (y - x + 1)) + x, C by A. */
    public int nuRand(int a, int x, int y) {
        int constant = switch (a) {
            case 255 -> c.cLast();
            case 1023 -> c.cId();
            case 8191 -> c.olIId();
            default -> throw new IllegalArgumentException("NURand A must be 255, 1023 or 8191: " + a);
        };
        return (((uniform(0, a) | uniform(x, y)) + constant) % (y - x + 1)) + x;
    }

    /** A customer id for the transactions: NURand(1023, 1, 3000) (3000: the customers per district). */
    public int customerId() {
        return nuRand(1023, 1, scale.customersPerDistrict());
    }

    /** An item id for the transactions: NURand(8191, 1, 100000) (100000: the items). */
    public int itemId() {
        return nuRand(8191, 1, scale.items());
    }

    /** A last name for the transactions and for customers past the first 1000: NURand(255, 0, 999) (999: last names - 1). */
    public String randomLastName() {
        return lastName(nuRand(255, 0, scale.lastNames() - 1));
    }

    /** The last name of number {@code n} in [0, 999]: three syllables by its digits (§4.3.2.3). */
    public static String lastName(int n) {
        return SYLLABLES[n / 100] + SYLLABLES[(n / 10) % 10] + SYLLABLES[n % 10];
    }

    /** A random alphanumeric string whose length is uniform in [min, max]. */
    public String aString(int min, int max) {
        char[] s = new char[uniform(min, max)];
        for (int i = 0; i < s.length; i++) {
            s[i] = ALPHANUMERIC[random.nextInt(ALPHANUMERIC.length)];
        }
        return new String(s);
    }

    /** A random string of digits whose length is uniform in [min, max]. */
    public String nString(int min, int max) {
        char[] s = new char[uniform(min, max)];
        for (int i = 0; i < s.length; i++) {
            s[i] = (char) ('0' + random.nextInt(10));
        }
        return new String(s);
    }

    /** A zip code: four random digits and "11111" (§4.3.2.7). */
    public String zip() {
        return nString(4, 4) + "11111";
    }

    /** I_DATA or S_DATA: an a-string of 26 to 50 characters, 10 % holding "ORIGINAL" at a random place. */
    public String data() {
        String s = aString(26, 50);
        if (uniform(1, 100) > 10) {
            return s;
        }
        int at = uniform(0, s.length() - 8);
        return s.substring(0, at) + "ORIGINAL" + s.substring(at + 8);
    }

    /** A random permutation of 1..n (the customers of the initial orders, §4.3.3.1). */
    public int[] permutation(int n) {
        int[] p = new int[n];
        for (int i = 0; i < n; i++) {
            p[i] = i + 1;
        }
        for (int i = n - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            int t = p[i];
            p[i] = p[j];
            p[j] = t;
        }
        return p;
    }

    /** A warehouse other than {@code home} in [1, warehouses]; {@code home} when it is the only one. */
    public int otherWarehouse(int home, int warehouses) {
        if (warehouses == 1) {
            return home;
        }
        int w = uniform(1, warehouses - 1);
        return w >= home ? w + 1 : w;
    }
}
