package io.tell.server.internal;

import io.tell.sql.ColumnInfo;
import io.tell.sql.PreparedSql;
import io.tell.sql.SqlResult;
import io.tell.sql.SqlSession;
import java.util.List;

/**
 * One COPY TO STDOUT: runs the query (or reads the table's columns), and sends each row as one
 * CopyData record in PostgreSQL's text or CSV format, between CopyOutResponse and CopyDone.
 * Values are written as in text result columns ({@link TextValues}).
 */
final class CopyOut {
    private CopyOut() {
    }

    /** Runs {@code command} and writes its records; returns how many rows were sent. */
    static long run(CopyCommand command, SqlSession session, BackendWriter out, long statementTimeoutMillis) {
        String sql = command.query() != null ? command.query()
                : "SELECT " + (command.columns().isEmpty() ? "*" : String.join(", ", command.columns())) + " FROM " + command.table();
        PreparedSql prepared = session.prepare(sql);
        if (prepared.kind() != PreparedSql.Kind.QUERY) {
            throw new PgError("0A000", "COPY (...) TO STDOUT takes a query");
        }
        List<ColumnInfo> columns = prepared.columns();
        long rows = 0;
        try (SqlResult result = session.execute(prepared, List.of(), 0, statementTimeoutMillis)) {
            out.copyOutResponse(columns.size());
            if (command.header()) {
                Object[] names = columns.stream().map(ColumnInfo::label).toArray();
                out.copyData(record(names, command));
            }
            while (result.next()) {
                out.copyData(record(result.row(), command));
                rows++;
            }
        }
        out.empty('c'); // CopyDone
        return rows;
    }

    /** One row as a record: fields joined by the delimiter, NULL as the null string, a newline at the end. */
    static String record(Object[] row, CopyCommand c) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < row.length; i++) {
            if (i > 0) {
                b.append(c.delimiter());
            }
            if (row[i] == null) {
                b.append(c.nullString());
            } else if (c.csv()) {
                csv(b, TextValues.format(row[i]), c);
            } else {
                text(b, TextValues.format(row[i]), c.delimiter());
            }
        }
        return b.append('\n').toString();
    }

    /** Text format: backslash, the delimiter and control characters escaped with a backslash. */
    private static void text(StringBuilder b, String v, char delimiter) {
        for (int i = 0; i < v.length(); i++) {
            char ch = v.charAt(i);
            switch (ch) {
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append(delimiter == '\t' ? "\\t" : "\t");
                case '\b' -> b.append("\\b");
                case '\f' -> b.append("\\f");
                case '\u000B' -> b.append("\\v");
                default -> {
                    if (ch == delimiter) {
                        b.append('\\');
                    }
                    b.append(ch);
                }
            }
        }
    }

    /** CSV: quoted when it holds the delimiter, the quote, a line end, or would read as NULL; quotes doubled (escaped). */
    private static void csv(StringBuilder b, String v, CopyCommand c) {
        boolean quote = v.equals(c.nullString()) || v.indexOf(c.delimiter()) >= 0 || v.indexOf(c.quote()) >= 0
                || v.indexOf('\n') >= 0 || v.indexOf('\r') >= 0;
        if (!quote) {
            b.append(v);
            return;
        }
        b.append(c.quote());
        for (int i = 0; i < v.length(); i++) {
            char ch = v.charAt(i);
            if (ch == c.quote() || ch == c.escape()) {
                b.append(c.escape());
            }
            b.append(ch);
        }
        b.append(c.quote());
    }
}
