package io.tell.sql.ddl;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.sql.ColumnType;
import io.tell.sql.ddl.DdlLexer.Kind;
import io.tell.sql.ddl.DdlLexer.Token;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.format.DateTimeParseException;

/**
 * The small terms of DDL statements, read from a {@link DdlLexer} one token ahead: keywords,
 * identifiers, column types and DEFAULT literals.
 *
 * <p>Types: INTEGER | INT, BIGINT, SMALLINT, DECIMAL | NUMERIC | DEC [(p [, s])] (bare: p =
 * {@value #DEFAULT_DECIMAL_PRECISION}, s = 0), DOUBLE [PRECISION] | FLOAT, REAL, VARCHAR(n) |
 * CHAR[ACTER] VARYING(n), TEXT | CLOB (VARCHAR of the longest length), CHAR[ACTER] [(n)] (bare: 1),
 * BOOLEAN, DATE, TIMESTAMP [(p)] [WITHOUT TIME ZONE], TIMESTAMP [(p)] WITH TIME ZONE | TIMESTAMPTZ,
 * TIME [(p)] [WITHOUT TIME ZONE] (values keep their
 * fraction of a second whatever p says), VARBINARY(n) | BINARY VARYING(n), BYTEA | BLOB (VARBINARY of the
 * longest length), UUID. Literals: numbers with an optional sign, 'strings', TRUE, FALSE, NULL,
 * DATE 'yyyy-mm-dd', TIMESTAMP 'yyyy-mm-dd hh:mm[:ss[.f]]', TIME 'hh:mm[:ss[.f]]', X'hex'.
 */
final class DdlTerms {
    /** Precision of a DECIMAL without one (Calcite's default too). */
    static final int DEFAULT_DECIMAL_PRECISION = 19;

    private final DdlLexer lexer;
    private Token token;

    DdlTerms(DdlLexer lexer) {
        this.lexer = lexer;
        this.token = lexer.next();
    }

    /** The current token, not yet consumed. */
    Token token() {
        return token;
    }

    /** Consumes the current token when it is {@code keyword}. */
    boolean accept(String keyword) {
        if (token.is(keyword)) {
            token = lexer.next();
            return true;
        }
        return false;
    }

    boolean acceptSymbol(char symbol) {
        if (token.isSymbol(symbol)) {
            token = lexer.next();
            return true;
        }
        return false;
    }

    void expect(String keyword) {
        if (!accept(keyword)) {
            throw expected(keyword);
        }
    }

    void expectSymbol(char symbol) {
        if (!acceptSymbol(symbol)) {
            throw expected("\"" + symbol + "\"");
        }
    }

    /** An identifier: unquoted, folded to upper case, or quoted, as written. */
    String identifier(String what) {
        Token t = token;
        if (t.kind() == Kind.WORD) {
            token = lexer.next();
            return t.upper();
        }
        if (t.kind() == Kind.QUOTED && !t.value().isEmpty()) {
            token = lexer.next();
            return t.value();
        }
        throw expected(what);
    }

    /**
     * A schema, relation or index name, {@code name} or {@code schema.name}, as written: {@code SCHEMA.NAME} or
     * {@code NAME} ({@link io.tell.sql.SchemaPath} makes it a catalog name). Such names cannot hold a dot.
     */
    String qualifiedName(String what) {
        Token at = token;
        String first = plainName(what);
        if (!acceptSymbol('.')) {
            return first;
        }
        String second = plainName(what);
        if (token.isSymbol('.')) {
            throw error("Expected " + what + " of at most two parts, schema.name", at);
        }
        return first + "." + second;
    }

    /** An identifier without a dot in it: a schema's, or one part of a qualified name. */
    String plainName(String what) {
        Token at = token;
        String name = identifier(what);
        if (name.indexOf('.') >= 0) {
            throw error("A schema, table, view, sequence or index name cannot contain '.': \"" + name + "\"", at);
        }
        return name;
    }

    /** {@code Expected <what> but found <the current token>}, at the current token. */
    TellException expected(String what) {
        return error("Expected " + what + " but found " + token.shown(), token);
    }

    ColumnType type() {
        Token at = token;
        if (at.kind() != Kind.WORD) {
            throw expected("a type");
        }
        token = lexer.next();
        try {
            return switch (at.upper()) {
                case "INTEGER", "INT" -> ColumnType.INTEGER;
                case "BIGINT" -> ColumnType.BIGINT;
                case "SMALLINT" -> ColumnType.SMALLINT;
                case "REAL" -> ColumnType.REAL;
                case "FLOAT" -> ColumnType.DOUBLE;
                case "DOUBLE" -> {
                    accept("PRECISION");
                    yield ColumnType.DOUBLE;
                }
                case "DECIMAL", "NUMERIC", "DEC" -> decimal();
                case "VARCHAR" -> ColumnType.varchar(length());
                case "TEXT", "CLOB" -> ColumnType.varchar(ColumnType.MAX_LENGTH);
                case "CHAR", "CHARACTER" -> accept("VARYING") ? ColumnType.varchar(length())
                        : ColumnType.character(token.isSymbol('(') ? length() : 1);
                case "BOOLEAN" -> ColumnType.BOOLEAN;
                case "DATE" -> ColumnType.DATE;
                case "TIMESTAMP" -> withoutTimeZone(at, ColumnType.TIMESTAMP);
                case "TIME" -> withoutTimeZone(at, ColumnType.TIME);
                case "TIMESTAMPTZ" -> ColumnType.TIMESTAMPTZ;
                case "VARBINARY" -> ColumnType.varbinary(length());
                case "BINARY" -> {
                    if (!accept("VARYING")) {
                        throw error(ErrorCode.FEATURE_NOT_SUPPORTED, "BINARY(n), a fixed-length byte string, is not supported;"
                                + " use VARBINARY(n) or BYTEA", at);
                    }
                    yield ColumnType.varbinary(length());
                }
                case "BYTEA", "BLOB" -> ColumnType.varbinary(ColumnType.MAX_LENGTH);
                case "UUID" -> ColumnType.UUID;
                default -> throw error("Unknown type " + at.shown(), at);
            };
        } catch (TellException e) {
            if (e.code() != ErrorCode.INVALID_DEFINITION) {
                throw e;
            }
            throw error(e.code(), e.getMessage(), at); // ColumnType refused a length, precision or scale
        }
    }

    /** A DEFAULT literal's value (see {@link DdlStatement.Column}). */
    Object literal() {
        Token at = token;
        if (at.isSymbol('-') || at.isSymbol('+')) {
            token = lexer.next();
            if (token.kind() != Kind.NUMBER) {
                throw expected("a number");
            }
            Object n = number(token);
            token = lexer.next();
            return at.isSymbol('+') ? n : negate(n);
        }
        if (at.kind() == Kind.NUMBER || at.kind() == Kind.STRING) {
            token = lexer.next();
            return at.kind() == Kind.NUMBER ? number(at) : at.value();
        }
        if (at.kind() == Kind.WORD) {
            switch (at.upper()) {
                case "TRUE", "FALSE", "NULL" -> {
                    token = lexer.next();
                    return at.is("NULL") ? null : at.is("TRUE");
                }
                case "DATE", "TIMESTAMP", "TIME" -> {
                    token = lexer.next();
                    return dateTime(at);
                }
                case "X" -> {
                    token = lexer.next();
                    return hex();
                }
                case "CURRENT_DATE", "CURRENT_TIME", "CURRENT_TIMESTAMP", "LOCALTIME", "LOCALTIMESTAMP" ->
                        throw error(ErrorCode.FEATURE_NOT_SUPPORTED, "DEFAULT " + at.upper() + " is not supported", at);
                default -> {
                }
            }
        }
        throw expected("a literal");
    }

    /** A whole number, with an optional sign, that fits a BIGINT. */
    long integer(String what) {
        Token at = token;
        Object v = at.kind() == Kind.NUMBER || at.isSymbol('-') || at.isSymbol('+') ? literal() : null;
        if (v instanceof Long n) {
            return n;
        }
        throw v == null ? expected(what) : error("Expected " + what + " (a whole number within BIGINT) but found "
                + at.shown(), at);
    }

    /** {@code ( text )}: the text between the parentheses as written, e.g. a CHECK's condition. */
    String parenthesized(String what) {
        Token open = token;
        if (!open.isSymbol('(')) {
            throw expected("\"(\" and " + what);
        }
        String inner = lexer.closeParenthesis(open);
        token = lexer.next();
        if (inner.isEmpty()) {
            throw error("Expected " + what + " inside the parentheses", open);
        }
        return inner;
    }

    /** A 'string' literal. */
    String string(String what) {
        Token at = token;
        if (at.kind() != Kind.STRING) {
            throw expected(what);
        }
        token = lexer.next();
        return at.value();
    }

    private ColumnType decimal() {
        if (!acceptSymbol('(')) {
            return ColumnType.decimal(DEFAULT_DECIMAL_PRECISION, 0);
        }
        int precision = unsignedInt("a precision");
        int scale = acceptSymbol(',') ? unsignedInt("a scale") : 0;
        expectSymbol(')');
        return ColumnType.decimal(precision, scale);
    }

    /**
     * {@code [(p)] [WITH[OUT] TIME ZONE]} after TIMESTAMP or TIME (TIME WITH TIME ZONE is refused); p (0 to
     * 9) is accepted and values keep their fraction.
     */
    private ColumnType withoutTimeZone(Token keyword, ColumnType type) {
        if (acceptSymbol('(')) {
            Token p = token;
            int precision = unsignedInt("a precision");
            expectSymbol(')');
            if (precision > 9) {
                throw error(ErrorCode.INVALID_DEFINITION, keyword.upper() + " precision must be in [0, 9]: " + precision, p);
            }
        }
        Token at = token;
        if (accept("WITH")) {
            if (!type.equals(ColumnType.TIMESTAMP)) {
                throw error(ErrorCode.FEATURE_NOT_SUPPORTED, keyword.upper() + " WITH TIME ZONE is not supported", at);
            }
            expect("TIME");
            expect("ZONE");
            return ColumnType.TIMESTAMPTZ;
        }
        if (accept("WITHOUT")) {
            expect("TIME");
            expect("ZONE");
        }
        return type;
    }

    /** {@code (n)}. */
    private int length() {
        expectSymbol('(');
        int n = unsignedInt("a length");
        expectSymbol(')');
        return n;
    }

    private int unsignedInt(String what) {
        Token t = token;
        if (t.kind() != Kind.NUMBER || !t.value().chars().allMatch(Character::isDigit)) {
            throw expected(what);
        }
        try {
            int n = Integer.parseInt(t.value());
            token = lexer.next();
            return n;
        } catch (NumberFormatException e) {
            throw error("Number " + t.value() + " is too large for " + what, t);
        }
    }

    private Object dateTime(Token keyword) {
        Token text = token;
        if (text.kind() != Kind.STRING) {
            throw expected("a string after " + keyword.upper());
        }
        token = lexer.next();
        try {
            return switch (keyword.upper()) {
                case "DATE" -> LocalDate.parse(text.value().trim());
                case "TIME" -> LocalTime.parse(text.value().trim());
                default -> LocalDateTime.parse(text.value().trim().replaceFirst(" +", "T"));
            };
        } catch (DateTimeParseException e) {
            throw error("Bad " + keyword.upper() + " literal " + text.source(), text);
        }
    }

    /** The bytes of {@code X'hex'}, after the X. */
    private byte[] hex() {
        Token text = token;
        if (text.kind() != Kind.STRING) {
            throw expected("a literal");
        }
        token = lexer.next();
        try {
            return java.util.HexFormat.of().parseHex(text.value());
        } catch (IllegalArgumentException e) {
            throw error("Bad binary literal X" + text.source() + ": it needs an even number of hex digits", text);
        }
    }

    /** A Long for an integer that fits, a BigDecimal for other exact numbers, a Double with an exponent. */
    private static Object number(Token t) {
        String s = t.value();
        if (s.indexOf('e') >= 0 || s.indexOf('E') >= 0) {
            return Double.parseDouble(s);
        }
        if (s.indexOf('.') < 0) {
            try {
                return Long.parseLong(s);
            } catch (NumberFormatException e) {
                // beyond BIGINT: exact as a BigDecimal
            }
        }
        return new BigDecimal(s);
    }

    private static Object negate(Object n) {
        return switch (n) {
            case Long l -> -l;
            case Double d -> -d;
            case BigDecimal d -> d.negate();
            default -> throw new IllegalStateException("not a number: " + n);
        };
    }

    private static TellException error(String message, Token at) {
        return error(ErrorCode.SQL_SYNTAX, message, at);
    }

    private static TellException error(ErrorCode code, String message, Token at) {
        return DdlLexer.error(code, message, at.line(), at.column());
    }
}
