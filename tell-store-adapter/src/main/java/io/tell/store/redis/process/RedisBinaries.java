package io.tell.store.redis.process;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Finds redis-server and redis-cli for the process helpers, with a clear message when they are missing. */
public final class RedisBinaries {
    private static final String INSTALL_HINT = "Starting a Redis server of our own needs Redis 7 or newer:"
            + " install Debian's redis-server package (sudo apt-get install redis-server; it brings redis-cli),"
            + " or set -Dtell.redis.server=/path/to/redis-server.";

    private static volatile String server;
    private static volatile String version;

    private RedisBinaries() {
    }

    /** The redis-server executable, checked once to be version 7 or newer. */
    public static String server() {
        String s = server;
        if (s == null) {
            s = find("redis-server", System.getProperty("tell.redis.server"));
            version = checkVersion(s);
            server = s;
        }
        return s;
    }

    /** What {@code redis-server --version} says, without its build details: e.g. {@code Redis server v=7.0.15}. */
    public static String version() {
        server();
        return version;
    }

    /** The redis-cli next to redis-server, or on the PATH. */
    public static String cli() {
        File sibling = new File(new File(server()).getParentFile(), "redis-cli");
        return sibling.canExecute() ? sibling.getPath() : find("redis-cli", System.getProperty("tell.redis.cli"));
    }

    private static String find(String name, String override) {
        if (override != null && !override.isBlank()) {
            if (new File(override).canExecute()) {
                return override;
            }
            throw new IllegalStateException(override + " is not an executable. " + INSTALL_HINT);
        }
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin:/usr/local/bin").split(File.pathSeparator)) {
            File f = new File(dir, name);
            if (f.canExecute()) {
                return f.getPath();
            }
        }
        throw new IllegalStateException(name + " not found on the PATH. " + INSTALL_HINT);
    }

    private static String checkVersion(String path) {
        try {
            Process p = new ProcessBuilder(path, "--version").redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            p.waitFor(10, TimeUnit.SECONDS);
            Matcher m = Pattern.compile("v=(\\d+)\\.").matcher(out);
            if (!m.find()) {
                throw new IllegalStateException("cannot tell the version of " + path + " from: " + out.trim());
            }
            if (Integer.parseInt(m.group(1)) < 7) {
                throw new IllegalStateException(path + " is too old (" + out.trim() + "). " + INSTALL_HINT);
            }
            return out.trim().replaceFirst(" sha=.*", "");
        } catch (IOException e) {
            throw new IllegalStateException("cannot run " + path + ": " + e.getMessage() + ". " + INSTALL_HINT, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
