package io.tell.cli;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code --name value} command-line options and value-less {@code --flag}s, checked against the
 * names a command knows.
 */
final class Args {
    private static final Pattern DURATION = Pattern.compile("(\\d+(?:\\.\\d+)?)(ms|s|m|h)?");

    private final Map<String, String> values = new HashMap<>();

    Args(String[] argv, int from, List<String> known) {
        this(argv, from, known, List.of());
    }

    Args(String[] argv, int from, List<String> known, List<String> flags) {
        for (int i = from; i < argv.length; i++) {
            String a = argv[i];
            if (a.startsWith("--") && flags.contains(a.substring(2))) {
                values.put(a.substring(2), "true");
                continue;
            }
            if (!a.startsWith("--") || !known.contains(a.substring(2))) {
                List<String> all = new ArrayList<>(known);
                all.addAll(flags);
                throw new UsageException("unknown option '" + a + "' (known: --" + String.join(", --", all) + ")");
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

    /** Whether the option or flag was given. */
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

    /** A duration: seconds, or a number with the unit ms, s, m or h ({@code 60s}, {@code 2m}). */
    double seconds(String name, double fallback) {
        String v = values.get(name);
        if (v == null) {
            return fallback;
        }
        Matcher m = DURATION.matcher(v.trim());
        if (!m.matches()) {
            throw new UsageException("--" + name + " must be a duration like 30, 30s, 2m or 1h: " + v);
        }
        double n = Double.parseDouble(m.group(1));
        String unit = m.group(2) == null ? "s" : m.group(2);
        return switch (unit) {
            case "ms" -> n / 1000;
            case "m" -> n * 60;
            case "h" -> n * 3600;
            default -> n;
        };
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
