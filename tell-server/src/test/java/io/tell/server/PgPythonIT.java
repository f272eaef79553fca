package io.tell.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A client without JDBC: a Python program on Debian's psycopg2 (libpq, simple query protocol with
 * the parameters inlined as literals) runs transactions with parameters against a PN server and
 * checks the rows it reads back. Skipped only where {@code /usr/bin/python3} cannot import
 * psycopg2 ({@code ./tell test} installs python3-psycopg2 when root).
 */
class PgPythonIT {
    private static final Path PYTHON = Path.of("/usr/bin/python3");

    @Test
    void psycopg2RunsATransactionWithParameters(@TempDir Path dir) throws IOException, InterruptedException {
        assumeTrue(psycopg2Installed(), "/usr/bin/python3 cannot import psycopg2 (Debian: apt-get install python3-psycopg2)");
        Path script = dir.resolve("psycopg2_client.py");
        try (InputStream in = getClass().getResourceAsStream("/python/psycopg2_client.py")) {
            Files.write(script, in.readAllBytes());
        }
        try (PgTestServer server = PgTestServer.trust()) {
            Process p = new ProcessBuilder(PYTHON.toString(), script.toString(), String.valueOf(server.port()))
                    .redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(p.waitFor(60, TimeUnit.SECONDS), "python did not finish");
            assertEquals(0, p.exitValue(), out);
            assertEquals("OK 2 rows", out.strip());
        }
    }

    private static boolean psycopg2Installed() throws IOException, InterruptedException {
        if (!Files.isExecutable(PYTHON)) {
            return false;
        }
        Process p = new ProcessBuilder(PYTHON.toString(), "-c", "import psycopg2").redirectErrorStream(true).start();
        p.getInputStream().readAllBytes();
        return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
    }
}
