package io.tell.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.server.internal.PgScramTest;
import io.tell.server.internal.ScramVerifier;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Authentication: SCRAM-SHA-256 with the PostgreSQL JDBC driver, wrong passwords and unknown users (28P01), trust's limits. */
class PgAuthIT {
    @Test
    void scramAcceptsTheRightPasswordOnly() throws SQLException {
        try (PgTestServer server = PgTestServer.scram(Map.of("alice", "s3cret-ä"))) {
            try (Connection c = server.connect("", "alice", "s3cret-ä"); Statement s = c.createStatement()) {
                assertEquals(1, PgJdbcIT.count(s, "SELECT 1"));
                assertEquals("alice", PgJdbcIT.show(s, "session_authorization"));
            }
            assertEquals("28P01", assertThrows(SQLException.class, () -> server.connect("", "alice", "wrong")).getSQLState());
            assertEquals("28P01", assertThrows(SQLException.class, () -> server.connect("", "mallory", "s3cret-ä")).getSQLState());
            try (Connection c = server.connect("", "alice", "s3cret-ä")) { // the server goes on
                assertTrue(c.isValid(5));
            }
        }
    }

    /** A users file may hold PostgreSQL's verifiers instead of passwords. */
    @Test
    void usersFileWithVerifiers(@TempDir Path dir) throws IOException, SQLException {
        Path file = dir.resolve("users");
        Files.writeString(file, "# operators\nbob:" + ScramVerifier.of("pw-bob") + "\n\ncarol:pw-carol\n");
        PgUsers users = PgUsers.load(file);
        try (PgTestServer server = new PgTestServer(PgServerConfig.scram("127.0.0.1", 0, users))) {
            server.connect("", "bob", "pw-bob").close();
            server.connect("", "carol", "pw-carol").close();
            assertEquals("28P01", assertThrows(SQLException.class, () -> server.connect("", "bob", "pw-carol")).getSQLState());
        }
        Files.writeString(file, "nocolon\n");
        assertEquals(ErrorCode.BAD_CONFIGURATION, assertThrows(TellException.class, () -> PgUsers.load(file)).code());
    }

    /** A verifier PostgreSQL 15 made (SELECT rolpassword FROM pg_authid) for the password "tell" lets that password in. */
    @Test
    void postgresVerifierLetsItsPasswordIn() throws SQLException {
        try (PgTestServer server = PgTestServer.scram(Map.of("pg", PgScramTest.POSTGRES_VERIFIER))) {
            server.connect("", "pg", "tell").close();
            assertEquals("28P01", assertThrows(SQLException.class, () -> server.connect("", "pg", "Tell")).getSQLState());
        }
    }

    @Test
    void trustIsForLoopbackOnly() {
        assertEquals(ErrorCode.BAD_CONFIGURATION,
                assertThrows(TellException.class, () -> PgServerConfig.trust("0.0.0.0", 0)).code());
        PgServerConfig.trust("localhost", 0);
    }
}
