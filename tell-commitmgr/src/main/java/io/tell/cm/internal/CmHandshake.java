package io.tell.cm.internal;

import io.tell.cm.ClusterSecret;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;

/**
 * The proofs of the {@link CmProtocol} handshake. Each side proves it holds the cluster secret
 * with an HMAC over both nonces: the server's nonce makes a recorded AUTH useless on another
 * connection, the client's makes a recorded AUTHENTICATED useless to a fake server, and the
 * different labels keep one side's proof from being reflected as the other's.
 */
public final class CmHandshake {
    public static final int NONCE_BYTES = 32;
    public static final int PROOF_BYTES = 32;
    private static final byte[] CLIENT = "tell-cm-client\0".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] SERVER = "tell-cm-server\0".getBytes(StandardCharsets.US_ASCII);
    private static final SecureRandom RANDOM = new SecureRandom();

    private CmHandshake() {
    }

    public static byte[] nonce() {
        byte[] nonce = new byte[NONCE_BYTES];
        RANDOM.nextBytes(nonce);
        return nonce;
    }

    public static byte[] clientProof(ClusterSecret secret, byte[] serverNonce, byte[] clientNonce) {
        return secret.mac(CLIENT, serverNonce, clientNonce);
    }

    public static byte[] serverProof(ClusterSecret secret, byte[] serverNonce, byte[] clientNonce) {
        return secret.mac(SERVER, serverNonce, clientNonce);
    }

    /** Compares in constant time, so the time to refuse tells nothing about how much of a proof was right. */
    public static boolean matches(byte[] expected, byte[] given) {
        return MessageDigest.isEqual(expected, given);
    }
}
