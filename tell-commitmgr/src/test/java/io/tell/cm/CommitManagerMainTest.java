package io.tell.cm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class CommitManagerMainTest {

    @Test
    void parsesFlagsWithDefaults() throws Exception {
        CommitManagerMain.Config c = CommitManagerMain.parse(new String[] {"--port", "7070", "--store", "redis://127.0.0.1:6379"});
        assertEquals(new CommitManagerMain.Config("127.0.0.1", 7070, "redis://127.0.0.1:6379", 100, 3_000, null), c);
        assertTrue(c.durable());
        CommitManagerMain.Config m = CommitManagerMain.parse(new String[] {
            "--store", "mem:x", "--port", "0", "--host", "0.0.0.0", "--tid-range", "7", "--in-doubt-grace-ms", "50",
            "--secret-file", "/etc/tell/secret"});
        assertEquals(new CommitManagerMain.Config("0.0.0.0", 0, "mem:x", 7, 50, "/etc/tell/secret"), m);
        assertFalse(m.durable());
        assertEquals(7, m.options().tidRange());
        assertNull(CommitManagerMain.parse(new String[] {"--help"}));
        CommitManagerMain.Config tls = CommitManagerMain.parse(new String[] {
            "--port", "1", "--store", "mem:", "--tls-cert", "/etc/tell/cm.pem", "--tls-key", "/etc/tell/cm-key.pem"});
        assertEquals("/etc/tell/cm.pem", tls.tlsCert());
        assertEquals("/etc/tell/cm-key.pem", tls.tlsKey());
    }

    @Test
    void badArgumentsSayWhatIsWrong() {
        String[][] bad = {
            {},
            {"--store", "mem:"},
            {"--port", "1"},
            {"--port", "x", "--store", "mem:"},
            {"--port", "70000", "--store", "mem:"},
            {"--port", "1", "--store", "mem:", "--tid-range", "0"},
            {"--port", "1", "--store", "mem:", "--in-doubt-grace-ms", "-1"},
            {"--port", "1", "--store", "nourl"},
            {"--port", "1", "--store", "mem:", "--bogus", "1"},
            {"--port", "1", "--store"},
            {"--port", "1", "--store", "mem:", "--tls-cert", "/c.pem"},
            {"--port", "1", "--store", "mem:", "--tls-key", "/k.pem"},
            {"stray"},
        };
        for (String[] args : bad) {
            assertThrows(io.tell.metrics.ServerProcess.UsageException.class, () -> CommitManagerMain.parse(args), String.join(" ", args));
        }
    }

    @Test
    void badArgumentsExitWithCode2AndUsage() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = CommitManagerMain.run(new String[] {"--port", "abc", "--store", "mem:"}, new PrintStream(new ByteArrayOutputStream()),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(2, code);
        String text = err.toString(StandardCharsets.UTF_8);
        assertTrue(text.contains("--port wants a number"), text);
        assertTrue(text.contains("usage: tell commitmgr"), text);
    }

    @Test
    void anUnreadableSecretFileExitsWithCode2() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = CommitManagerMain.run(new String[] {"--port", "0", "--store", "mem:", "--secret-file", "/nonexistent/tell-secret"},
                new PrintStream(new ByteArrayOutputStream()), new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(2, code);
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("cannot read the cluster secret file /nonexistent/tell-secret"));
    }

    @Test
    void anUnreadableTlsCertificateExitsWithCode2() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = CommitManagerMain.run(new String[] {"--port", "0", "--store", "mem:", "--tls-cert", "/nonexistent/cm.pem",
            "--tls-key", "/nonexistent/cm-key.pem"}, new PrintStream(new ByteArrayOutputStream()), new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(2, code);
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("TLS certificate file /nonexistent/cm.pem is not readable"));
    }

    @Test
    void loopbackIsToldApartFromOtherAddresses() {
        assertTrue(io.tell.metrics.ServerProcess.isLoopback("127.0.0.1"));
        assertTrue(io.tell.metrics.ServerProcess.isLoopback("localhost"));
        assertFalse(io.tell.metrics.ServerProcess.isLoopback("0.0.0.0"));
    }

    @Test
    void unknownStoreSchemeExitsWithCode2() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = CommitManagerMain.run(new String[] {"--port", "0", "--store", "foo://x"}, new PrintStream(new ByteArrayOutputStream()),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(2, code);
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("no store backend"));
    }
}
