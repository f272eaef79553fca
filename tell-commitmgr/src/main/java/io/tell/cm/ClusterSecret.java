package io.tell.cm;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.util.Arrays;
import java.util.Map;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The secret every member of a Tell cluster holds: commit managers serve only peers that prove
 * they know it, and prove it back ({@code CmProtocol}'s handshake). It never leaves the
 * process: only HMAC-SHA256 values computed with it go on the wire, and {@link #toString()}
 * does not show it.
 *
 * <p>Where it comes from is decided here, for every process alike ({@link #configured}): a file
 * ({@code tell commitmgr --secret-file PATH}, {@code cmSecretFile=PATH} in a Tell JDBC URL), else
 * the environment variable {@value #ENV}, else none — and no secret means no authentication,
 * which is for local development only.
 */
public final class ClusterSecret {
    /** The environment variable holding the secret itself when no file is given. */
    public static final String ENV = "TELL_CLUSTER_SECRET";
    /** Shorter secrets are refused: they could be guessed from one recorded handshake. */
    public static final int MIN_BYTES = 16;

    private final SecretKeySpec key;

    private ClusterSecret(byte[] key) {
        this.key = new SecretKeySpec(key, "HmacSHA256");
    }

    /** A secret from its text; surrounding white space (a file's final newline) is not part of it. */
    public static ClusterSecret of(String text) {
        byte[] bytes = text == null ? new byte[0] : text.strip().getBytes(StandardCharsets.UTF_8);
        if (bytes.length < MIN_BYTES) {
            throw TellException.of(ErrorCode.BAD_CONFIGURATION,
                    "the cluster secret must be at least " + MIN_BYTES + " bytes (e.g. openssl rand -hex 32), got " + bytes.length);
        }
        ClusterSecret secret = new ClusterSecret(bytes);
        Arrays.fill(bytes, (byte) 0);
        return secret;
    }

    public static ClusterSecret fromFile(Path file) {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw TellException.of(ErrorCode.BAD_CONFIGURATION, "cannot read the cluster secret file " + file + ": " + e, e);
        }
        try {
            return of(text);
        } catch (TellException e) {
            throw TellException.of(ErrorCode.BAD_CONFIGURATION, e.getMessage() + " in " + file);
        }
    }

    /** The secret of this process: {@code secretFile} when not null, else {@value #ENV}, else null (none). */
    public static ClusterSecret configured(String secretFile) {
        return configured(secretFile, System.getenv());
    }

    static ClusterSecret configured(String secretFile, Map<String, String> environment) {
        if (secretFile != null) {
            return fromFile(Path.of(secretFile));
        }
        String text = environment.get(ENV);
        return text == null || text.isEmpty() ? null : of(text);
    }

    /** HMAC-SHA256 of the concatenated {@code parts} under this secret. */
    public byte[] mac(byte[]... parts) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(key);
            for (byte[] part : parts) {
                mac.update(part);
            }
            return mac.doFinal();
        } catch (GeneralSecurityException e) {
            throw TellException.of(ErrorCode.INTERNAL, "HmacSHA256 unavailable: " + e, e);
        }
    }

    @Override
    public String toString() {
        return "ClusterSecret[***]";
    }
}
