package io.tell.server.internal;

import io.tell.sql.ColumnInfo;
import io.tell.sql.PreparedSql;
import io.tell.sql.SqlSession;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * One COPY FROM STDIN in progress: CopyData chunks are cut into records (a CSV record may span
 * lines inside quotes), each record is parsed and inserted through one prepared INSERT, inside
 * the connection's transaction ({@link TransactionBlock} makes it one when there is none), so a
 * failure leaves no row of the load behind.
 */
final class CopyIn {
    private final CopyCommand command;
    private final SqlSession session;
    private final PreparedSql insert;
    private final PgType[] types;
    private final ByteArrayOutputStream pending = new ByteArrayOutputStream();
    private boolean headerSkipped;
    private boolean ended;
    private long rows;

    CopyIn(CopyCommand command, SqlSession session) {
        this.command = command;
        this.session = session;
        List<String> columns = command.columns().isEmpty() ? allColumns(command.table(), session) : command.columns();
        String sql = "INSERT INTO " + command.table() + " (" + String.join(", ", columns) + ") VALUES ("
                + String.join(", ", Collections.nCopies(columns.size(), "?")) + ")";
        this.insert = session.prepare(sql);
        this.types = insert.parameters().stream().map(p -> PgType.of(p)).toArray(PgType[]::new);
    }

    private static List<String> allColumns(String table, SqlSession session) {
        List<String> out = new ArrayList<>();
        for (ColumnInfo c : session.prepare("SELECT * FROM " + table).columns()) {
            out.add('"' + c.label().replace("\"", "\"\"") + '"');
        }
        return out;
    }

    int columns() {
        return types.length;
    }

    void data(byte[] chunk) {
        int start = 0;
        for (int i = 0; i < chunk.length; i++) {
            if (chunk[i] == '\n') {
                pending.write(chunk, start, i - start);
                start = i + 1;
                String record = pending.toString(StandardCharsets.UTF_8);
                if (command.csv() && quotesOpen(record)) {
                    pending.write('\n'); // the newline is inside a quoted field
                    continue;
                }
                pending.reset();
                record(record);
            }
        }
        pending.write(chunk, start, chunk.length - start);
    }

    /** At CopyDone: a last record without a newline, then the number of rows loaded. */
    long finish() {
        if (pending.size() > 0) {
            String record = pending.toString(StandardCharsets.UTF_8);
            pending.reset();
            if (command.csv() && quotesOpen(record)) {
                throw new PgError("22P04", "unterminated CSV quoted field");
            }
            record(record);
        }
        return rows;
    }

    private boolean quotesOpen(String record) {
        boolean open = false;
        for (int i = 0; i < record.length(); i++) {
            char c = record.charAt(i);
            if (open && c == command.escape() && command.escape() != command.quote() && i + 1 < record.length()) {
                i++; // an escaped character inside quotes
            } else if (c == command.quote()) {
                open = !open; // a doubled quote toggles twice
            }
        }
        return open;
    }

    private void record(String line) {
        if (line.endsWith("\r")) {
            line = line.substring(0, line.length() - 1);
        }
        if (ended || line.equals("\\.")) {
            ended = true; // the end-of-data marker old clients send; nothing after it counts
            return;
        }
        if (command.header() && !headerSkipped) {
            headerSkipped = true;
            return;
        }
        List<String> fields = command.csv() ? CopyFormats.csv(line, command) : CopyFormats.text(line, command);
        if (fields.size() != types.length) {
            throw new PgError("22P04", (fields.size() < types.length ? "missing data for a column" : "extra data after the last expected column")
                    + " in COPY row " + (rows + 1) + ": " + fields.size() + " fields, " + types.length + " columns");
        }
        Object[] values = new Object[fields.size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = fields.get(i) == null ? null : TextValues.parse(fields.get(i), types[i]);
        }
        session.execute(insert, Arrays.asList(values), 0, 0).close();
        rows++;
    }
}
