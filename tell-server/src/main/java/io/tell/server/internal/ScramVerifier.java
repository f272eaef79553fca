package io.tell.server.internal;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.text.Normalizer;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * What the server keeps of a password for SCRAM-SHA-256 (RFC 5802, RFC 7677): salt, iteration
 * count, StoredKey and ServerKey; never the password. Its text form is PostgreSQL's
 * {@code pg_authid.rolpassword}: {@code SCRAM-SHA-256$4096:salt$StoredKey:ServerKey}, base64.
 */
public record ScramVerifier(int iterations, byte[] salt, byte[] storedKey, byte[] serverKey) {
    static final String PREFIX = "SCRAM-SHA-256$";
    private static final int DEFAULT_ITERATIONS = 4096;
    private static final SecureRandom RANDOM = new SecureRandom();

    /** A verifier for {@code password} with a fresh random salt. */
    public static ScramVerifier of(String password) {
        byte[] salt = new byte[16];
        RANDOM.nextBytes(salt);
        return of(password, salt, DEFAULT_ITERATIONS);
    }

    static ScramVerifier of(String password, byte[] salt, int iterations) {
        byte[] salted = saltedPassword(password, salt, iterations);
        return new ScramVerifier(iterations, salt, sha256(hmac(salted, "Client Key")), hmac(salted, "Server Key"));
    }

    /** Parses PostgreSQL's form; IllegalArgumentException when {@code text} is not one. */
    public static ScramVerifier parse(String text) {
        if (!text.startsWith(PREFIX)) {
            throw new IllegalArgumentException("not a SCRAM-SHA-256 verifier");
        }
        String[] parts = text.substring(PREFIX.length()).split("[:$]");
        if (parts.length != 4) {
            throw new IllegalArgumentException("a SCRAM-SHA-256 verifier is SCRAM-SHA-256$ITERATIONS:SALT$STOREDKEY:SERVERKEY");
        }
        Base64.Decoder b64 = Base64.getDecoder();
        int iterations = Integer.parseInt(parts[0]);
        if (iterations < 1) {
            throw new IllegalArgumentException("iteration count must be positive");
        }
        return new ScramVerifier(iterations, b64.decode(parts[1]), b64.decode(parts[2]), b64.decode(parts[3]));
    }

    @Override
    public String toString() {
        Base64.Encoder b64 = Base64.getEncoder();
        return PREFIX + iterations + ":" + b64.encodeToString(salt) + "$" + b64.encodeToString(storedKey) + ":"
                + b64.encodeToString(serverKey);
    }

    /**
     * Hi() of RFC 5802: PBKDF2 with HMAC-SHA-256 over the password. PostgreSQL applies SASLprep
     * where it can; NFKC normalisation is the part of it that changes ordinary passwords.
     */
    private static byte[] saltedPassword(String password, byte[] salt, int iterations) {
        byte[] key = Normalizer.normalize(password, Normalizer.Form.NFKC).getBytes(StandardCharsets.UTF_8);
        Mac mac = mac(key);
        mac.update(salt);
        byte[] u = mac.doFinal(new byte[] {0, 0, 0, 1});
        byte[] result = u.clone();
        for (int i = 1; i < iterations; i++) {
            u = mac.doFinal(u);
            for (int j = 0; j < result.length; j++) {
                result[j] ^= u[j];
            }
        }
        return result;
    }

    static byte[] hmac(byte[] key, String message) {
        return mac(key).doFinal(message.getBytes(StandardCharsets.UTF_8));
    }

    private static Mac mac(byte[] key) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return mac;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the JDK lacks HmacSHA256", e);
        }
    }

    static byte[] sha256(byte[] data) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(data);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the JDK lacks SHA-256", e);
        }
    }
}
