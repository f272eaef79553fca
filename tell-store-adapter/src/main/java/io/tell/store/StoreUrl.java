package io.tell.store;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A parsed store URL: {@code scheme:rest[?k=v&k=v]}, e.g. {@code mem:}, {@code mem:bank},
 * {@code redis://127.0.0.1:6379}, {@code redis://h1:7000,h2:7001?cluster=true&replicas=1}.
 */
public record StoreUrl(String text, String scheme, String body, Map<String, String> options) {

    public static StoreUrl parse(String text) {
        if (text == null || text.isBlank()) {
            throw TellException.of(ErrorCode.BAD_CONFIGURATION, "empty store URL");
        }
        int colon = text.indexOf(':');
        if (colon <= 0) {
            throw TellException.of(ErrorCode.BAD_CONFIGURATION,
                    "store URL needs a scheme (mem: or redis://host:port): " + text);
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
                    throw TellException.of(ErrorCode.BAD_CONFIGURATION, "bad option '" + pair + "' in " + text);
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
            throw TellException.of(ErrorCode.BAD_CONFIGURATION, "option " + name + " is not a number in " + text);
        }
    }

    @Override
    public String toString() {
        return text;
    }
}
