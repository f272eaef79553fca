package io.tell.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The {@code tell pn} command line. */
class PgServerMainTest {
    @Test
    void defaultsToTrustOnAPrivateEmbeddedNode() throws io.tell.metrics.ServerProcess.UsageException {
        PgServerMain.Config c = PgServerMain.parse(new String[] {"--port", "25400"});
        assertEquals("127.0.0.1", c.host());
        assertEquals(25400, c.port());
        assertEquals("jdbc:tell:mem:", c.url());
        assertTrue(c.trust());
        assertEquals("default", c.pool());
        assertEquals("127.0.0.1", c.advertise());
        assertNull(PgServerMain.parse(new String[] {"--help"}));
    }

    @Test
    void poolAndAdvertisedHost() throws io.tell.metrics.ServerProcess.UsageException {
        PgServerMain.Config c = PgServerMain.parse(new String[] {"--port", "0", "--pool", "olap", "--advertise", "pn-olap-1"});
        assertEquals("olap", c.pool());
        assertEquals("pn-olap-1", c.advertise());
        assertThrows(io.tell.metrics.ServerProcess.UsageException.class, () -> PgServerMain.parse(new String[] {"--port", "0", "--pool", ""}));
    }

    @Test
    void storeAndCommitManagersMakeTheTellUrl() throws io.tell.metrics.ServerProcess.UsageException {
        PgServerMain.Config c = PgServerMain.parse(new String[] {"--port", "0", "--store", "redis://127.0.0.1:6390",
                "--cm", "127.0.0.1:7400,127.0.0.1:7401", "--users-file", "u"});
        assertEquals("jdbc:tell:redis://127.0.0.1:6390?cm=127.0.0.1:7400,127.0.0.1:7401", c.url());
        assertEquals("u", c.usersFile());
        assertEquals(false, c.trust());
    }

    @Test
    void aReadOnlyServerSpreadsScansOverTheCoresUnlessToldOtherwise() throws io.tell.metrics.ServerProcess.UsageException {
        int cores = Runtime.getRuntime().availableProcessors();
        assertEquals(cores < 2 ? "jdbc:tell:mem:" : "jdbc:tell:mem:?parallelism=" + cores,
                PgServerMain.parse(new String[] {"--port", "0", "--read-only"}).url());
        assertEquals("jdbc:tell:redis://h:1?cm=h:2&parallelism=3", PgServerMain.parse(new String[] {"--port", "0",
                "--store", "redis://h:1", "--cm", "h:2", "--parallelism", "3"}).url());
        assertEquals("jdbc:tell:mem:x?parallelism=5", PgServerMain.parse(new String[] {"--port", "0", "--read-only",
                "--url", "jdbc:tell:mem:x?parallelism=5"}).url(), "the URL's own setting stays");
        assertThrows(io.tell.metrics.ServerProcess.UsageException.class,
                () -> PgServerMain.parse(new String[] {"--port", "0", "--parallelism", "0"}));
    }

    @Test
    void refusesInconsistentOptions() {
        String[][] bad = {
            {}, {"--port", "x"}, {"--port", "70000"}, {"--port", "1", "--url", "jdbc:tell:mem:", "--store", "mem:"},
            {"--port", "1", "--cm", "h:1"}, {"--port", "1", "--auth", "scram"}, {"--port", "1", "--auth", "md5"},
            {"--port", "1", "--auth", "trust", "--users-file", "u"}, {"--port", "1", "--bogus", "1"}, {"--port"},
            {"--port", "1", "--tls-cert", "c.pem"}};
        for (String[] args : bad) {
            assertThrows(io.tell.metrics.ServerProcess.UsageException.class, () -> PgServerMain.parse(args), String.join(" ", args));
        }
    }
}
