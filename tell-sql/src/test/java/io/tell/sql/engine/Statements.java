package io.tell.sql.engine;

import io.tell.sql.SqlResult;
import io.tell.sql.SqlSession;
import java.util.ArrayList;
import java.util.List;

/** Running a statement without parameters on a session, for tests. */
final class Statements {
    private Statements() {
    }

    static void run(SqlSession s, String sql) {
        s.execute(s.prepare(sql), List.of(), 0, 0).close();
    }

    static List<Object[]> rows(SqlSession s, String sql) {
        List<Object[]> out = new ArrayList<>();
        try (SqlResult r = s.execute(s.prepare(sql), List.of(), 0, 0)) {
            while (r.next()) {
                out.add(r.row());
            }
        }
        return out;
    }
}
