package io.tell.sql.exec;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.runtime.SqlFunctions;
import org.apache.calcite.sql.fun.SqlLikeOperator;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * LIKE and SIMILAR TO with Calcite's runtime semantics ({@link SqlFunctions.LikeFunction}, which
 * caches compiled patterns). A literal LIKE pattern of plain characters and {@code %} at its
 * ends is matched without a regex (equals, startsWith, endsWith, contains). CHAR operands are
 * matched without their trailing spaces, as PostgreSQL does. A malformed pattern or escape is
 * DATA_EXCEPTION, raised on the first row. (NOT LIKE reaches the executor as NOT(LIKE); ILIKE,
 * a library operator, matches ignoring case.)
 */
final class Patterns {
    private static final SqlFunctions.LikeFunction LIKE = new SqlFunctions.LikeFunction();
    private static final SqlFunctions.SimilarFunction SIMILAR = new SqlFunctions.SimilarFunction();
    private static final SqlFunctions.SimilarEscapeFunction SIMILAR_ESCAPE = new SqlFunctions.SimilarEscapeFunction();

    private Patterns() {
    }

    /** A string matcher taking the value, the pattern and the escape (or null). */
    private interface Matcher {
        boolean matches(String value, String pattern, String escape);
    }

    static Expr like(RexCall call, List<Expr> operands) {
        boolean caseSensitive = !(call.getOperator() instanceof SqlLikeOperator op) || op.isCaseSensitive();
        return compile(call, operands, caseSensitive,
                caseSensitive ? (s, p, e) -> e == null ? LIKE.like(s, p) : LIKE.like(s, p, e)
                        : (s, p, e) -> e == null ? LIKE.ilike(s, p) : LIKE.ilike(s, p, e));
    }

    static Expr similar(RexCall call, List<Expr> operands) {
        return compile(call, operands, false,
                (s, p, e) -> e == null ? SIMILAR.similar(s, p) : SIMILAR_ESCAPE.similar(s, p, e));
    }

    private static Expr compile(RexCall call, List<Expr> operands, boolean simpleLike, Matcher matcher) {
        List<RexNode> nodes = call.getOperands();
        Expr value = unpadded(operands.get(0), nodes.get(0));
        Expr pattern = unpadded(operands.get(1), nodes.get(1));
        Expr escape = nodes.size() > 2 ? operands.get(2) : Strict.constant(null);
        if (simpleLike && nodes.get(1) instanceof RexLiteral p && !p.isNull()
                && (nodes.size() == 2 || nodes.get(2) instanceof RexLiteral e && !e.isNull())) {
            String text = (String) pattern.eval(null, null);
            String esc = (String) escape.eval(null, null);
            Predicate<String> simple = simple(text, esc);
            if (simple != null) {
                return Strict.unary(value, v -> simple.test((String) v));
            }
        }
        return (row, ctx) -> {
            Object v = value.eval(row, ctx);
            Object p = pattern.eval(row, ctx);
            Object e = escape.eval(row, ctx);
            if (v == null || p == null || nodes.size() > 2 && e == null) {
                return null;
            }
            try {
                return matcher.matches((String) v, (String) p, (String) e);
            } catch (RuntimeException ex) {
                throw ExecErrors.data("invalid pattern '" + p + "'" + (e == null ? "" : " with escape '" + e + "'")
                        + ": " + ex.getMessage());
            }
        };
    }

    private static Expr unpadded(Expr e, RexNode node) {
        return node.getType().getSqlTypeName() == SqlTypeName.CHAR
                ? Strict.unary(e, v -> TextFormat.stripTrailingSpaces((String) v)) : e;
    }

    /**
     * A matcher for a LIKE pattern that is plain text with {@code %} at either end, or null when
     * it needs a regex ({@code _}, inner {@code %}, or a malformed escape, left for the regex
     * path to report).
     */
    static Predicate<String> simple(String pattern, String escape) {
        if (escape != null && escape.length() != 1) {
            return null;
        }
        List<Object> tokens = new ArrayList<>(); // Character for text, "%" for the wildcard
        for (int i = 0; i < pattern.length(); i++) {
            char c = pattern.charAt(i);
            if (escape != null && c == escape.charAt(0)) {
                if (i + 1 == pattern.length()) {
                    return null;
                }
                char next = pattern.charAt(++i);
                if (next != '%' && next != '_' && next != c) {
                    return null;
                }
                tokens.add(next);
            } else if (c == '_') {
                return null;
            } else if (c == '%') {
                if (tokens.isEmpty() || !"%".equals(tokens.get(tokens.size() - 1))) {
                    tokens.add("%");
                }
            } else {
                tokens.add(c);
            }
        }
        boolean leading = !tokens.isEmpty() && "%".equals(tokens.get(0));
        boolean trailing = tokens.size() > (leading ? 1 : 0) && "%".equals(tokens.get(tokens.size() - 1));
        List<Object> middle = tokens.subList(leading ? 1 : 0, tokens.size() - (trailing ? 1 : 0));
        StringBuilder text = new StringBuilder();
        for (Object t : middle) {
            if (!(t instanceof Character c)) {
                return null;
            }
            text.append(c.charValue());
        }
        String s = text.toString();
        if (leading && trailing) {
            return v -> v.contains(s);
        }
        if (leading) {
            return v -> v.endsWith(s);
        }
        if (trailing) {
            return v -> v.startsWith(s);
        }
        return v -> v.equals(s);
    }
}
