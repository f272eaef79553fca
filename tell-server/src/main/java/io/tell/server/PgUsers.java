package io.tell.server;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.server.internal.ScramVerifier;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The users a server with SCRAM-SHA-256 authentication accepts. A users file has one user a
 * line, {@code name:secret}, where the secret is either a password or a SCRAM verifier in
 * PostgreSQL's form ({@code SCRAM-SHA-256$4096:salt$StoredKey:ServerKey}, as
 * {@code pg_authid.rolpassword} holds it), which keeps the password itself off the machine.
 * Blank lines and lines starting with {@code #} are skipped. Passwords are turned into
 * verifiers when loaded; only verifiers are kept.
 */
public final class PgUsers {
    private final Map<String, ScramVerifier> verifiers;

    private PgUsers(Map<String, ScramVerifier> verifiers) {
        this.verifiers = Map.copyOf(verifiers);
    }

    /** Users with these passwords (name to password or verifier text). */
    public static PgUsers of(Map<String, String> secrets) {
        Map<String, ScramVerifier> out = new HashMap<>();
        secrets.forEach((name, secret) -> out.put(name, parseSecret(secret)));
        return new PgUsers(out);
    }

    /** Reads a users file; BAD_CONFIGURATION naming the line when one cannot be used. */
    public static PgUsers load(Path file) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw TellException.of(ErrorCode.BAD_CONFIGURATION, "cannot read the users file " + file + ": " + e, e);
        }
        Map<String, ScramVerifier> out = new HashMap<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            int colon = line.indexOf(':');
            if (colon <= 0 || colon == line.length() - 1) {
                throw TellException.of(ErrorCode.BAD_CONFIGURATION, file + " line " + (i + 1) + ": expected name:password");
            }
            try {
                out.put(line.substring(0, colon), parseSecret(line.substring(colon + 1)));
            } catch (IllegalArgumentException e) {
                throw TellException.of(ErrorCode.BAD_CONFIGURATION, file + " line " + (i + 1) + ": " + e.getMessage(), e);
            }
        }
        if (out.isEmpty()) {
            throw TellException.of(ErrorCode.BAD_CONFIGURATION, "the users file " + file + " names no user");
        }
        return new PgUsers(out);
    }

    private static ScramVerifier parseSecret(String secret) {
        return secret.startsWith("SCRAM-SHA-256$") ? ScramVerifier.parse(secret) : ScramVerifier.of(secret);
    }

    /** The verifier of {@code user}, or null for a user not configured. */
    public ScramVerifier verifier(String user) {
        return verifiers.get(user);
    }
}
