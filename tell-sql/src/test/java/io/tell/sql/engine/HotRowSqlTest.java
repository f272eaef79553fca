package io.tell.sql.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.sql.ColumnType;
import io.tell.sql.ProcessingNode;
import io.tell.sql.SqlResult;
import io.tell.sql.SqlSession;
import io.tell.sql.TableSpec;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A statement of a transaction that wrote a hot row (one the node lately lost a conflict on)
 * fails with the conflict once another writer's version of that row shows, whichever statement
 * read it: a point select by primary key fails, it does not come back empty.
 */
class HotRowSqlTest {
    private ProcessingNode node;
    private SqlSession a;
    private SqlSession b;

    @BeforeEach
    void setUp() {
        node = ProcessingNode.connect("jdbc:tell:mem:");
        node.catalog().createTable(TableSpec.builder("ACCT").notNull("ID", ColumnType.INTEGER)
                .column("N", ColumnType.BIGINT).primaryKey("ID").build(), false);
        a = node.openSession();
        b = node.openSession();
        exec(a, "INSERT INTO acct VALUES (1, 0), (2, 0), (3, 0)");
        a.setAutoCommit(false);
        b.setAutoCommit(false);
    }

    @AfterEach
    void tearDown() {
        a.close();
        b.close();
        node.close();
    }

    @Test
    void aReadAfterAnotherWriterCommittedTheHotRowFailsWithTheConflict() {
        // Three times both write row 1 and b loses at its commit: row 1 is hot from now on.
        for (int i = 0; i < 3; i++) {
            exec(a, "UPDATE acct SET n = n + 1 WHERE id = 1");
            exec(b, "UPDATE acct SET n = n + 10 WHERE id = 1");
            a.commit();
            assertEquals(ErrorCode.TX_CONFLICT, assertThrows(TellException.class, b::commit).code());
        }

        exec(a, "UPDATE acct SET n = n + 1 WHERE id = 1");
        exec(b, "UPDATE acct SET n = n + 100 WHERE id = 1");
        b.commit();
        TellException e = assertThrows(TellException.class, () -> scalar(a, "SELECT n FROM acct WHERE id = 2"));
        assertEquals(ErrorCode.TX_CONFLICT, e.code());
        assertEquals(1, node.transactions().earlyConflicts());

        a.rollback();
        assertEquals(103L, scalar(a, "SELECT n FROM acct WHERE id = 1"));
        exec(a, "UPDATE acct SET n = n + 1 WHERE id = 1");
        assertEquals(0L, scalar(a, "SELECT n FROM acct WHERE id = 3"));
        a.commit();
        assertEquals(104L, scalar(b, "SELECT n FROM acct WHERE id = 1"));
    }

    private static void exec(SqlSession s, String sql) {
        s.execute(s.prepare(sql), List.of(), 0, 0).close();
    }

    private static Object scalar(SqlSession s, String sql) {
        try (SqlResult r = s.execute(s.prepare(sql), List.of(), 0, 0)) {
            if (!r.next()) {
                throw new AssertionError("no row: " + sql);
            }
            return Arrays.asList(r.row()).get(0);
        }
    }
}
