package io.tell.cli;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** {@code --name value} command-line options, checked against the names a command knows. */
final class Args {
    private final Map<String, String> values = new HashMap<>();

    Args(String[] argv, int from, List<String> known) {
        for (int i = from; i < argv.length; i++) {
            String a = argv[i];
            if (!a.startsWith("--") || !known.contains(a.substring(2))) {
                throw new UsageException("unknown option '" + a + "' (known: --" + String.join(", --", known) + ")");
            }
            if (i + 1 >= argv.length) {
                throw new UsageException("option " + a + " needs a value");
            }
            values.put(a.substring(2), argv[++i]);
        }
    }

    String get(String name, String fallback) {
        return values.getOrDefault(name, fallback);
    }

    boolean has(String name) {
        return values.containsKey(name);
    }

    int intValue(String name, int fallback, int min) {
        long v = longValue(name, fallback);
        if (v < min || v > Integer.MAX_VALUE) {
            throw new UsageException("--" + name + " must be at least " + min + ": " + v);
        }
        return (int) v;
    }

    long longValue(String name, long fallback) {
        String v = values.get(name);
        try {
            return v == null ? fallback : Long.parseLong(v);
        } catch (NumberFormatException e) {
            throw new UsageException("--" + name + " must be a whole number: " + v);
        }
    }

    double doubleValue(String name, double fallback) {
        String v = values.get(name);
        try {
            double d = v == null ? fallback : Double.parseDouble(v);
            if (!(d > 0)) {
                throw new UsageException("--" + name + " must be positive: " + v);
            }
            return d;
        } catch (NumberFormatException e) {
            throw new UsageException("--" + name + " must be a number: " + v);
        }
    }

    /** A mistake in the command line: printed with the usage, exit code 2. */
    static final class UsageException extends RuntimeException {
        UsageException(String message) {
            super(message);
        }
    }
}
