package io.tell.server.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Recognises the {@link ControlCommand}s in SQL text. Anything else goes to Tell's SQL, which
 * says what it does not support.
 */
final class ControlCommands {
    private ControlCommands() {
    }

    /** The command {@code sql} is, or null when it is not one. */
    static ControlCommand parse(String sql) {
        List<String> words = SqlScanner.leadingWords(sql, 1);
        if (words.isEmpty()) {
            return null;
        }
        switch (words.get(0)) {
            case "BEGIN", "START", "COMMIT", "END", "ROLLBACK", "ABORT", "SET", "RESET", "SHOW", "SAVEPOINT", "RELEASE" -> {
            }
            case "ANALYZE", "ANALYSE", "VACUUM" -> {
                return new ControlCommand.Maintenance(words.get(0).equals("VACUUM") ? "VACUUM" : "ANALYZE");
            }
            default -> {
                return null;
            }
        }
        Tokens t = new Tokens(sql);
        String first = t.next();
        ControlCommand command = switch (first) {
            case "begin" -> {
                t.optional("work", "transaction");
                yield new ControlCommand.Begin(modes(t));
            }
            case "start" -> {
                t.expect("transaction");
                yield new ControlCommand.Begin(modes(t));
            }
            case "commit", "end" -> {
                t.optional("work", "transaction");
                yield new ControlCommand.Commit();
            }
            case "rollback", "abort" -> {
                t.optional("work", "transaction");
                if (t.atEnd()) {
                    yield new ControlCommand.Rollback();
                }
                t.expect("to");
                t.optional("savepoint");
                yield new ControlCommand.RollbackTo(savepointName(t));
            }
            case "savepoint" -> new ControlCommand.Savepoint(savepointName(t));
            case "release" -> {
                t.optional("savepoint");
                yield new ControlCommand.Release(savepointName(t));
            }
            case "set" -> set(t);
            case "reset" -> {
                String name = t.next();
                yield name == null ? null : new ControlCommand.Reset(name.equals("all") ? null : name);
            }
            case "show" -> show(t);
            default -> null;
        };
        if (command != null && !t.atEnd()) {
            throw new PgError("42601", "syntax error at or near \"" + t.next() + "\"");
        }
        return command;
    }

    private static String savepointName(Tokens t) {
        String name = t.next();
        if (name == null) {
            throw new PgError("42601", "a savepoint name is missing");
        }
        return name;
    }

    private static ControlCommand set(Tokens t) {
        t.optional("session", "local");
        if (t.peekIs("characteristics")) {
            t.next();
            t.expect("as");
            t.expect("transaction");
            return new ControlCommand.SetTransaction(modes(t), true);
        }
        if (t.peekIs("transaction")) {
            t.next();
            return new ControlCommand.SetTransaction(modes(t), false);
        }
        String name = t.next();
        if (name == null) {
            throw new PgError("42601", "SET needs a parameter name");
        }
        if (name.equals("time") && t.peekIs("zone")) {
            t.next();
            name = "timezone";
        } else if (name.equals("schema")) {
            name = "search_path"; // SET SCHEMA 'name'
        } else if (t.optional("to", "=").isEmpty()) {
            throw new PgError("42601", "SET " + name + " needs TO or =");
        }
        List<String> values = new ArrayList<>();
        while (!t.atEnd()) {
            values.add(t.nextValue());
            t.optional(",");
        }
        if (values.isEmpty()) {
            throw new PgError("42601", "SET " + name + " needs a value");
        }
        // SET LOCAL would last until the transaction ends; this server keeps it for the session (docs/server.md).
        return new ControlCommand.Set(name, String.join(", ", values));
    }

    private static ControlCommand show(Tokens t) {
        String name = t.next();
        if (name == null) {
            throw new PgError("42601", "SHOW needs a parameter name");
        }
        if (name.equals("transaction") && t.peekIs("isolation")) {
            t.next();
            t.expect("level");
            return new ControlCommand.Show("transaction_isolation");
        }
        if (name.equals("time") && t.peekIs("zone")) {
            t.next();
            return new ControlCommand.Show("timezone");
        }
        return new ControlCommand.Show(name);
    }

    /** Transaction modes, comma-separated or not: ISOLATION LEVEL …, READ ONLY/WRITE, [NOT] DEFERRABLE. */
    private static ControlCommand.Modes modes(Tokens t) {
        String isolation = null;
        Boolean readOnly = null;
        while (!t.atEnd()) {
            String word = t.next();
            switch (word) {
                case "isolation" -> {
                    t.expect("level");
                    String level = t.next();
                    isolation = switch (level == null ? "" : level) {
                        case "serializable" -> "serializable";
                        case "repeatable" -> {
                            t.expect("read");
                            yield "repeatable read";
                        }
                        case "read" -> "read " + t.expectOneOf("committed", "uncommitted");
                        default -> throw new PgError("42601", "unknown isolation level " + level);
                    };
                }
                case "read" -> readOnly = t.expectOneOf("only", "write").equals("only");
                case "not" -> t.expect("deferrable");
                case "deferrable", "," -> {
                    // DEFERRABLE only matters to PostgreSQL's serializable read-only transactions; Tell's never wait
                }
                default -> throw new PgError("42601", "syntax error at or near \"" + word + "\"");
            }
        }
        return new ControlCommand.Modes(isolation, readOnly);
    }

    /** Lower-cased words, quoted strings (unquoted), numbers and the punctuation {@code = ,}. */
    private static final class Tokens {
        private final String sql;
        private int pos;

        Tokens(String sql) {
            this.sql = sql;
        }

        boolean atEnd() {
            skipSpace();
            return pos >= sql.length() || sql.charAt(pos) == ';';
        }

        boolean peekIs(String word) {
            int at = pos;
            String next = next();
            pos = at;
            return word.equals(next);
        }

        /** The next token in lower case (a quoted identifier keeps its case), null at the end. */
        String next() {
            String v = token();
            return v == null || v.startsWith("'") || v.startsWith("\"") ? unquote(v) : v.toLowerCase(Locale.ROOT);
        }

        /** A SET value as written, a quoted one unquoted. */
        String nextValue() {
            String v = token();
            if (v == null) {
                throw new PgError("42601", "a value is missing");
            }
            return v.startsWith("'") || v.startsWith("\"") ? unquote(v) : v;
        }

        String optional(String... words) {
            int at = pos;
            String next = next();
            for (String w : words) {
                if (w.equals(next)) {
                    return w;
                }
            }
            pos = at;
            return "";
        }

        void expect(String word) {
            expectOneOf(word);
        }

        String expectOneOf(String... words) {
            String found = optional(words);
            if (found.isEmpty()) {
                throw new PgError("42601", "expected " + String.join(" or ", words).toUpperCase(Locale.ROOT) + " in \"" + sql.strip() + "\"");
            }
            return found;
        }

        private void skipSpace() {
            while (pos < sql.length()) {
                if (Character.isWhitespace(sql.charAt(pos))) {
                    pos++;
                } else if (sql.startsWith("--", pos)) {
                    int end = sql.indexOf('\n', pos);
                    pos = end < 0 ? sql.length() : end + 1;
                } else if (sql.startsWith("/*", pos)) {
                    int end = sql.indexOf("*/", pos);
                    pos = end < 0 ? sql.length() : end + 2;
                } else {
                    return;
                }
            }
        }

        private String token() {
            if (atEnd()) {
                return null;
            }
            char c = sql.charAt(pos);
            int start = pos;
            if (c == '\'' || c == '"') {
                pos++;
                while (pos < sql.length()) {
                    if (sql.charAt(pos) == c) {
                        if (pos + 1 < sql.length() && sql.charAt(pos + 1) == c) {
                            pos += 2;
                            continue;
                        }
                        break;
                    }
                    pos++;
                }
                if (pos >= sql.length()) {
                    throw new PgError("42601", "unterminated quoted string");
                }
                pos++;
            } else if (c == '=' || c == ',') {
                pos++;
            } else {
                while (pos < sql.length() && !Character.isWhitespace(sql.charAt(pos)) && "=,;'\"".indexOf(sql.charAt(pos)) < 0) {
                    pos++;
                }
            }
            return sql.substring(start, pos);
        }

        private static String unquote(String v) {
            if (v == null) {
                return null;
            }
            char q = v.charAt(0);
            return v.substring(1, v.length() - 1).replace(String.valueOf(q) + q, String.valueOf(q));
        }
    }
}
