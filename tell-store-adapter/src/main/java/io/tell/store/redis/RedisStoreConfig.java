package io.tell.store.redis;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.store.StoreUrl;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The settings of a redis store, parsed once from its URL:
 * {@code redis://host:port[,host:port...][?cluster=true|false&replicas=N&timeoutMs=T]}.
 *
 * @param hosts    the servers (cluster: seed nodes)
 * @param cluster  Redis Cluster rather than one standalone server; defaults to true with more than one host
 * @param replicas how many replicas must have a write (via WAIT) before it is acknowledged; 0 = none
 * @param timeout  how long a call may take before it fails with STORE_TIMEOUT
 */
record RedisStoreConfig(List<Address> hosts, boolean cluster, int replicas, Duration timeout) {
    static final int DEFAULT_PORT = 6379;
    static final Duration DEFAULT_TIMEOUT = Duration.ofMillis(2000);
    private static final Set<String> OPTIONS = Set.of("cluster", "replicas", "timeoutMs");

    /** A host and port. */
    record Address(String host, int port) {
        @Override
        public String toString() {
            return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
        }
    }

    RedisStoreConfig {
        hosts = List.copyOf(hosts);
    }

    static RedisStoreConfig parse(StoreUrl url) {
        if (!"redis".equals(url.scheme())) {
            throw bad("not a redis URL", url);
        }
        for (String option : url.options().keySet()) {
            if (!OPTIONS.contains(option)) {
                throw bad("unknown option '" + option + "' (known: cluster, replicas, timeoutMs)", url);
            }
        }
        List<Address> hosts = parseHosts(url);
        boolean cluster = switch (url.option("cluster", hosts.size() > 1 ? "true" : "false")) {
            case "true" -> true;
            case "false" -> false;
            default -> throw bad("option cluster must be true or false", url);
        };
        if (!cluster && hosts.size() > 1) {
            throw bad("a standalone redis store takes exactly one host:port (use cluster=true for Redis Cluster)", url);
        }
        int replicas = url.intOption("replicas", 0);
        if (replicas < 0 || replicas > 100) {
            throw bad("option replicas must be between 0 and 100, got " + replicas, url);
        }
        int timeoutMs = url.intOption("timeoutMs", (int) DEFAULT_TIMEOUT.toMillis());
        if (timeoutMs < 10 || timeoutMs > 600_000) {
            throw bad("option timeoutMs must be between 10 and 600000, got " + timeoutMs, url);
        }
        return new RedisStoreConfig(hosts, cluster, replicas, Duration.ofMillis(timeoutMs));
    }

    /** How long WAIT may block on the server: half the call timeout, so its answer arrives before the call times out. */
    Duration waitTimeout() {
        return Duration.ofMillis(Math.max(1, timeout.toMillis() / 2));
    }

    /** The canonical URL, for {@code describe()}. */
    String describe() {
        StringBuilder sb = new StringBuilder("redis://")
                .append(hosts.stream().map(Address::toString).collect(Collectors.joining(",")));
        List<String> options = new ArrayList<>();
        if (cluster != hosts.size() > 1) {
            options.add("cluster=" + cluster);
        }
        if (replicas > 0) {
            options.add("replicas=" + replicas);
        }
        if (!timeout.equals(DEFAULT_TIMEOUT)) {
            options.add("timeoutMs=" + timeout.toMillis());
        }
        if (!options.isEmpty()) {
            sb.append('?').append(String.join("&", options));
        }
        return sb.toString();
    }

    private static List<Address> parseHosts(StoreUrl url) {
        String body = url.body();
        if (body.endsWith("/")) {
            body = body.substring(0, body.length() - 1);
        }
        if (body.isEmpty()) {
            throw bad("no host given (want redis://host:port)", url);
        }
        List<Address> hosts = new ArrayList<>();
        for (String part : body.split(",", -1)) {
            hosts.add(parseAddress(part.trim(), url));
        }
        return hosts;
    }

    private static Address parseAddress(String text, StoreUrl url) {
        String host;
        String port = null;
        if (text.startsWith("[")) {
            int close = text.indexOf(']');
            if (close < 0) {
                throw bad("unclosed '[' in host '" + text + "'", url);
            }
            host = text.substring(1, close);
            String rest = text.substring(close + 1);
            if (rest.startsWith(":")) {
                port = rest.substring(1);
            } else if (!rest.isEmpty()) {
                throw bad("bad host '" + text + "'", url);
            }
        } else {
            int colon = text.lastIndexOf(':');
            host = colon < 0 ? text : text.substring(0, colon);
            port = colon < 0 ? null : text.substring(colon + 1);
        }
        if (host.isEmpty() || host.contains("/") || host.contains("@")) {
            throw bad("bad host '" + text + "' (want host:port)", url);
        }
        if (port == null) {
            return new Address(host, DEFAULT_PORT);
        }
        try {
            int p = Integer.parseInt(port);
            if (p < 1 || p > 65535) {
                throw bad("port out of range in '" + text + "'", url);
            }
            return new Address(host, p);
        } catch (NumberFormatException e) {
            throw bad("port is not a number in '" + text + "'", url);
        }
    }

    private static TellException bad(String message, StoreUrl url) {
        return TellException.of(ErrorCode.BAD_CONFIGURATION, "bad redis store URL: " + message + ": " + url.text());
    }
}
