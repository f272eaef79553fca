package io.tell.server.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.junit.jupiter.api.Test;

/** SCRAM-SHA-256 against what PostgreSQL computes, and the exchange's refusals. */
public class PgScramTest {
    /** PostgreSQL 15's rolpassword for the password "tell" (CREATE ROLE … PASSWORD 'tell'). */
    public static final String POSTGRES_VERIFIER = "SCRAM-SHA-256$4096:H8tXeQA7FHJj1EE4ax5lxQ==$"
            + "ylJx165QqJAe+zQfXC04D3P3OA7dMAoNqILPr4lxDDk=:X4Cb+q1kQOvU1w9EHE1Ci8wdjevv7LO6IKvZlCBhBDM=";

    @Test
    void derivesTheKeysPostgresDerives() {
        ScramVerifier postgres = ScramVerifier.parse(POSTGRES_VERIFIER);
        ScramVerifier ours = ScramVerifier.of("tell", postgres.salt(), postgres.iterations());
        assertArrayEquals(postgres.storedKey(), ours.storedKey());
        assertArrayEquals(postgres.serverKey(), ours.serverKey());
        assertEquals(POSTGRES_VERIFIER, ours.toString());
    }

    @Test
    void refusesAForgedProofAndBadMessages() throws ScramExchange.Failure {
        ScramExchange exchange = new ScramExchange(ScramVerifier.parse(POSTGRES_VERIFIER));
        String serverFirst = new String(exchange.first("n,,n=,r=abc"), StandardCharsets.UTF_8);
        assertTrue(serverFirst.startsWith("r=abc"));
        String nonce = serverFirst.substring(2, serverFirst.indexOf(','));
        String forged = "c=biws,r=" + nonce + ",p=" + Base64.getEncoder().encodeToString(new byte[32]);
        assertTrue(assertThrows(ScramExchange.Failure.class, () -> exchange.last(forged)).badPassword);

        ScramExchange other = new ScramExchange(null);
        other.first("n,,n=,r=xyz");
        ScramExchange.Failure f = assertThrows(ScramExchange.Failure.class, () -> other.last("c=biws,r=wrongnonce,p=AAAA"));
        assertEquals(false, f.badPassword);
        assertThrows(ScramExchange.Failure.class, () -> new ScramExchange(null).first("p=tls-server-end-point,,n=,r=a"));
    }
}
