package io.tell.sql.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tell.sql.ColumnType;
import io.tell.sql.PreparedSql;
import io.tell.sql.ProcessingNode;
import io.tell.sql.SqlResult;
import io.tell.sql.SqlSession;
import io.tell.sql.TableSpec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class EngineSmokeTest {
    static List<String> run(SqlSession s, String sql, Object... params) {
        PreparedSql p = s.prepare(sql);
        SqlResult r = s.execute(p, Arrays.asList(params), 0, 0);
        List<String> out = new ArrayList<>();
        if (!r.hasRows()) {
            out.add("count=" + r.updateCount());
        }
        while (r.next()) {
            out.add(Arrays.toString(r.row()));
        }
        return out;
    }

    @Test
    void basics() {
        try (ProcessingNode node = ProcessingNode.connect("jdbc:tell:mem:")) {
            node.catalog().createTable(TableSpec.builder("T").notNull("ID", ColumnType.INTEGER)
                    .column("NAME", ColumnType.varchar(20)).column("B", ColumnType.INTEGER).primaryKey("ID")
                    .index("T_B", false, "B").build(), false);
            try (SqlSession s = node.openSession()) {
                System.out.println(run(s, "INSERT INTO t VALUES (1, 'a', 10), (2, 'b', 20), (3, 'c', 10)"));
                System.out.println(run(s, "SELECT * FROM t WHERE id = ?", 2));
                System.out.println(run(s, "SELECT name FROM t WHERE b = 10"));
                System.out.println(run(s, "EXPLAIN PLAN FOR SELECT name FROM t WHERE b = 10"));
                System.out.println(run(s, "EXPLAIN PLAN FOR SELECT * FROM t WHERE id = ?"));
                System.out.println(run(s, "UPDATE t SET b = b + 1 WHERE id = ?", 3));
                System.out.println(run(s, "SELECT b, COUNT(*) FROM t GROUP BY b ORDER BY b"));
                System.out.println(run(s, "DELETE FROM t WHERE b = 20"));
                System.out.println(run(s, "SELECT * FROM t x JOIN t y ON x.id = y.id ORDER BY x.id"));
                System.out.println(run(s, "EXPLAIN PLAN FOR SELECT * FROM t x JOIN t y ON x.b = y.id"));
                System.out.println(run(s, "SELECT * FROM t WHERE id IN (SELECT b - 10 FROM t)"));
                System.out.println(run(s, "SELECT * FROM t WHERE id = 1 FOR UPDATE"));
                assertEquals(List.of("[1, a, 10]", "[3, c, 11]"), run(s, "SELECT * FROM t ORDER BY id"));
            }
        }
    }
}
