package io.tell.sql.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import io.tell.error.TellException;
import io.tell.sql.PreparedSql;
import io.tell.sql.SqlResult;
import io.tell.sql.SqlSession;
import io.tell.sql.SqlStates;
import io.tell.sql.exec.Values;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Runs a golden SQL script: blocks separated by blank lines, each
 * <pre>
 * statement ok | statement count N | statement error SQLSTATE [text the message contains]
 * SQL (one or more lines)
 * </pre>
 * or
 * <pre>
 * query [sorted]
 * SQL
 * ----
 * expected rows, one per line, values separated by " | ", NULL for null
 * </pre>
 * Lines starting with {@code #} are comments. {@code commit} / {@code rollback} / {@code autocommit off|on}
 * control the session's transaction.
 */
final class GoldenScript {
    private GoldenScript() {
    }

    static void run(String resource, SqlSession session) throws IOException {
        String text;
        try (InputStream in = GoldenScript.class.getResourceAsStream("/golden/" + resource)) {
            if (in == null) {
                throw new IOException("no golden script " + resource);
            }
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        int line = 1;
        for (String block : text.split("\n\\s*\n")) {
            List<String> lines = block.lines().filter(l -> !l.startsWith("#")).collect(Collectors.toList());
            int at = line;
            line += block.split("\n", -1).length + 1;
            if (lines.isEmpty()) {
                continue;
            }
            String head = lines.get(0).trim();
            String where = resource + ":" + at + " ";
            switch (head) {
                case "commit" -> session.commit();
                case "rollback" -> session.rollback();
                case "autocommit off" -> session.setAutoCommit(false);
                case "autocommit on" -> session.setAutoCommit(true);
                default -> runBlock(session, head, lines.subList(1, lines.size()), where);
            }
        }
    }

    private static void runBlock(SqlSession session, String head, List<String> body, String where) {
        int sep = body.indexOf("----");
        String sql = String.join("\n", sep < 0 ? body : body.subList(0, sep));
        List<String> expected = sep < 0 ? List.of() : body.subList(sep + 1, body.size());
        String[] words = head.split("\\s+", 4);
        try {
            PreparedSql p = session.prepare(sql);
            try (SqlResult r = session.execute(p, List.of(), 0, 0)) {
                if (words[0].equals("query")) {
                    List<String> rows = new ArrayList<>();
                    while (r.next()) {
                        rows.add(format(r.row()));
                    }
                    List<String> want = new ArrayList<>(expected);
                    if (words.length > 1 && words[1].equals("sorted")) {
                        rows.sort(null);
                        want.sort(null);
                    }
                    assertEquals(String.join("\n", want), String.join("\n", rows), where + sql);
                } else if (words.length > 1 && words[1].equals("error")) {
                    fail(where + "expected error " + words[2] + " but succeeded: " + sql);
                } else if (words.length > 2 && words[1].equals("count")) {
                    assertEquals(Long.parseLong(words[2]), r.updateCount(), where + sql);
                }
            }
        } catch (TellException e) {
            if (words.length > 2 && words[1].equals("error")) {
                assertEquals(words[2], SqlStates.of(e.code()), where + sql + " -> " + e.getMessage());
                if (words.length > 3 && !e.getMessage().contains(words[3])) {
                    fail(where + sql + ": the message should contain \"" + words[3] + "\" but is: " + e.getMessage());
                }
                return;
            }
            throw new AssertionError(where + sql + " -> " + e.code() + ": " + e.getMessage(), e);
        }
    }

    static String format(Object[] row) {
        List<String> out = new ArrayList<>();
        for (Object v : row) {
            out.add(v == null ? "NULL" : v instanceof BigDecimal d ? d.toPlainString()
                    : v instanceof byte[] b ? Values.formatBytes(b) : v.toString());
        }
        return String.join(" | ", out);
    }
}
