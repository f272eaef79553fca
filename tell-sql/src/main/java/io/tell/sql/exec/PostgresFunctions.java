package io.tell.sql.exec;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.DayOfWeek;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.fun.SqlLibraryOperators;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeTransforms;

/**
 * PostgreSQL's functions beyond the SQL standard's that applications use most: {@code now()}, {@code length},
 * {@code greatest}/{@code least} (NULLs ignored, as in PostgreSQL), {@code ILIKE}, {@code left}, {@code right},
 * {@code repeat}, {@code reverse}, {@code ltrim}, {@code rtrim}, {@code starts_with}, {@code concat} (NULLs
 * ignored), {@code split_part}, {@code md5}, {@code regexp_replace} (Java's regular expressions; flag
 * {@code g} replaces every match, {@code i} ignores case), {@code date_trunc}, {@code encode}/{@code decode}
 * and {@code to_char} of dates and times ({@link ToChar}). Calcite's library
 * operators where it has PostgreSQL's signature, Tell's own otherwise.
 */
public final class PostgresFunctions {
    /** {@code now()}: the statement's time, as CURRENT_TIMESTAMP. */
    public static final SqlFunction NOW = new SqlFunction("NOW", SqlKind.OTHER_FUNCTION,
            ReturnTypes.explicit(SqlTypeName.TIMESTAMP, 3), null, OperandTypes.NILADIC, SqlFunctionCategory.TIMEDATE) {
        @Override
        public boolean isDynamicFunction() {
            return true;
        }

        @Override
        public boolean isDeterministic() {
            return false;
        }
    };

    /** {@code date_trunc(field, timestamp)}: the timestamp cut to the start of its second, …, year or millennium. */
    public static final SqlFunction DATE_TRUNC = new SqlFunction("DATE_TRUNC", SqlKind.OTHER_FUNCTION,
            ReturnTypes.explicit(SqlTypeName.TIMESTAMP, 3).andThen(SqlTypeTransforms.TO_NULLABLE), null,
            OperandTypes.family(SqlTypeFamily.CHARACTER, SqlTypeFamily.TIMESTAMP), SqlFunctionCategory.TIMEDATE);

    /**
     * {@code greatest(a, …)}: PostgreSQL's, which leaves NULLs out (Calcite's library function, Oracle's, is NULL
     * when any operand is, and is rewritten so before Tell sees it).
     */
    public static final SqlFunction GREATEST = extreme("GREATEST");

    /** {@code least(a, …)}, NULLs left out as by {@link #GREATEST}. */
    public static final SqlFunction LEAST = extreme("LEAST");

    /** {@code encode(bytes, 'hex' | 'base64' | 'escape')}: the bytes as text. */
    public static final SqlFunction ENCODE = new SqlFunction("ENCODE", SqlKind.OTHER_FUNCTION,
            ReturnTypes.explicit(SqlTypeName.VARCHAR).andThen(SqlTypeTransforms.TO_NULLABLE), null,
            OperandTypes.family(SqlTypeFamily.BINARY, SqlTypeFamily.CHARACTER), SqlFunctionCategory.STRING);

    /** {@code decode(text, 'hex' | 'base64' | 'escape')}: the bytes the text writes. */
    public static final SqlFunction DECODE = new SqlFunction("DECODE", SqlKind.OTHER_FUNCTION,
            ReturnTypes.explicit(SqlTypeName.VARBINARY).andThen(SqlTypeTransforms.TO_NULLABLE), null,
            OperandTypes.family(SqlTypeFamily.CHARACTER, SqlTypeFamily.CHARACTER), SqlFunctionCategory.STRING);

    /** The operators the validator takes besides the standard's. */
    public static final List<SqlOperator> OPERATORS = List.of(NOW, DATE_TRUNC, GREATEST, LEAST, ENCODE, DECODE,
            SqlLibraryOperators.TO_CHAR_PG, SqlLibraryOperators.LENGTH,
            SqlLibraryOperators.ILIKE,
            SqlLibraryOperators.NOT_ILIKE, SqlLibraryOperators.LEFT, SqlLibraryOperators.RIGHT, SqlLibraryOperators.REPEAT,
            SqlLibraryOperators.REVERSE, SqlLibraryOperators.LTRIM, SqlLibraryOperators.RTRIM,
            SqlLibraryOperators.STARTS_WITH, SqlLibraryOperators.CONCAT_FUNCTION, SqlLibraryOperators.SPLIT_PART,
            SqlLibraryOperators.MD5, SqlLibraryOperators.REGEXP_REPLACE_PG_3, SqlLibraryOperators.REGEXP_REPLACE_PG_4,
            SqlLibraryOperators.STRING_AGG);

    private PostgresFunctions() {
    }

    private static SqlFunction extreme(String name) {
        return new SqlFunction(name, SqlKind.OTHER_FUNCTION, ReturnTypes.LEAST_RESTRICTIVE.andThen(SqlTypeTransforms.TO_NULLABLE),
                null, OperandTypes.SAME_VARIADIC, SqlFunctionCategory.SYSTEM);
    }

    /** GREATEST ({@code greatest}) or LEAST of the operands converted to the call's type; NULL only when all are. */
    static Expr extreme(RexCall call, List<Expr> operands, boolean greatest) {
        RelDataType type = call.getType();
        List<Expr> values = new ArrayList<>();
        for (int i = 0; i < operands.size(); i++) {
            values.add(Casts.compile(operands.get(i), call.getOperands().get(i).getType(), type));
        }
        Comparator<Object> order = Comparisons.comparator(type, type);
        return (row, ctx) -> {
            Object best = null;
            for (Expr e : values) {
                Object v = e.eval(row, ctx);
                if (v != null && (best == null || (greatest ? order.compare(v, best) > 0 : order.compare(v, best) < 0))) {
                    best = v;
                }
            }
            return best;
        };
    }

    /** {@code left(s, n)} ({@code fromLeft}) or {@code right(s, n)}: a negative n leaves out that many at the other end. */
    static Expr side(List<Expr> operands, boolean fromLeft) {
        return Strict.nary(operands, v -> {
            String s = (String) v[0];
            int length = s.codePointCount(0, s.length());
            int n = ((Number) v[1]).intValue();
            int take = Math.max(0, Math.min(length, n >= 0 ? n : length + n));
            int from = fromLeft ? 0 : length - take;
            return s.substring(s.offsetByCodePoints(0, from), s.offsetByCodePoints(0, from + take));
        });
    }

    static Expr repeat(List<Expr> operands) {
        return Strict.nary(operands, v -> ((String) v[0]).repeat(Math.max(0, ((Number) v[1]).intValue())));
    }

    static Expr reverse(Expr operand) {
        return Strict.unary(operand, v -> new StringBuilder((String) v).reverse().toString());
    }

    /** {@code ltrim(s)} ({@code leading}) or {@code rtrim(s)}: spaces removed at that end. */
    static Expr trim(Expr operand, boolean leading) {
        return Strict.unary(operand, v -> leading ? ((String) v).replaceFirst("^ +", "") : ((String) v).replaceFirst(" +$", ""));
    }

    static Expr startsWith(List<Expr> operands) {
        return Strict.nary(operands, v -> ((String) v[0]).startsWith((String) v[1]));
    }

    /** {@code concat(a, …)}: the operands as text, NULLs left out (never NULL itself). */
    static Expr concat(RexCall call, List<Expr> operands) {
        List<Function<Object, String>> texts = new ArrayList<>();
        for (int i = 0; i < operands.size(); i++) {
            RelDataType from = call.getOperands().get(i).getType();
            boolean text = from.getSqlTypeName() == SqlTypeName.CHAR || from.getSqlTypeName() == SqlTypeName.VARCHAR;
            texts.add(text ? v -> (String) v : Casts.formatter(from));
        }
        return (row, ctx) -> {
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < operands.size(); i++) {
                Object v = operands.get(i).eval(row, ctx);
                if (v != null) {
                    sb.append(texts.get(i).apply(v));
                }
            }
            return sb.toString();
        };
    }

    /** {@code split_part(s, delimiter, n)}: the n-th field (from the end when negative); '' past the last. */
    static Expr splitPart(List<Expr> operands) {
        return Strict.nary(operands, v -> {
            String s = (String) v[0];
            String delimiter = (String) v[1];
            int n = ((Number) v[2]).intValue();
            if (n == 0) {
                throw ExecErrors.data("field position must not be zero");
            }
            String[] fields = delimiter.isEmpty() ? new String[] {s} : s.split(Pattern.quote(delimiter), -1);
            int at = n > 0 ? n - 1 : fields.length + n;
            return at >= 0 && at < fields.length ? fields[at] : "";
        });
    }

    static Expr md5(Expr operand) {
        return Strict.unary(operand, v -> {
            try {
                byte[] bytes = v instanceof byte[] b ? b : ((String) v).getBytes(StandardCharsets.UTF_8);
                return HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(bytes));
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException("every Java runtime has MD5", e);
            }
        });
    }

    /** {@code regexp_replace(s, pattern, replacement [, flags])}: the first match, every one with flag g. */
    static Expr regexpReplace(List<Expr> operands) {
        return Strict.nary(operands, v -> {
            String flags = v.length > 3 ? (String) v[3] : "";
            if (!flags.matches("[gi]*")) {
                throw ExecErrors.data("invalid regular expression flags '" + flags + "' (g and i are supported)");
            }
            Matcher m;
            try {
                m = Pattern.compile((String) v[1], flags.contains("i") ? Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE : 0)
                        .matcher((String) v[0]);
            } catch (PatternSyntaxException e) {
                throw ExecErrors.data("invalid regular expression '" + v[1] + "': " + e.getDescription());
            }
            String replacement = ((String) v[2]).replace("$", "\\$").replaceAll("\\\\(\\d)", "\\$$1");
            return flags.contains("g") ? m.replaceAll(replacement) : m.replaceFirst(replacement);
        });
    }

    /** {@code encode(bytes, format)}: hex, base64 or escape (non-printable bytes and backslash as octal escapes). */
    static Expr encode(List<Expr> operands) {
        return Strict.nary(operands, v -> {
            byte[] b = (byte[]) v[0];
            return switch (((String) v[1]).toLowerCase(Locale.ROOT)) {
                case "hex" -> HexFormat.of().formatHex(b);
                case "base64" -> java.util.Base64.getMimeEncoder(76, new byte[] {'\n'}).encodeToString(b);
                case "escape" -> {
                    StringBuilder sb = new StringBuilder();
                    for (byte x : b) {
                        int u = x & 0xff;
                        if (u == '\\') {
                            sb.append("\\\\");
                        } else if (u < 0x20 || u > 0x7e) {
                            sb.append('\\').append(String.format("%03o", u));
                        } else {
                            sb.append((char) u);
                        }
                    }
                    yield sb.toString();
                }
                default -> throw ExecErrors.data("unrecognized encoding: \"" + v[1] + "\"");
            };
        });
    }

    /** {@code decode(text, format)}: the inverse of {@link #encode}. */
    static Expr decode(List<Expr> operands) {
        return Strict.nary(operands, v -> {
            String text = (String) v[0];
            try {
                return switch (((String) v[1]).toLowerCase(Locale.ROOT)) {
                    case "hex" -> HexFormat.of().parseHex(text.strip());
                    case "base64" -> java.util.Base64.getMimeDecoder().decode(text);
                    case "escape" -> Values.parseBytes(text);
                    default -> throw ExecErrors.data("unrecognized encoding: \"" + v[1] + "\"");
                };
            } catch (IllegalArgumentException e) {
                throw ExecErrors.data("invalid " + v[1] + " data: " + e.getMessage());
            }
        });
    }

    static Expr dateTrunc(List<Expr> operands) {
        return Strict.nary(operands, v -> truncate((String) v[0], (LocalDateTime) v[1]));
    }

    private static LocalDateTime truncate(String field, LocalDateTime t) {
        LocalDate d = t.toLocalDate();
        return switch (field.strip().toLowerCase(Locale.ROOT)) {
            case "microseconds" -> t.truncatedTo(ChronoUnit.MICROS);
            case "milliseconds" -> t.truncatedTo(ChronoUnit.MILLIS);
            case "second" -> t.truncatedTo(ChronoUnit.SECONDS);
            case "minute" -> t.truncatedTo(ChronoUnit.MINUTES);
            case "hour" -> t.truncatedTo(ChronoUnit.HOURS);
            case "day" -> d.atStartOfDay();
            case "week" -> d.minusDays(d.getDayOfWeek().getValue() - DayOfWeek.MONDAY.getValue()).atStartOfDay();
            case "month" -> d.withDayOfMonth(1).atStartOfDay();
            case "quarter" -> d.withDayOfMonth(1).withMonth((d.getMonthValue() - 1) / 3 * 3 + 1).atStartOfDay();
            case "year" -> d.withDayOfYear(1).atStartOfDay();
            case "decade" -> LocalDate.of(Math.floorDiv(d.getYear(), 10) * 10, 1, 1).atStartOfDay();
            case "century" -> LocalDate.of(Math.floorDiv(d.getYear() - 1, 100) * 100 + 1, 1, 1).atStartOfDay();
            case "millennium" -> LocalDate.of(Math.floorDiv(d.getYear() - 1, 1000) * 1000 + 1, 1, 1).atStartOfDay();
            default -> throw ExecErrors.data("date_trunc: unit \"" + field + "\" not recognized");
        };
    }
}
