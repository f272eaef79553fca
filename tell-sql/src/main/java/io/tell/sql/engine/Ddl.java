package io.tell.sql.engine;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.sql.PreparedSql;
import io.tell.sql.ProcessingNode;
import java.util.List;

/** DDL statements: parsed by Tell's own DDL parser and run against the catalog. */
final class Ddl {
    private Ddl() {
    }

    static boolean isDdl(String sql) {
        String w = SqlText.firstWord(sql);
        return w.equals("CREATE") || w.equals("DROP");
    }

    static PreparedSql prepare(String sql) {
        throw TellException.of(ErrorCode.FEATURE_NOT_SUPPORTED, "DDL: not merged yet");
    }

    static void execute(ProcessingNode node, PreparedSql statement) {
        throw TellException.of(ErrorCode.FEATURE_NOT_SUPPORTED, "DDL: not merged yet");
    }

    static List<Object> none() {
        return List.of();
    }
}
