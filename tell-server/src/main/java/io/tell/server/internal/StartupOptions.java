package io.tell.server.internal;

import java.util.Map;

/**
 * Applies a startup message's parameters to the session: the run-time parameters it sets
 * directly (application_name, client_encoding, DateStyle, TimeZone, extra_float_digits …) and
 * those in {@code options} ({@code -c name=value} or {@code --name=value}). user and database
 * are the connection's; other unknown names are ignored, so that a newer client still connects.
 */
final class StartupOptions {
    private StartupOptions() {
    }

    static void apply(Map<String, String> startup, SessionParameters parameters) {
        startup.forEach((name, value) -> {
            switch (name) {
                case "user", "database", "replication", "options" -> {
                }
                default -> {
                    if (!name.startsWith("_pq_.") && known(name)) {
                        parameters.set(name, value);
                    }
                }
            }
        });
        String options = startup.get("options");
        if (options != null) {
            String[] words = options.trim().split("\\s+");
            for (int i = 0; i < words.length; i++) {
                String setting = words[i].equals("-c") && i + 1 < words.length ? words[++i]
                        : words[i].startsWith("--") ? words[i].substring(2) : null;
                int eq = setting == null ? -1 : setting.indexOf('=');
                if (eq > 0) {
                    parameters.set(setting.substring(0, eq), setting.substring(eq + 1));
                }
            }
        }
    }

    private static boolean known(String name) {
        try {
            SessionParameters.canonical(name);
            return true;
        } catch (PgError e) {
            return false;
        }
    }
}
