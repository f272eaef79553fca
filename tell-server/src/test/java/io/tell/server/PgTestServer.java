package io.tell.server;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.tell.sql.ProcessingNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

/** A PN server on a private in-memory node and an ephemeral loopback port, for one test class. */
final class PgTestServer implements AutoCloseable {
    static final Path PSQL = Path.of("/usr/bin/psql");
    final ProcessingNode node;
    final PgServer server;

    PgTestServer(PgServerConfig config) {
        node = ProcessingNode.connect("jdbc:tell:mem:");
        try {
            server = PgServer.start(node, config);
        } catch (RuntimeException e) {
            node.close();
            throw e;
        }
    }

    static PgTestServer trust() {
        return new PgTestServer(PgServerConfig.trust("127.0.0.1", 0));
    }

    static PgTestServer scram(Map<String, String> passwords) {
        return new PgTestServer(PgServerConfig.scram("127.0.0.1", 0, PgUsers.of(passwords)));
    }

    int port() {
        return server.port();
    }

    String url(String options) {
        return "jdbc:postgresql://127.0.0.1:" + port() + "/tell" + (options.isEmpty() ? "" : "?" + options);
    }

    Connection connect() throws SQLException {
        return connect("");
    }

    Connection connect(String options) throws SQLException {
        return connect(options, "tell", "");
    }

    Connection connect(String options, String user, String password) throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", user);
        p.setProperty("password", password);
        return DriverManager.getConnection(url(options), p);
    }

    /**
     * Runs Debian's psql against this server ({@code -X -A}, trust as user tell) with {@code args}; its output lines
     * but blank ones. The test is skipped where psql is not installed.
     */
    List<String> psql(String... args) throws IOException, InterruptedException {
        assumeTrue(Files.isExecutable(PSQL), "psql is not installed (Debian: apt-get install postgresql-client)");
        List<String> command = new ArrayList<>(List.of(PSQL.toString(), "-X", "-A", "-h", "127.0.0.1", "-p",
                String.valueOf(port()), "-U", "tell", "-d", "tell"));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        byte[] out = p.getInputStream().readAllBytes();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "psql did not finish");
        return new String(out, StandardCharsets.UTF_8).lines().filter(l -> !l.isBlank()).toList();
    }

    @Override
    public void close() {
        server.close();
        node.close();
    }
}
