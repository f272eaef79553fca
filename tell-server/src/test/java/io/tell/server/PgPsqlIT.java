package io.tell.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Debian's psql against a PN server with SCRAM: a script of several statements, a transaction,
 * {@code \timing}, {@code \copy} from a CSV file and of a query to one. Skipped only where psql is not installed
 * ({@code ./tell test} and CI install postgresql-client).
 */
class PgPsqlIT {
    private static final Path PSQL = Path.of("/usr/bin/psql");

    @Test
    void scriptRunsWithTimingAndCopy(@TempDir Path dir) throws IOException, InterruptedException {
        assumeTrue(Files.isExecutable(PSQL), "psql is not installed (Debian: apt-get install postgresql-client)");
        Path csv = dir.resolve("cities.csv");
        Files.writeString(csv, "3,Geneva,203000\n4,\"Basel, BS\",173000\n");
        Path script = dir.resolve("script.sql");
        Files.writeString(script, String.join("\n",
                "\\timing on",
                "CREATE TABLE city (id INTEGER PRIMARY KEY, name VARCHAR(30), pop BIGINT);",
                "INSERT INTO city VALUES (1, 'Zurich', 421000), (2, 'Bern', 134000);",
                "\\copy city FROM '" + csv + "' WITH (FORMAT csv)",
                "BEGIN;",
                "UPDATE city SET pop = pop + 1 WHERE id = 1;",
                "COMMIT;",
                "MERGE INTO city USING (VALUES (2, 1000), (5, 5000)) AS v (id, pop) ON city.id = v.id"
                        + " WHEN MATCHED THEN UPDATE SET pop = city.pop + v.pop WHEN NOT MATCHED THEN INSERT VALUES (v.id, 'Chur', v.pop);",
                "SELECT id, name, pop FROM city ORDER BY id;",
                "SELECT count(*) AS n, sum(pop) AS total FROM city; SHOW application_name;",
                "\\copy (SELECT id, name FROM city WHERE id BETWEEN 3 AND 4 ORDER BY id) TO '" + dir.resolve("out.csv") + "' WITH (FORMAT csv, HEADER)",
                ""));
        try (PgTestServer server = PgTestServer.scram(Map.of("u", "pw"))) {
            List<String> lines = psql(server, script, "pw");
            assertTrue(lines.contains("INSERT 0 2"), lines::toString);
            assertTrue(lines.contains("COPY 2"), lines::toString);
            assertTrue(lines.contains("1|Zurich|421001"), lines::toString);
            assertTrue(lines.contains("4|Basel, BS|173000"), lines::toString);
            assertTrue(lines.contains("MERGE 2"), lines::toString);
            assertTrue(lines.contains("2|Bern|135000"), lines::toString);
            assertTrue(lines.contains("5|Chur|5000"), lines::toString);
            assertTrue(lines.contains("5|937001"), lines::toString);
            assertTrue(lines.contains("psql"), lines::toString);
            assertTrue(lines.stream().anyMatch(l -> l.matches("Time: [0-9.]+ ms.*")), lines::toString);
            assertEquals("ID,NAME\n3,Geneva\n4,\"Basel, BS\"\n", Files.readString(dir.resolve("out.csv")));

            Files.writeString(script, "SELECT 1;\n");
            List<String> refused = psql(server, script, "wrong");
            assertTrue(String.join("\n", refused).contains("password authentication failed for user \"u\""), refused::toString);
        }
    }

    /** Runs {@code script} with ON_ERROR_STOP, unaligned output; returns stdout and stderr lines. */
    private static List<String> psql(PgTestServer server, Path script, String password) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(PSQL.toString(), "-X", "-A", "-h", "127.0.0.1", "-p", String.valueOf(server.port()),
                "-U", "u", "-d", "tell", "-v", "ON_ERROR_STOP=1", "-f", script.toString())
                .redirectErrorStream(true);
        pb.environment().put("PGPASSWORD", password);
        pb.environment().put("PGCLIENTENCODING", "UTF8");
        pb.environment().put("PGAPPNAME", "psql");
        Process p = pb.start();
        byte[] out = p.getInputStream().readAllBytes();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "psql did not finish");
        List<String> lines = new String(out, StandardCharsets.UTF_8).lines().toList();
        if (password.equals("pw")) {
            assertEquals(0, p.exitValue(), () -> String.join("\n", lines));
        }
        return lines;
    }
}
