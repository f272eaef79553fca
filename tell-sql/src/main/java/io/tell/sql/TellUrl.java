package io.tell.sql;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import java.util.ArrayList;
import java.util.List;

/**
 * A parsed Tell JDBC URL:
 * <ul>
 *   <li>{@code jdbc:tell:mem:} — a private embedded database;</li>
 *   <li>{@code jdbc:tell:mem:NAME} — an embedded database shared by this JVM's connections;</li>
 *   <li>{@code jdbc:tell:redis://host:port[,host:port…]?cm=host:port[,host:port…][&replicas=N&timeoutMs=T…]}
 *       — this JVM is a processing node over a shared Redis store and commit-manager services;
 *       every option but {@code cm} and {@code gc} belongs to the store.</li>
 * </ul>
 * Either form takes {@code gc=on} (e.g. {@code jdbc:tell:mem:shop?gc=on}): the node then hosts a
 * background sweeper ({@link io.tell.gc.Sweeper}), active while it holds the cluster-wide lease.
 * Off by default.
 */
public record TellUrl(String text, String storeUrl, String commitManagers, boolean embedded, boolean shared,
                      boolean gc) {
    public static final String PREFIX = "jdbc:tell:";

    public static boolean accepts(String url) {
        return url != null && url.startsWith(PREFIX);
    }

    public static TellUrl parse(String url) {
        if (!accepts(url)) {
            throw bad(url, "a Tell URL starts with " + PREFIX);
        }
        String rest = url.substring(PREFIX.length());
        if (rest.startsWith("mem:")) {
            int q = rest.indexOf('?');
            boolean gc = false;
            if (q >= 0) {
                for (String option : rest.substring(q + 1).split("&")) {
                    if (!option.isEmpty()) {
                        gc = gcOption(url, option);
                    }
                }
                rest = rest.substring(0, q);
            }
            String name = rest.substring(4);
            if (!name.isEmpty() && !name.matches("[A-Za-z0-9_.-]{1,100}")) {
                throw bad(url, "the database name after mem: takes 1-100 of [A-Za-z0-9_.-]");
            }
            return new TellUrl(url, rest, null, true, !name.isEmpty(), gc);
        }
        if (rest.startsWith("redis://")) {
            int q = rest.indexOf('?');
            String hosts = q < 0 ? rest : rest.substring(0, q);
            List<String> storeOptions = new ArrayList<>();
            String cm = null;
            boolean gc = false;
            if (q >= 0) {
                for (String option : rest.substring(q + 1).split("&")) {
                    if (option.startsWith("cm=")) {
                        cm = option.substring(3);
                    } else if (option.startsWith("gc=")) {
                        gc = gcOption(url, option);
                    } else if (!option.isEmpty()) {
                        storeOptions.add(option);
                    }
                }
            }
            if (hosts.length() <= "redis://".length()) {
                throw bad(url, "redis:// needs host:port[,host:port…]");
            }
            if (cm == null || cm.isBlank()) {
                throw bad(url, "a Redis URL needs the commit manager(s): ?cm=host:port[,host:port…] (start one with ./tell commitmgr)");
            }
            String store = storeOptions.isEmpty() ? hosts : hosts + "?" + String.join("&", storeOptions);
            return new TellUrl(url, store, cm, false, true, gc);
        }
        throw bad(url, "expected jdbc:tell:mem:[NAME] or jdbc:tell:redis://host:port?cm=host:port");
    }

    /**
     * What connections sharing one node agree on: for an embedded database its store (one
     * commit manager per store, whatever the options), otherwise the whole URL. The first
     * connection's options decide for the node.
     */
    public String nodeKey() {
        return embedded ? storeUrl : text;
    }

    private static boolean gcOption(String url, String option) {
        return switch (option) {
            case "gc=on" -> true;
            case "gc=off" -> false;
            default -> throw bad(url, "unknown option " + option + " (an embedded URL takes gc=on|off)");
        };
    }

    private static TellException bad(String url, String why) {
        return TellException.of(ErrorCode.BAD_CONFIGURATION, "bad Tell URL '" + url + "': " + why);
    }
}
