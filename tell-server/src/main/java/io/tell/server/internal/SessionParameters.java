package io.tell.server.internal;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The run-time parameters of one connection that clients set and read (SET/SHOW and the
 * startup message). They are stored and echoed; what Tell's output depends on is fixed
 * (UTF-8, ISO dates, shortest exact floats), so values that would change it are refused rather
 * than silently ignored. Names are case-insensitive; each has a canonical spelling, the one
 * ParameterStatus and SHOW use.
 */
final class SessionParameters {
    /** Parameters whose changes PostgreSQL reports to the client with ParameterStatus (GUC_REPORT). */
    private static final List<String> REPORTED = List.of("application_name", "client_encoding", "DateStyle",
            "IntervalStyle", "integer_datetimes", "is_superuser", "server_encoding", "server_version",
            "session_authorization", "standard_conforming_strings", "TimeZone");
    private static final List<String> READ_ONLY = List.of("integer_datetimes", "is_superuser", "server_encoding",
            "server_version", "session_authorization", "standard_conforming_strings", "transaction_isolation",
            "transaction_read_only");

    /** Defaults, in canonical spelling. */
    private static final Map<String, String> DEFAULTS = new LinkedHashMap<>();

    static {
        DEFAULTS.put("application_name", "");
        DEFAULTS.put("client_encoding", "UTF8");
        DEFAULTS.put("DateStyle", "ISO, MDY");
        DEFAULTS.put("IntervalStyle", "postgres");
        DEFAULTS.put("integer_datetimes", "on");
        DEFAULTS.put("is_superuser", "off");
        DEFAULTS.put("server_encoding", "UTF8");
        DEFAULTS.put("server_version", "15.0 (Tell)");
        DEFAULTS.put("session_authorization", "");
        DEFAULTS.put("standard_conforming_strings", "on");
        DEFAULTS.put("TimeZone", "UTC");
        DEFAULTS.put("extra_float_digits", "1");
        DEFAULTS.put("search_path", "\"$user\", public");
        DEFAULTS.put("statement_timeout", "0");
        DEFAULTS.put("lock_timeout", "0");
        DEFAULTS.put("idle_in_transaction_session_timeout", "0");
        DEFAULTS.put("client_min_messages", "notice");
        DEFAULTS.put("bytea_output", "hex");
        DEFAULTS.put("default_transaction_isolation", "repeatable read");
        DEFAULTS.put("default_transaction_read_only", "off");
        DEFAULTS.put("max_identifier_length", "63");
    }

    private final Map<String, String> values = new LinkedHashMap<>(DEFAULTS);

    SessionParameters(String user) {
        values.put("session_authorization", user);
    }

    /** The canonical spelling of {@code name}; 42704 for a parameter this server does not know. */
    static String canonical(String name) {
        for (String known : DEFAULTS.keySet()) {
            if (known.equalsIgnoreCase(name)) {
                return known;
            }
        }
        if (name.equalsIgnoreCase("transaction_isolation") || name.equalsIgnoreCase("transaction_read_only")) {
            return name.toLowerCase(Locale.ROOT);
        }
        throw new PgError("42704", "unrecognized configuration parameter \"" + name + "\"");
    }

    /**
     * Sets a parameter (DEFAULT resets it); returns its canonical name when the client must be
     * told with ParameterStatus, else null. 55P02 for a read-only one, 22023 for a value Tell
     * cannot honour.
     */
    String set(String name, String value) {
        String key = canonical(name);
        if (READ_ONLY.contains(key)) {
            throw new PgError("55P02", "parameter \"" + key + "\" cannot be changed");
        }
        String v = value.equalsIgnoreCase("default") ? DEFAULTS.get(key) : checked(key, value);
        values.put(key, v);
        return REPORTED.contains(key) ? key : null;
    }

    private static String checked(String key, String value) {
        switch (key) {
            case "client_encoding" -> {
                String e = value.toUpperCase(Locale.ROOT).replace("-", "").replace("_", "");
                if (e.equals("UTF8") || e.equals("UNICODE")) {
                    return "UTF8";
                }
                if (e.equals("SQLASCII")) {
                    return "SQL_ASCII"; // PostgreSQL passes bytes through unconverted for it: the client gets UTF-8
                }
                throw new PgError("22023", "client_encoding " + value + " is not supported: Tell speaks UTF8");
            }
            case "DateStyle" -> {
                if (!value.toUpperCase(Locale.ROOT).contains("ISO")) {
                    throw new PgError("22023", "DateStyle " + value + " is not supported: Tell writes dates in ISO style");
                }
                return "ISO, MDY";
            }
            case "statement_timeout", "lock_timeout", "idle_in_transaction_session_timeout" -> {
                return Long.toString(millis(key, value));
            }
            case "extra_float_digits" -> {
                try {
                    int digits = Integer.parseInt(value.strip());
                    if (digits < -15 || digits > 3) {
                        throw new NumberFormatException();
                    }
                } catch (NumberFormatException e) {
                    throw new PgError("22023", "extra_float_digits must be an integer in -15..3, got " + value);
                }
                return value.strip();
            }
            default -> {
                return value;
            }
        }
    }

    /** A duration in milliseconds: a number, or a number with unit ms, s, min, h. */
    private static long millis(String key, String value) {
        String v = value.strip().toLowerCase(Locale.ROOT);
        int unitAt = 0;
        while (unitAt < v.length() && Character.isDigit(v.charAt(unitAt))) {
            unitAt++;
        }
        long factor = switch (v.substring(unitAt).strip()) {
            case "", "ms" -> 1;
            case "s" -> 1_000;
            case "min" -> 60_000;
            case "h" -> 3_600_000;
            default -> -1;
        };
        if (unitAt == 0 || factor < 0 || unitAt > 12) {
            throw new PgError("22023", "invalid value for parameter \"" + key + "\": \"" + value + "\"");
        }
        return Long.parseLong(v, 0, unitAt, 10) * factor;
    }

    void reset(String name) {
        String key = canonical(name);
        if (!READ_ONLY.contains(key)) {
            values.put(key, DEFAULTS.get(key));
        }
    }

    void resetAll() {
        String user = values.get("session_authorization");
        values.clear();
        values.putAll(DEFAULTS);
        values.put("session_authorization", user);
    }

    /** The value of a parameter (transaction_isolation and transaction_read_only are the session's to give). */
    String get(String canonicalName) {
        return values.get(canonicalName);
    }

    /** What ParameterStatus reports after authentication: every reported parameter and its value. */
    Map<String, String> reported() {
        Map<String, String> out = new LinkedHashMap<>();
        REPORTED.forEach(k -> out.put(k, values.get(k)));
        return out;
    }

    long statementTimeoutMillis() {
        return Long.parseLong(values.get("statement_timeout"));
    }
}
