package io.tell.sql.engine;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;

/**
 * Turns the literals of a plain statement into parameters, so statements that differ only in
 * their constants share one cached plan, and a value too long for its column is refused when it
 * is stored rather than cut by the cast Calcite folds into a literal. Conservative by design:
 * only a number, string or byte string ({@code X'0A'}) that
 * is the whole operand of a comparison ({@code col = 5}, {@code SET col = 'x'}) or a whole
 * value of an INSERT's VALUES list is lifted; anything in an expression, a SELECT list,
 * ORDER BY ordinals or typed literals ({@code DATE '…'}) stays text. Statements that already
 * have parameters are left alone. The caller falls back to the exact text when the lifted
 * form does not plan or a value does not convert exactly to its parameter's type.
 */
final class Literals {
    private static final Set<String> COMPARISONS = Set.of("=", "<>", "!=", "<", ">", "<=", ">=");
    private static final Set<String> ARITHMETIC = Set.of("+", "-", "*", "/", "%", "||", ".");

    /** A statement with its literals lifted, and their values in order. */
    record Lifted(String sql, List<Object> values) {
    }

    private Literals() {
    }

    /** The lifted form of {@code sql}, or null when nothing can be lifted. */
    static Lifted lift(String sql) {
        List<int[]> tokens = tokens(sql);
        if (tokens == null) {
            return null;
        }
        boolean insert = !tokens.isEmpty() && text(sql, tokens.get(0)).equalsIgnoreCase("INSERT");
        boolean inValues = false;
        StringBuilder out = new StringBuilder();
        List<Object> values = new ArrayList<>();
        int copied = 0;
        for (int i = 0; i < tokens.size(); i++) {
            int[] t = tokens.get(i);
            String word = text(sql, t);
            if (t[2] == PARAM) {
                return null;
            }
            if (insert && word.equalsIgnoreCase("VALUES")) {
                inValues = true;
            } else if (insert && word.equalsIgnoreCase("SELECT")) {
                inValues = false;
            }
            if (t[2] != NUMBER && t[2] != STRING && t[2] != BINARY) {
                continue;
            }
            String prev = i > 0 ? text(sql, tokens.get(i - 1)) : "";
            String next = i + 1 < tokens.size() ? text(sql, tokens.get(i + 1)) : "";
            boolean operand = COMPARISONS.contains(prev) && !ARITHMETIC.contains(next);
            boolean value = inValues && (prev.equals("(") || prev.equals(",")) && (next.equals(",") || next.equals(")"));
            if (!operand && !value) {
                continue;
            }
            out.append(sql, copied, t[0]).append('?');
            copied = t[1];
            values.add(switch (t[2]) {
                case STRING -> word.substring(1, word.length() - 1).replace("''", "'");
                case BINARY -> HexFormat.of().parseHex(word, 2, word.length() - 1);
                default -> number(word);
            });
        }
        if (values.isEmpty()) {
            return null;
        }
        out.append(sql, copied, sql.length());
        return new Lifted(out.toString(), values);
    }

    private static Object number(String s) {
        BigDecimal d = new BigDecimal(s);
        if (d.scale() <= 0 && d.precision() - d.scale() < 19) {
            return d.longValueExact();
        }
        return d;
    }

    private static final int WORD = 0;
    private static final int NUMBER = 1;
    private static final int STRING = 2;
    private static final int SYMBOL = 3;
    private static final int PARAM = 4;
    private static final int BINARY = 5;

    private static String text(String sql, int[] t) {
        return sql.substring(t[0], t[1]);
    }

    /** Tokens as {start, end, kind}; comments and white space skipped; null when the text does not lex. */
    private static List<int[]> tokens(String sql) {
        List<int[]> out = new ArrayList<>();
        int i = 0;
        int n = sql.length();
        while (i < n) {
            char c = sql.charAt(i);
            int start = i;
            if (Character.isWhitespace(c)) {
                i++;
                continue;
            }
            if (sql.startsWith("--", i)) {
                int e = sql.indexOf('\n', i);
                i = e < 0 ? n : e + 1;
                continue;
            }
            if (sql.startsWith("/*", i)) {
                int e = sql.indexOf("*/", i + 2);
                if (e < 0) {
                    return null;
                }
                i = e + 2;
                continue;
            }
            int kind;
            if ((c == 'X' || c == 'x') && i + 1 < n && sql.charAt(i + 1) == '\'') {
                int e = sql.indexOf('\'', i + 2);
                if (e < 0 || (e - i - 2) % 2 != 0 || !sql.substring(i + 2, e).chars().allMatch(h -> Character.digit(h, 16) >= 0)) {
                    return null; // not a plain binary literal: left to the parser
                }
                i = e + 1;
                kind = BINARY;
            } else if (c == '\'' || c == '"') {
                i++;
                while (true) {
                    if (i >= n) {
                        return null;
                    }
                    if (sql.charAt(i) == c) {
                        if (i + 1 < n && sql.charAt(i + 1) == c) {
                            i += 2;
                            continue;
                        }
                        i++;
                        break;
                    }
                    i++;
                }
                kind = c == '\'' ? STRING : WORD;
            } else if (Character.isDigit(c) || c == '.' && i + 1 < n && Character.isDigit(sql.charAt(i + 1))) {
                while (i < n && (Character.isDigit(sql.charAt(i)) || sql.charAt(i) == '.')) {
                    i++;
                }
                if (i < n && (sql.charAt(i) == 'e' || sql.charAt(i) == 'E')) {
                    return null; // approximate literals keep their text (DOUBLE typing)
                }
                kind = NUMBER;
            } else if (Character.isLetter(c) || c == '_') {
                while (i < n && (Character.isLetterOrDigit(sql.charAt(i)) || sql.charAt(i) == '_' || sql.charAt(i) == '$')) {
                    i++;
                }
                kind = WORD;
            } else if (c == '?') {
                i++;
                kind = PARAM;
            } else {
                i++;
                if (i < n && (c == '<' && (sql.charAt(i) == '=' || sql.charAt(i) == '>') || c == '>' && sql.charAt(i) == '='
                        || c == '!' && sql.charAt(i) == '=' || c == '|' && sql.charAt(i) == '|')) {
                    i++;
                }
                kind = SYMBOL;
            }
            out.add(new int[] {start, i, kind});
        }
        return out;
    }
}
