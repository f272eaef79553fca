package io.tell.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.store.TestCertificates;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** TLS: the JDBC driver verifying the server's certificate, psql with sslmode=require, plain clients refused. */
class PgTlsIT {
    @Test
    void onlyTlsClientsAreServed(@TempDir Path dir) throws Exception {
        TestCertificates certs = TestCertificates.make(dir);
        PgServerConfig config = PgServerConfig.scram("127.0.0.1", 0, PgUsers.of(Map.of("u", "pw")))
                .withTls(PgTls.server(certs.cert(), certs.key()));
        try (PgTestServer server = new PgTestServer(config)) {
            String verified = "sslmode=verify-full&sslrootcert=" + certs.ca();
            try (Connection c = server.connect(verified, "u", "pw"); Statement s = c.createStatement()) {
                assertEquals(2, PgJdbcIT.count(s, "SELECT 1 + 1"));
            }
            SQLException plain = assertThrows(SQLException.class, () -> server.connect("sslmode=disable", "u", "pw"));
            assertEquals("28000", plain.getSQLState());
            assertTrue(plain.getMessage().contains("TLS connections only"), plain.getMessage());
            assertEquals("28P01", assertThrows(SQLException.class, () -> server.connect(verified, "u", "nope")).getSQLState());
            psqlOverTls(server.port());
        }
    }

    private static void psqlOverTls(int port) throws Exception {
        Path psql = Path.of("/usr/bin/psql");
        assumeTrue(Files.isExecutable(psql), "psql is not installed");
        ProcessBuilder pb = new ProcessBuilder(psql.toString(), "-X", "-A", "-t", "-c", "SELECT 40 + 2",
                "host=127.0.0.1 port=" + port + " user=u dbname=tell sslmode=require").redirectErrorStream(true);
        pb.environment().put("PGPASSWORD", "pw");
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), out);
        assertEquals("42", out.strip());
    }

    @Test
    void unusableFilesAreBadConfiguration(@TempDir Path dir) throws Exception {
        TestCertificates certs = TestCertificates.make(dir);
        assertEquals(ErrorCode.BAD_CONFIGURATION,
                assertThrows(TellException.class, () -> PgTls.server(certs.cert(), dir.resolve("missing.pem"))).code());
        assertEquals(ErrorCode.BAD_CONFIGURATION, assertThrows(TellException.class, () -> PgTls.server(certs.key(), certs.cert())).code());
    }
}
