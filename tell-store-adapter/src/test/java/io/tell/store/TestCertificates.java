package io.tell.store;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A throw-away CA and a server certificate for IP 127.0.0.1 signed by it, made with
 * {@code openssl} in a test's directory: {@code ca.pem}, {@code server.pem} and its key
 * {@code server-key.pem} (unencrypted PKCS#8). Shared by the Redis and commit-manager TLS tests.
 */
public record TestCertificates(Path ca, Path cert, Path key) {

    /** Makes them in {@code dir}; valid for one day. */
    public static TestCertificates make(Path dir) throws IOException, InterruptedException {
        TestCertificates c = new TestCertificates(dir.resolve("ca.pem"), dir.resolve("server.pem"), dir.resolve("server-key.pem"));
        Path caKey = dir.resolve("ca-key.pem");
        Path csr = dir.resolve("server.csr");
        Path ext = dir.resolve("san.ext");
        Files.writeString(ext, "subjectAltName=IP:127.0.0.1\n");
        openssl(dir, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=tell test CA",
                "-keyout", caKey.toString(), "-out", c.ca().toString());
        openssl(dir, "req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=127.0.0.1",
                "-keyout", c.key().toString(), "-out", csr.toString());
        openssl(dir, "x509", "-req", "-in", csr.toString(), "-CA", c.ca().toString(), "-CAkey", caKey.toString(),
                "-CAcreateserial", "-days", "1", "-extfile", ext.toString(), "-out", c.cert().toString());
        return c;
    }

    private static void openssl(Path dir, String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("openssl"));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IllegalStateException("openssl " + String.join(" ", args) + " failed:\n" + out);
        }
    }
}
