package io.tell.sql.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.sql.ProcessingNode;
import io.tell.sql.SqlResult;
import io.tell.sql.SqlSession;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Schema changes against transactions in flight: a writer that began under one catalog version
 * cannot commit after DDL published another (40001), CREATE INDEX waits for the writers that
 * began before it and is not read by queries until filled, and readers are not disturbed.
 */
class OnlineSchemaChangeTest {
    private ProcessingNode node;
    private SqlSession a;
    private SqlSession b;

    @BeforeEach
    void open() {
        node = ProcessingNode.connect("jdbc:tell:mem:");
        a = node.openSession();
        b = node.openSession();
        run(a, "CREATE TABLE t (id INT PRIMARY KEY, v INT)");
        run(a, "INSERT INTO t VALUES (1, 10), (2, 20)");
    }

    @AfterEach
    void close() {
        a.close();
        b.close();
        node.close();
    }

    @Test
    @Timeout(60)
    void aWriterFromBeforeADdlCannotCommitAfterIt() throws Exception {
        a.setAutoCommit(false);
        run(a, "INSERT INTO t VALUES (3, 30)");
        CompletableFuture<Void> ddl = CompletableFuture.runAsync(() -> run(b, "CREATE INDEX t_v ON t (v)"));
        Thread.sleep(100);
        assertFalse(ddl.isDone(), "CREATE INDEX waits for the writer that began before it");
        TellException e = assertThrows(TellException.class, a::commit);
        assertSame(ErrorCode.TX_CONFLICT, e.code(), e::getMessage);
        assertTrue(e.getMessage().contains("DDL"), e::getMessage);
        ddl.get(30, TimeUnit.SECONDS);
        run(a, "INSERT INTO t VALUES (3, 30)"); // again, under the new catalog
        a.commit();
        assertEquals(List.of(List.of(3)), rows(b, "SELECT id FROM t WHERE v = 30"));
        assertTrue(String.valueOf(rows(b, "EXPLAIN PLAN FOR SELECT id FROM t WHERE v = 30")).contains("T_V"));
    }

    @Test
    void readersAndLaterWritersAreNotDisturbed() {
        a.setAutoCommit(false);
        assertEquals(2, rows(a, "SELECT id FROM t").size()); // a reader, still open
        run(b, "CREATE TABLE other (x INT)");
        assertEquals(2, rows(a, "SELECT id FROM t").size());
        a.commit();
        run(a, "UPDATE t SET v = 11 WHERE id = 1"); // began after the DDL
        a.commit();
        assertEquals(List.of(List.of(11)), rows(b, "SELECT v FROM t WHERE id = 1"));
    }

    private static void run(SqlSession s, String sql) {
        s.execute(s.prepare(sql), List.of(), 0, 0).close();
    }

    private static List<List<Object>> rows(SqlSession s, String sql) {
        List<List<Object>> out = new ArrayList<>();
        try (SqlResult r = s.execute(s.prepare(sql), List.of(), 0, 0)) {
            while (r.next()) {
                out.add(List.of(r.row()));
            }
        }
        return out;
    }
}
