package io.tell.server;

import io.tell.sql.ProcessingNode;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Map;
import java.util.Properties;

/** A PN server on a private in-memory node and an ephemeral loopback port, for one test class. */
final class PgTestServer implements AutoCloseable {
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

    @Override
    public void close() {
        server.close();
        node.close();
    }
}
