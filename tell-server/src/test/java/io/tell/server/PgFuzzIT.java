package io.tell.server;

import static io.tell.server.PgWire.concat;
import static io.tell.server.PgWire.cstring;
import static io.tell.server.PgWire.frame;
import static io.tell.server.PgWire.frameless;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Bad input at a PN server: malformed, truncated and oversize messages get a FATAL 08P01 and a
 * closed connection; seeded random and mutated frames (seed printed, {@code -Dtell.seed=N}
 * repeats a run) leave the server serving a well-formed client.
 */
class PgFuzzIT {
    private static PgTestServer server;

    @BeforeAll
    static void start() throws SQLException {
        server = PgTestServer.trust();
        try (Connection c = server.connect(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE fuzz (id INTEGER PRIMARY KEY, v VARCHAR(10))");
        }
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void oversizeAndMalformedMessagesCloseTheConnectionWith08P01() throws IOException {
        byte[] startup = PgWire.startup("fuzz");
        assertProtocolViolation(concat(startup, new byte[] {'Q', 0x7f, (byte) 0xff, (byte) 0xff, (byte) 0xff}));
        assertProtocolViolation(concat(startup, new byte[] {'Q', 0, 0, 0, 2}));                  // length below 4
        assertProtocolViolation(concat(startup, frame('Q', "no terminator".getBytes(StandardCharsets.UTF_8))));
        assertProtocolViolation(concat(startup, frame('?', new byte[0])));                         // unknown type
        assertProtocolViolation(concat(startup, frame('B', new byte[] {0, 0, 0, 1, 0})));          // truncated Bind
        assertProtocolViolation(new byte[] {0x7f, 0, 0, 0, 0, 0, 0, 0});                           // startup length
        assertProtocolViolation(frameless(new byte[] {0, 2, 0, 0, 'u', 0, 'x', 0, 0}));           // protocol 2.0
    }

    /** A message over the configured bound, and a client that never logs in, are turned away. */
    @Test
    void messageBoundAndLoginTimeout() throws IOException {
        PgServerConfig config = PgServerConfig.trust("127.0.0.1", 0).withMaxMessageBytes(1024)
                .withAuthenticationTimeout(java.time.Duration.ofMillis(500));
        try (PgTestServer small = new PgTestServer(config)) {
            byte[] big = concat(PgWire.startup("fuzz"), PgWire.query("SELECT '" + "x".repeat(2000) + "'"));
            String reply = exchange(small.port(), big, true);
            assertTrue(reply.contains("08P01") && reply.contains("outside 4..1024"), reply);
            long start = System.nanoTime();
            String silent = exchange(small.port(), new byte[0], false);
            assertTrue(silent.contains("authentication timeout"), silent);
            assertTrue(System.nanoTime() - start < 20_000_000_000L);
        }
    }

    private static void assertProtocolViolation(byte[] bytes) throws IOException {
        String reply = exchange(bytes);
        assertTrue(reply.contains("08P01"), () -> "no 08P01 in: " + reply);
    }

    @Test
    void randomAndMutatedFramesLeaveTheServerServing() throws IOException, SQLException {
        long seed = Long.getLong("tell.seed", System.nanoTime());
        System.out.println("PgFuzzIT seed " + seed + " (repeat with -Dtell.seed=" + seed + ")");
        Random random = new Random(seed);
        List<byte[]> valid = List.of(
                frame('Q', cstring("SELECT id, v FROM fuzz WHERE id > 1")),
                frame('Q', cstring("INSERT INTO fuzz VALUES (1, 'a'); BEGIN; SELECT 1/0; ROLLBACK")),
                concat(frame('P', concat(cstring("s1"), cstring("SELECT v FROM fuzz WHERE id = $1"), new byte[] {0, 1, 0, 0, 0, 23})),
                        frame('B', concat(cstring(""), cstring("s1"), new byte[] {0, 0, 0, 1, 0, 0, 0, 1, '7', 0, 0})),
                        frame('D', concat(new byte[] {'P'}, cstring(""))), frame('E', concat(cstring(""), new byte[4])),
                        frame('S', new byte[0])),
                frame('Q', cstring("COPY fuzz FROM STDIN")),
                frame('d', "9\tx\n".getBytes(StandardCharsets.UTF_8)),
                frame('c', new byte[0]));
        for (int round = 0; round < 300; round++) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            int kind = random.nextInt(3);
            if (kind == 0) {
                byte[] noise = new byte[random.nextInt(64)];
                random.nextBytes(noise);
                out.write(noise);
            } else {
                out.write(PgWire.startup("fuzz"));
                for (int i = random.nextInt(6); i >= 0; i--) {
                    byte[] f = valid.get(random.nextInt(valid.size())).clone();
                    if (kind == 2) {
                        mutate(f, random);
                    }
                    out.write(f, 0, kind == 2 && random.nextInt(4) == 0 ? random.nextInt(f.length + 1) : f.length);
                }
            }
            exchange(out.toByteArray());
        }
        try (Connection c = server.connect(); Statement s = c.createStatement()) {
            assertEquals(3, PgJdbcIT.count(s, "SELECT 1 + 2"));
        }
    }

    private static void mutate(byte[] f, Random random) {
        for (int i = random.nextInt(3); i >= 0; i--) {
            int at = random.nextInt(f.length);
            f[at] = switch (random.nextInt(3)) {
                case 0 -> (byte) random.nextInt(256);
                case 1 -> 0;
                default -> (byte) 0xff;
            };
        }
    }

    private static String exchange(byte[] bytes) throws IOException {
        return exchange(server.port(), bytes, true);
    }

    /** Sends {@code bytes}, half-closes if asked, and returns what came back until the server closed (or went quiet). */
    private static String exchange(int port, byte[] bytes, boolean halfClose) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(5_000);
            socket.getOutputStream().write(bytes);
            if (halfClose) {
                socket.shutdownOutput();
            }
            InputStream in = socket.getInputStream();
            ByteArrayOutputStream reply = new ByteArrayOutputStream();
            try {
                in.transferTo(reply);
            } catch (SocketTimeoutException | java.net.SocketException e) {
                // the server may reset a connection it closed with input still unread
            }
            return reply.toString(StandardCharsets.ISO_8859_1);
        }
    }
}
