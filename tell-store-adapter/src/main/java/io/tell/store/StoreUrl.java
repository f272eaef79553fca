package io.tell.store;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A parsed store URL: {@code scheme:rest[?k=v&k=v]}, e.g. {@code mem:}, {@code mem:bank},
 * {@code redis://127.0.0.1:6379}, {@code redis://h1:7000,h2:7001?cluster=true&replicas=1},
 * {@code rediss://user:password@host:6380}.
 *
 * <p>A URL may carry a password ({@code scheme://user:password@…}): {@link #toString()} and
 * every message about a URL show it {@linkplain #redact(String) redacted}; only
 * {@link #text()} and {@link #body()} hold it in clear, for the backend that logs in.
 */
public record StoreUrl(String text, String scheme, String body, Map<String, String> options) {

    public static StoreUrl parse(String text) {
        if (text == null || text.isBlank()) {
            throw TellException.of(ErrorCode.BAD_CONFIGURATION, "empty store URL");
        }
        int colon = text.indexOf(':');
        if (colon <= 0) {
            throw TellException.of(ErrorCode.BAD_CONFIGURATION,
                    "store URL needs a scheme (mem: or redis://host:port): " + redact(text));
        }
        String scheme = text.substring(0, colon);
        String rest = text.substring(colon + 1);
        Map<String, String> options = new LinkedHashMap<>();
        int q = rest.indexOf('?');
        if (q >= 0) {
            for (String pair : rest.substring(q + 1).split("&")) {
                if (pair.isEmpty()) {
                    continue;
                }
                int eq = pair.indexOf('=');
                if (eq <= 0) {
                    throw TellException.of(ErrorCode.BAD_CONFIGURATION, "bad option '" + pair + "' in " + redact(text));
                }
                options.put(pair.substring(0, eq), pair.substring(eq + 1));
            }
            rest = rest.substring(0, q);
        }
        if (rest.startsWith("//")) {
            rest = rest.substring(2);
        }
        return new StoreUrl(text, scheme, rest, Map.copyOf(options));
    }

    public String option(String name, String fallback) {
        return options.getOrDefault(name, fallback);
    }

    public int intOption(String name, int fallback) {
        String v = options.get(name);
        if (v == null) {
            return fallback;
        }
        try {
            return Integer.parseInt(v);
        } catch (NumberFormatException e) {
            throw TellException.of(ErrorCode.BAD_CONFIGURATION, "option " + name + " is not a number in " + this);
        }
    }

    /**
     * {@code url} with the password of its user part, if any, replaced by {@code ***}:
     * {@code redis://app:***@h:6379}. Use it wherever a URL is printed or logged.
     */
    public static String redact(String url) {
        if (url == null) {
            return null;
        }
        int start = url.indexOf("//");
        if (start < 0) {
            return url;
        }
        start += 2;
        int end = url.indexOf('?', start);
        String authority = end < 0 ? url.substring(start) : url.substring(start, end);
        // Hosts never contain '@', so the last one ends the user part (a password may hold '@').
        int at = authority.lastIndexOf('@');
        int colon = authority.indexOf(':');
        if (at < 0 || colon < 0 || colon > at) {
            return url;
        }
        return url.substring(0, start + colon + 1) + "***" + url.substring(start + at);
    }

    @Override
    public String toString() {
        return redact(text);
    }
}
