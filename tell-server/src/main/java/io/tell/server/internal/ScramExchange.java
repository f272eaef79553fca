package io.tell.server.internal;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;

/**
 * The server side of one SCRAM-SHA-256 exchange, as PostgreSQL runs it: the user name comes
 * from the startup message (the client-first message's {@code n=} is ignored), no channel
 * binding. For an unknown user it runs against a made-up verifier, so the answer ("password
 * authentication failed") and its timing do not tell whether the user exists.
 */
final class ScramExchange {
    /** The client's messages did not follow the protocol (08P01), or the proof was wrong (28P01). */
    static final class Failure extends Exception {
        private static final long serialVersionUID = 1L;
        final boolean badPassword;

        Failure(boolean badPassword, String message) {
            super(message);
            this.badPassword = badPassword;
        }
    }

    private static final SecureRandom RANDOM = new SecureRandom();

    private final ScramVerifier verifier;
    private final boolean knownUser;
    private String gs2Header;
    private String clientFirstBare;
    private String serverFirst;
    private String nonce;

    ScramExchange(ScramVerifier verifier) {
        this.knownUser = verifier != null;
        this.verifier = verifier != null ? verifier : ScramVerifier.of(randomText());
    }

    /** Takes the SASLInitialResponse data (mechanism already checked) and returns server-first-message. */
    byte[] first(String clientFirst) throws Failure {
        if (!clientFirst.startsWith("n,") && !clientFirst.startsWith("y,")) {
            throw new Failure(false, "SCRAM channel binding is not supported; the client-first-message must start with n, or y,");
        }
        int bare = clientFirst.indexOf(',', 2);
        if (bare < 0) {
            throw new Failure(false, "malformed SCRAM client-first-message");
        }
        clientFirstBare = clientFirst.substring(bare + 1);
        String clientNonce = attribute(clientFirstBare, "r");
        nonce = clientNonce + randomText();
        serverFirst = "r=" + nonce + ",s=" + Base64.getEncoder().encodeToString(verifier.salt()) + ",i=" + verifier.iterations();
        gs2Header = clientFirst.substring(0, bare + 1);
        return serverFirst.getBytes(StandardCharsets.UTF_8);
    }

    /** Checks client-final-message and returns server-final-message ({@code v=…}). */
    byte[] last(String clientFinal) throws Failure {
        int proofAt = clientFinal.lastIndexOf(",p=");
        if (proofAt < 0) {
            throw new Failure(false, "malformed SCRAM client-final-message");
        }
        String withoutProof = clientFinal.substring(0, proofAt);
        String binding = attribute(withoutProof, "c");
        if (!binding.equals(Base64.getEncoder().encodeToString(gs2Header.getBytes(StandardCharsets.UTF_8)))) {
            throw new Failure(false, "SCRAM channel binding does not match");
        }
        if (!attribute(withoutProof, "r").equals(nonce)) {
            throw new Failure(false, "SCRAM nonce does not match");
        }
        byte[] proof;
        try {
            proof = Base64.getDecoder().decode(clientFinal.substring(proofAt + 3));
        } catch (IllegalArgumentException e) {
            throw new Failure(false, "SCRAM proof is not base64");
        }
        String authMessage = clientFirstBare + "," + serverFirst + "," + withoutProof;
        byte[] signature = ScramVerifier.hmac(verifier.storedKey(), authMessage);
        if (proof.length != signature.length) {
            throw new Failure(false, "SCRAM proof has the wrong length");
        }
        byte[] clientKey = new byte[proof.length];
        for (int i = 0; i < proof.length; i++) {
            clientKey[i] = (byte) (proof[i] ^ signature[i]);
        }
        boolean matches = MessageDigest.isEqual(ScramVerifier.sha256(clientKey), verifier.storedKey());
        if (!matches || !knownUser) {
            throw new Failure(true, "password authentication failed");
        }
        byte[] serverSignature = ScramVerifier.hmac(verifier.serverKey(), authMessage);
        return ("v=" + Base64.getEncoder().encodeToString(serverSignature)).getBytes(StandardCharsets.UTF_8);
    }

    /** The value of {@code name=} among the comma-separated attributes. */
    private static String attribute(String message, String name) throws Failure {
        for (String part : message.split(",")) {
            if (part.startsWith(name + "=")) {
                return part.substring(name.length() + 1);
            }
        }
        throw new Failure(false, "SCRAM message lacks its " + name + "= attribute");
    }

    private static String randomText() {
        byte[] b = new byte[18];
        RANDOM.nextBytes(b);
        return Base64.getEncoder().encodeToString(b);
    }
}
