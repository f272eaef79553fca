package io.tell.server;

import static io.tell.server.PgWire.cstring;
import static io.tell.server.PgWire.frame;
import static io.tell.server.PgWire.int16;
import static io.tell.server.PgWire.int32;
import static io.tell.server.PgWire.query;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The protocol below any driver: message sequences, statuses, formats and errors, frame by frame. */
class PgProtocolIT {
    private static final byte[] SYNC = frame('S');
    private static PgTestServer server;

    @BeforeAll
    static void start() throws SQLException {
        server = PgTestServer.trust();
        try (Connection c = server.connect(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE n (id INTEGER PRIMARY KEY, v BIGINT)");
            for (int i = 1; i <= 100; i++) {
                s.execute("INSERT INTO n VALUES (" + i + ", " + i * 10 + ")");
            }
        }
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void sslRequestIsDeclined() throws IOException {
        try (Socket s = new Socket("127.0.0.1", server.port())) {
            s.getOutputStream().write(PgWire.frameless(int32(80877103)));
            assertEquals('N', s.getInputStream().read());
        }
    }

    /** ReadyForQuery tells idle, in a block, and failed block apart; empty queries answer EmptyQueryResponse. */
    @Test
    void simpleQueryStatuses() throws IOException {
        try (PgWire w = new PgWire(server.port(), "a")) {
            w.send(query(""));
            assertEquals("IZI", w.readUntilReady());
            w.send(query(" ; -- nothing\n"));
            assertEquals("IZI", w.readUntilReady());
            w.send(query("BEGIN; SELECT v FROM n WHERE id = 1"));
            assertEquals("CTDCZT", w.readUntilReady()); // BEGIN, RowDescription, DataRow, SELECT 1
            w.send(query("SELECT 1/0"));
            assertEquals("TEZE", w.readUntilReady());
            w.send(query("SELECT 1"));
            assertEquals("EZE", w.readUntilReady()); // 25P02
            w.send(query("ROLLBACK"));
            assertEquals("CZI", w.readUntilReady());
        }
    }

    /** Parse with $1 twice, Describe, Bind with a binary parameter and binary results, Execute in chunks of 2 over ids 97..100. */
    @Test
    void extendedQueryWithBinaryFormatsAndPortalSuspension() throws IOException {
        try (PgWire w = new PgWire(server.port(), "b")) {
            w.send(frame('P', cstring("q"), cstring("SELECT id, v FROM n WHERE id >= $1 AND v >= $1 * 10 ORDER BY id"),
                    int16(0)),
                    frame('D', new byte[] {'S'}, cstring("q")), SYNC);
            PgWire.Message parsed = w.read();
            assertEquals('1', parsed.type());
            PgWire.Message params = w.read();
            assertEquals('t', params.type());
            ByteBuffer p = params.buffer();
            assertEquals(1, p.getShort());
            assertEquals(23, p.getInt()); // int4, inferred from the column
            PgWire.Message rows = w.read();
            assertEquals('T', rows.type());
            assertEquals("ZI", w.readUntilReady());

            w.send(frame('B', cstring("p"), cstring("q"), int16(1), int16(1), int16(1), int32(4), int32(97), int16(1), int16(1)),
                    frame('E', cstring("p"), int32(2)), frame('E', cstring("p"), int32(2)), frame('E', cstring("p"), int32(2)),
                    frame('H'));
            assertEquals('2', w.read().type());
            int[] ids = new int[4];
            int n = 0;
            StringBuilder sequence = new StringBuilder();
            while (sequence.length() < 7) {
                PgWire.Message m = w.read();
                sequence.append(m.type());
                if (m.type() == 'D') {
                    ByteBuffer b = m.buffer();
                    assertEquals(2, b.getShort());
                    assertEquals(4, b.getInt()); // binary int4
                    ids[n++] = b.getInt();
                    assertEquals(8, b.getInt()); // binary int8
                    assertEquals(ids[n - 1] * 10L, b.getLong());
                }
            }
            // 2 rows and PortalSuspended; the last 2 rows and SELECT 2; then the exhausted portal's SELECT 0
            assertEquals("DDsDDCC", sequence.toString());
            assertEquals(97, ids[0]);
            assertEquals(100, ids[3]);
            w.send(SYNC);
            assertEquals("ZI", w.readUntilReady());
        }
    }

    /** Unknown statements (26000) and portals (34000); after an error, messages up to Sync are skipped. */
    @Test
    void errorsSkipToSync() throws IOException {
        try (PgWire w = new PgWire(server.port(), "c")) {
            w.send(frame('B', cstring(""), cstring("nope"), int16(0), int16(0), int16(0)),
                    frame('P', cstring(""), cstring("SELECT 1"), int16(0)), SYNC);
            PgWire.Message e = w.read();
            assertEquals('E', e.type());
            assertEquals("26000", e.sqlState());
            assertEquals("ZI", w.readUntilReady()); // the Parse after the error was skipped: no ParseComplete
            w.send(frame('E', cstring("nope"), int32(0)), SYNC);
            assertEquals("34000", w.read().sqlState());
            assertEquals("ZI", w.readUntilReady());
            w.send(frame('P', cstring("dup"), cstring("SELECT 1"), int16(0)), frame('P', cstring("dup"), cstring("SELECT 2"), int16(0)),
                    SYNC);
            assertEquals('1', w.read().type());
            assertEquals("42P05", w.read().sqlState());
            assertEquals("ZI", w.readUntilReady());
        }
    }

    /** 24 MiB of pipelined queries: reading pauses while they wait (above 16 MiB) and resumes, and every one is answered. */
    @Test
    void pipelinedFloodIsAnsweredInOrder() throws IOException {
        try (PgWire w = new PgWire(server.port(), "flood")) {
            String padding = "/*" + "x".repeat(1 << 20) + "*/";
            CompletableFuture<Void> sent = CompletableFuture.runAsync(() -> {
                try {
                    for (int i = 0; i < 24; i++) {
                        w.send(query("SELECT v FROM n WHERE id = " + (i + 1) + " " + padding));
                    }
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
            });
            for (int i = 0; i < 24; i++) {
                assertEquals('T', w.read().type());
                PgWire.Message row = w.read();
                assertEquals('D', row.type());
                assertEquals(String.valueOf((i + 1) * 10), new String(row.body(), 6, row.body().length - 6));
                assertEquals("CZI", w.readUntilReady());
            }
            sent.join();
        }
    }

    /** A statement waiting on the engine does not hold up other connections: statements run off the event loops. */
    @Test
    void slowStatementDoesNotStallOthers() throws Exception {
        try (PgWire slow = new PgWire(server.port(), "slow"); PgWire quick = new PgWire(server.port(), "quick")) {
            slow.send(query("SET statement_timeout = 3000; SELECT count(*) FROM n a, n b, n c, n d, n e"));
            CompletableFuture<String> slowDone = CompletableFuture.supplyAsync(() -> {
                try {
                    return slow.readUntilReady();
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
            });
            for (int i = 0; i < 20; i++) {
                quick.send(query("SELECT v FROM n WHERE id = 3"));
                assertEquals("TDCZI", quick.readUntilReady());
            }
            assertTrue(!slowDone.isDone(), "the slow statement should still be running");
            assertTrue(slowDone.get(30, TimeUnit.SECONDS).endsWith("EZI")); // 57014 after statement_timeout
        }
    }
}
