package io.tell.sql.engine;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A MERGE statement's text cut into its parts (PostgreSQL's grammar), each part's text as written:
 * {@code MERGE INTO target [[AS] alias] USING source ON condition} and one or more
 * {@code WHEN [NOT] MATCHED [AND condition] THEN action}, the action {@code UPDATE SET …}, {@code DELETE},
 * {@code INSERT …} or {@code DO NOTHING}. The parts are cut where their keywords stand outside parentheses,
 * CASE … END, quotes and comments; Calcite parses and validates each part later.
 *
 * @param target  the target table's name as written
 * @param alias   the target's alias, null when it has none
 * @param source  the source as written, with its alias: a table, or a query or VALUES in parentheses
 * @param on      the join condition
 */
record MergeText(String target, String alias, String source, String on, List<Clause> clauses) {
    private static final String NAME = "(?:\"(?:[^\"]|\"\")+\"|[\\p{L}_][\\p{L}\\p{N}_$]*)";
    private static final Pattern TARGET = Pattern.compile("(?is)\\s*MERGE\\s+INTO\\s+(" + NAME + "(?:\\s*\\.\\s*" + NAME
            + ")?)(?:\\s+(?:AS\\s+)?(" + NAME + "))?\\s*");
    private static final Pattern CLAUSE = Pattern.compile("(?is)WHEN\\s+(NOT\\s+)?MATCHED\\s*(?:AND\\b(.*)|)");

    enum Action { UPDATE, DELETE, INSERT, NOTHING }

    /**
     * One WHEN clause.
     *
     * @param condition its AND condition, null for none
     * @param body      for UPDATE the text after UPDATE ({@code SET …}), for INSERT the text after INSERT; else empty
     */
    record Clause(boolean matched, String condition, Action action, String body) {
    }

    /** The parts of {@code sql}, a MERGE statement without trailing semicolons; 42601 when they are not there. */
    static MergeText parse(String sql) {
        int using = SqlText.topLevel(sql, 0, "USING");
        Matcher target = TARGET.matcher(using < 0 ? "" : sql.substring(0, using));
        if (!target.matches()) {
            throw syntax("MERGE INTO table [[AS] alias] USING …");
        }
        int on = SqlText.topLevel(sql, using, "ON");
        int when = on < 0 ? -1 : SqlText.topLevel(sql, on, "WHEN");
        if (on < 0 || when < 0) {
            throw syntax("MERGE … USING source ON condition WHEN …");
        }
        List<Clause> clauses = new ArrayList<>();
        for (int at = when; at >= 0; ) {
            int next = SqlText.topLevel(sql, at + 4, "WHEN");
            clauses.add(clause(sql.substring(at, next < 0 ? sql.length() : next).strip()));
            at = next;
        }
        return new MergeText(target.group(1), target.group(2), sql.substring(using + 5, on).strip(),
                sql.substring(on + 2, when).strip(), clauses);
    }

    private static Clause clause(String text) {
        int then = SqlText.topLevel(text, 0, "THEN");
        Matcher m = CLAUSE.matcher(then < 0 ? "" : text.substring(0, then).strip());
        if (!m.matches() || m.group(2) != null && m.group(2).isBlank()) {
            throw syntax("WHEN [NOT] MATCHED [AND condition] THEN action");
        }
        boolean matched = m.group(1) == null;
        String condition = m.group(2) == null ? null : m.group(2).strip();
        String action = text.substring(then + 4).strip();
        String verb = SqlText.firstWord(action);
        Action kind = switch (verb) {
            case "UPDATE" -> Action.UPDATE;
            case "DELETE" -> Action.DELETE;
            case "INSERT" -> Action.INSERT;
            case "DO" -> Action.NOTHING;
            default -> throw syntax("UPDATE SET …, DELETE, INSERT … or DO NOTHING after THEN");
        };
        String body = action.substring(action.toUpperCase(Locale.ROOT).indexOf(verb) + verb.length()).strip();
        if (kind == Action.NOTHING && !body.equalsIgnoreCase("NOTHING") || kind == Action.DELETE && !body.isEmpty()) {
            throw syntax(kind == Action.NOTHING ? "DO NOTHING" : "DELETE, alone");
        }
        if (matched && kind == Action.INSERT || !matched && (kind == Action.UPDATE || kind == Action.DELETE)) {
            throw syntax(matched ? "UPDATE, DELETE or DO NOTHING after WHEN MATCHED"
                    : "INSERT or DO NOTHING after WHEN NOT MATCHED");
        }
        return new Clause(matched, condition, kind, kind == Action.NOTHING || kind == Action.DELETE ? "" : body);
    }

    private static TellException syntax(String expected) {
        return TellException.of(ErrorCode.SQL_SYNTAX, "MERGE: expected " + expected);
    }
}
