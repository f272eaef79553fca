package io.tell.store.redis;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The blocking RESP connection against a real redis-server: values and pipelines larger than its buffers. */
class RespConnectionIT {
    @RegisterExtension
    static final RedisServerExtension REDIS = new RedisServerExtension();

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    @Test
    void valuesAndPipelinesLargerThanTheBuffersRoundTrip() throws Exception {
        Random random = new Random(42);
        try (RespConnection c = RespConnection.open(REDIS.process().host(), REDIS.process().port(), 5000)) {
            List<byte[]> values = new ArrayList<>();
            for (int size : new int[] {0, 1, 65_534, 65_535, 65_536, 65_537, 200_000, 3 << 20}) {
                byte[] v = new byte[size];
                random.nextBytes(v);
                values.add(v);
            }
            for (int i = 0; i < values.size(); i++) { // one pipeline: several buffers' worth of commands
                c.send(ascii("SET"), ascii("resp:" + i), values.get(i));
            }
            c.flush();
            for (int i = 0; i < values.size(); i++) {
                assertArrayEquals(ascii("OK"), (byte[]) c.read());
            }
            byte[][] mget = new byte[values.size() + 2][];
            mget[0] = ascii("MGET");
            for (int i = 0; i < values.size(); i++) {
                mget[i + 1] = ascii("resp:" + i);
            }
            mget[values.size() + 1] = ascii("resp:absent");
            c.send(mget);
            c.send(ascii("INCRBY"), ascii("resp:n"), ascii("12345678901"));
            c.send(ascii("NOSUCHCOMMAND"));
            c.flush();
            List<?> got = (List<?>) c.read();
            for (int i = 0; i < values.size(); i++) {
                assertArrayEquals(values.get(i), (byte[]) got.get(i), "value " + i);
            }
            assertEquals(null, got.get(values.size()));
            assertEquals(12345678901L, c.read());
            assertInstanceOf(RespConnection.Error.class, c.read());
            c.send(ascii("PING"));
            c.flush();
            assertArrayEquals(ascii("PONG"), (byte[]) c.read(), "still in step after an error reply");
            for (long n : new long[] {Long.MIN_VALUE, Long.MAX_VALUE, -5, 0}) { // integer replies at their limits
                c.send(ascii("SET"), ascii("resp:limit"), ascii(Long.toString(n)));
                c.send(ascii("INCRBY"), ascii("resp:limit"), ascii("0"));
                c.flush();
                assertArrayEquals(ascii("OK"), (byte[]) c.read());
                assertEquals(n, c.read());
            }
        }
    }
}
