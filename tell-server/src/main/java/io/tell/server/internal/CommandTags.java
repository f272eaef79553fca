package io.tell.server.internal;

import io.tell.sql.PreparedSql;
import java.util.List;

/**
 * CommandComplete tags as PostgreSQL writes them: {@code SELECT 3}, {@code INSERT 0 1} (also
 * for an INSERT … RETURNING that returned one row), {@code UPDATE 2}, {@code CREATE TABLE}.
 */
final class CommandTags {
    private CommandTags() {
    }

    static String of(PreparedSql statement, long count) {
        if (statement.writes()) { // DML, with RETURNING too
            List<String> words = SqlScanner.leadingWords(statement.sql(), 1);
            String verb = words.isEmpty() ? "UPDATE" : words.get(0);
            return verb.equals("INSERT") ? "INSERT 0 " + count : verb + " " + count;
        }
        return switch (statement.kind()) {
            case QUERY, DML -> "SELECT " + count;
            case DDL -> {
                List<String> words = SqlScanner.leadingWords(statement.sql(), 3);
                if (words.size() >= 3 && words.get(1).equals("UNIQUE")) {
                    yield words.get(0) + " " + words.get(2);
                }
                yield String.join(" ", words.subList(0, Math.min(2, words.size())));
            }
        };
    }
}
