package io.tell.bench.process;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.UserPrincipal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * A PostgreSQL server on 127.0.0.1 for a benchmark, reached as role {@value #ROLE} (password
 * {@value #ROLE}) in database {@value #ROLE}, both created when missing. Found in this order:
 * the server already listening on port 5432; a Debian cluster that is down, started with
 * {@code pg_ctlcluster} (and stopped again on {@link #close}); a throw-away cluster made with
 * {@code initdb} in a temporary directory and run with {@code pg_ctl} on a free port (removed on
 * close). Its configuration is never changed. Creating the role needs a superuser: as root,
 * {@code runuser -u postgres psql}; else {@code sudo -n -u postgres psql}; else {@code psql -U postgres}.
 */
public final class PostgresServer implements AutoCloseable {
    public static final String ROLE = "tell_bench";
    private static final int DEFAULT_PORT = 5432;
    private static final long COMMAND_SECONDS = 120;

    /** No server could be reached or started: the benchmark skips PostgreSQL with this message. */
    public static final class Unavailable extends Exception {
        private static final long serialVersionUID = 1L;

        Unavailable(String message) {
            super(message);
        }
    }

    private final int port;
    private final String origin;
    private final List<String> stop;
    private final Path removeAfter;
    private final ExitGuard guard;
    private String settings = "";

    private PostgresServer(int port, String origin, List<String> stop, Path removeAfter) {
        this.port = port;
        this.origin = origin;
        this.stop = stop;
        this.removeAfter = removeAfter;
        this.guard = new ExitGuard("postgres", this::stopQuietly);
    }

    /**
     * A server to run against: the running one, a started Debian cluster or (also when
     * {@code throwAway}) a new throw-away cluster in a temporary directory.
     */
    public static PostgresServer open(boolean throwAway) throws Unavailable, InterruptedException {
        if (!throwAway) {
            if (Loopback.listening(DEFAULT_PORT)) {
                return ready(new PostgresServer(DEFAULT_PORT, "the server already running", List.of(), null), false);
            }
            PostgresServer debian = startDebianCluster();
            if (debian != null) {
                return ready(debian, false);
            }
        }
        return ready(startThrowAway(), true);
    }

    public String url() {
        return "jdbc:postgresql://" + Loopback.HOST + ":" + port + "/" + ROLE;
    }

    public String user() {
        return ROLE;
    }

    public String password() {
        return ROLE;
    }

    /** Where the server came from and the settings that matter for TPC-C, for the report. */
    public String description() {
        return "on " + Loopback.HOST + ":" + port + " (" + origin + "), " + settings;
    }

    @Override
    public void close() throws InterruptedException {
        guard.release();
        stopAndRemove();
    }

    private void stopQuietly() {
        try {
            stopAndRemove();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void stopAndRemove() throws InterruptedException {
        if (!stop.isEmpty()) {
            ExternalCommand.run(stop, COMMAND_SECONDS);
        }
        if (removeAfter != null) {
            try (Stream<Path> paths = Files.walk(removeAfter)) {
                paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            } catch (IOException e) {
                // a leftover temporary directory is harmless
            }
        }
    }

    /** Connects as the benchmark role, creating role and database first if that fails. */
    private static PostgresServer ready(PostgresServer server, boolean trustLocal) throws Unavailable, InterruptedException {
        try {
            server.readSettings();
            return server;
        } catch (SQLException first) {
            String provisioned = server.createRole(trustLocal);
            try {
                server.readSettings();
                return server;
            } catch (SQLException e) {
                server.close();
                throw new Unavailable("cannot connect to PostgreSQL at " + server.url() + " as " + ROLE + ": " + e.getMessage()
                        + (provisioned.isEmpty() ? "" : "; creating the role: " + provisioned));
            }
        }
    }

    private void readSettings() throws SQLException {
        try (Connection c = DriverManager.getConnection(url(), ROLE, ROLE); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT current_setting('synchronous_commit'), current_setting('fsync'),"
                     + " current_setting('shared_buffers'), current_setting('default_transaction_isolation')")) {
            rs.next();
            settings = (removeAfter != null ? "initdb's default configuration" : "its configuration unchanged")
                    + ": synchronous_commit=" + rs.getString(1) + ", fsync=" + rs.getString(2)
                    + ", shared_buffers=" + rs.getString(3) + ", default isolation " + rs.getString(4);
        }
    }

    /** Creates (or resets the password of) the role and creates its database; returns the failure output, or "". */
    private String createRole(boolean trustLocal) throws InterruptedException {
        String role = "DO $$BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '" + ROLE + "') THEN CREATE ROLE "
                + ROLE + " LOGIN PASSWORD '" + ROLE + "'; ELSE ALTER ROLE " + ROLE + " LOGIN PASSWORD '" + ROLE + "'; END IF; END$$";
        String hasDatabase = "SELECT count(*) FROM pg_database WHERE datname = '" + ROLE + "'";
        StringBuilder failures = new StringBuilder();
        for (List<String> psql : superuserPsql(trustLocal)) {
            ExternalCommand.Result r = ExternalCommand.run(with(psql, role), COMMAND_SECONDS);
            if (!r.ok()) {
                failures.append(String.join(" ", psql.subList(0, Math.min(4, psql.size())))).append(": ").append(r.output())
                        .append("; ");
                continue;
            }
            ExternalCommand.Result has = ExternalCommand.run(with(psql, hasDatabase), COMMAND_SECONDS);
            if (has.ok() && has.output().endsWith("0")) {
                ExternalCommand.Result created = ExternalCommand.run(with(psql, "CREATE DATABASE " + ROLE + " OWNER " + ROLE),
                        COMMAND_SECONDS);
                if (!created.ok()) {
                    return "CREATE DATABASE: " + created.output();
                }
            }
            return "";
        }
        return failures.toString();
    }

    private List<List<String>> superuserPsql(boolean trustLocal) {
        List<String> args = List.of("-X", "-q", "-t", "-A", "-v", "ON_ERROR_STOP=1", "-d", "postgres", "-p", Integer.toString(port));
        List<List<String>> ways = new ArrayList<>();
        if (!trustLocal && isRoot() && ExternalCommand.onPath("runuser") != null) {
            ways.add(concat(List.of("runuser", "-u", "postgres", "--", "psql"), args));
        }
        if (!trustLocal && !isRoot() && ExternalCommand.onPath("sudo") != null) {
            ways.add(concat(List.of("sudo", "-n", "-u", "postgres", "psql"), args));
        }
        ways.add(concat(List.of(psql(), "-h", Loopback.HOST, "-U", "postgres", "-w"), args));
        return ways;
    }

    /** Starts the first Debian cluster that is down (pg_lsclusters), or returns null. */
    private static PostgresServer startDebianCluster() throws InterruptedException {
        if (ExternalCommand.onPath("pg_lsclusters") == null || ExternalCommand.onPath("pg_ctlcluster") == null) {
            return null;
        }
        ExternalCommand.Result list = ExternalCommand.run(List.of("pg_lsclusters", "-h"), COMMAND_SECONDS);
        for (String line : list.output().lines().toList()) {
            String[] f = line.trim().split("\\s+");
            if (f.length >= 4 && f[3].equals("down") && f[2].matches("\\d+")) {
                ExternalCommand.Result started = ExternalCommand.run(List.of("pg_ctlcluster", f[0], f[1], "start"), COMMAND_SECONDS);
                if (started.ok() && Loopback.listening(Integer.parseInt(f[2]))) {
                    return new PostgresServer(Integer.parseInt(f[2]),
                            "Debian cluster " + f[0] + "/" + f[1] + ", started for this run and stopped after",
                            List.of("pg_ctlcluster", f[0], f[1], "stop"), null);
                }
            }
        }
        return null;
    }

    /** initdb in a temporary directory (as user postgres when root: initdb refuses root) and pg_ctl start on a free port. */
    private static PostgresServer startThrowAway() throws Unavailable, InterruptedException {
        Path bin = newestBin();
        Path dir;
        try {
            dir = Files.createTempDirectory("tell-pg-");
            if (isRoot()) {
                UserPrincipal postgres = dir.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("postgres");
                Files.setOwner(dir, postgres);
            }
        } catch (IOException e) {
            throw new Unavailable("cannot prepare a throw-away PostgreSQL cluster: " + e.getMessage()
                    + (isRoot() ? " (initdb refuses to run as root and needs the user postgres)" : ""));
        }
        Path data = dir.resolve("data");
        List<String> asOwner = isRoot() ? List.of("runuser", "-u", "postgres", "--") : List.of();
        ExternalCommand.Result init = ExternalCommand.run(concat(asOwner, List.of(bin.resolve("initdb").toString(), "-D",
                data.toString(), "-U", "postgres", "-A", "trust", "-E", "UTF8", "--no-locale", "--no-sync")), COMMAND_SECONDS);
        if (!init.ok()) {
            throw new Unavailable("initdb failed: " + init.output());
        }
        int port = Loopback.freePort();
        List<String> pgCtl = concat(asOwner, List.of(bin.resolve("pg_ctl").toString(), "-D", data.toString(), "-l",
                dir.resolve("postgres.log").toString(), "-w", "-t", "60"));
        ExternalCommand.Result start = ExternalCommand.run(concat(pgCtl, List.of("-o", "-p " + port
                + " -c listen_addresses=" + Loopback.HOST + " -c unix_socket_directories=" + dir, "start")), COMMAND_SECONDS);
        PostgresServer server = new PostgresServer(port, "a throw-away cluster (initdb) in " + dir + ", removed after",
                concat(pgCtl, List.of("-m", "fast", "stop")), dir);
        if (!start.ok()) {
            server.close();
            throw new Unavailable("pg_ctl start failed: " + start.output());
        }
        return server;
    }

    private static Path newestBin() throws Unavailable {
        try (Stream<Path> versions = Files.list(Path.of("/usr/lib/postgresql"))) {
            return versions.map(v -> v.resolve("bin")).filter(b -> Files.isExecutable(b.resolve("initdb")))
                    .max(Comparator.comparing(b -> versionOf(b.getParent())))
                    .orElseThrow(() -> new Unavailable("no initdb under /usr/lib/postgresql/*/bin"));
        } catch (IOException e) {
            throw new Unavailable("PostgreSQL is not installed (no /usr/lib/postgresql; Debian: apt-get install postgresql)");
        }
    }

    private static int versionOf(Path dir) {
        try {
            return Integer.parseInt(dir.getFileName().toString());
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private static String psql() {
        String onPath = ExternalCommand.onPath("psql");
        return onPath != null ? onPath : "psql";
    }

    private static boolean isRoot() {
        return "root".equals(System.getProperty("user.name"));
    }

    private static List<String> with(List<String> psql, String sql) {
        return concat(psql, List.of("-c", sql));
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }
}
