package io.tell.sql.ddl;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import java.util.Locale;

/**
 * Splits DDL text into tokens on demand, skipping white space, {@code --} line comments and
 * {@code /* *}{@code /} block comments. Unquoted words keep their spelling here ({@link Token#upper}
 * gives the folded form); {@code "quoted"} identifiers and {@code 'strings'} come unescaped
 * ({@code ""} and {@code ''} stand for one quote). Lines and columns count from 1.
 */
final class DdlLexer {
    enum Kind { WORD, QUOTED, STRING, NUMBER, SYMBOL, END }

    /** One token: its kind, its value (unescaped for QUOTED and STRING) and where it starts. */
    record Token(Kind kind, String value, String source, int line, int column) {
        String upper() {
            return value.toUpperCase(Locale.ROOT);
        }

        /** True for the unquoted word {@code keyword} (any case). */
        boolean is(String keyword) {
            return kind == Kind.WORD && value.equalsIgnoreCase(keyword);
        }

        boolean isSymbol(char c) {
            return kind == Kind.SYMBOL && value.charAt(0) == c;
        }

        /** The token as an error message shows it. */
        String shown() {
            return kind == Kind.END ? "end of input" : kind == Kind.QUOTED ? source : "\"" + source + "\"";
        }
    }

    private final String sql;
    private int pos;
    private int line = 1;
    private int lineStart;

    DdlLexer(String sql) {
        this.sql = sql;
    }

    /** The next token; {@link Kind#END} at the end, located just after the last token. */
    Token next() {
        int endLine = line;
        int endColumn = pos - lineStart + 1;
        skipBlanks();
        if (pos >= sql.length()) {
            return new Token(Kind.END, "", "", endLine, endColumn);
        }
        int start = pos;
        int column = pos - lineStart + 1;
        char c = sql.charAt(pos);
        if (Character.isLetter(c) || c == '_') {
            while (pos < sql.length() && isWordPart(sql.charAt(pos))) {
                pos++;
            }
            return token(Kind.WORD, sql.substring(start, pos), start, column);
        }
        if (c == '"' || c == '\'') {
            return quoted(c, start, column);
        }
        if (Character.isDigit(c) || c == '.' && pos + 1 < sql.length() && Character.isDigit(sql.charAt(pos + 1))) {
            return number(start, column);
        }
        if ("(),;.+-".indexOf(c) >= 0) {
            pos++;
            return token(Kind.SYMBOL, String.valueOf(c), start, column);
        }
        throw error("Unexpected character \"" + c + "\"", line, column);
    }

    /**
     * The raw text from here to the parenthesis that closes the one just read ({@code open}),
     * which it consumes: for expressions DDL keeps as SQL text (CHECK). Quotes and comments are
     * skipped whole.
     */
    String closeParenthesis(Token open) {
        int depth = 1;
        int start = pos;
        while (pos < sql.length()) {
            char c = sql.charAt(pos);
            if (c == '\'' || c == '"') {
                quoted(c, pos, pos - lineStart + 1);
            } else if (c == '\n' || sql.startsWith("--", pos) || sql.startsWith("/*", pos)) {
                skipBlanks();
            } else {
                if (c == '(') {
                    depth++;
                } else if (c == ')' && --depth == 0) {
                    String inner = sql.substring(start, pos).strip();
                    pos++;
                    return inner;
                }
                pos++;
            }
        }
        throw error("Unclosed \"(\"", open.line(), open.column());
    }

    /** A positioned {@link ErrorCode#SQL_SYNTAX} error. */
    static TellException error(String message, int line, int column) {
        return error(ErrorCode.SQL_SYNTAX, message, line, column);
    }

    /** A positioned error, its message ending as {@code SqlFrontEnd}'s do. */
    static TellException error(ErrorCode code, String message, int line, int column) {
        return TellException.of(code, message + " (at line " + line + ", column " + column + ")");
    }

    private Token token(Kind kind, String value, int start, int column) {
        return new Token(kind, value, sql.substring(start, pos), line, column);
    }

    private Token quoted(char quote, int start, int column) {
        int startLine = line;
        StringBuilder value = new StringBuilder();
        pos++;
        while (true) {
            if (pos >= sql.length()) {
                throw error(quote == '"' ? "Unterminated quoted identifier" : "Unterminated string", startLine, column);
            }
            char c = sql.charAt(pos++);
            if (c == quote) {
                if (pos < sql.length() && sql.charAt(pos) == quote) {
                    value.append(quote);
                    pos++;
                    continue;
                }
                break;
            }
            if (c == '\n') {
                newLine();
            }
            value.append(c);
        }
        return new Token(quote == '"' ? Kind.QUOTED : Kind.STRING, value.toString(), sql.substring(start, pos),
                startLine, column);
    }

    private Token number(int start, int column) {
        digits();
        if (pos < sql.length() && sql.charAt(pos) == '.') {
            pos++;
            digits();
        }
        if (pos < sql.length() && (sql.charAt(pos) == 'e' || sql.charAt(pos) == 'E')) {
            int mark = pos++;
            if (pos < sql.length() && (sql.charAt(pos) == '+' || sql.charAt(pos) == '-')) {
                pos++;
            }
            if (pos < sql.length() && Character.isDigit(sql.charAt(pos))) {
                digits();
            } else {
                pos = mark; // not an exponent: the E starts the next token
            }
        }
        return token(Kind.NUMBER, sql.substring(start, pos), start, column);
    }

    private void digits() {
        while (pos < sql.length() && Character.isDigit(sql.charAt(pos))) {
            pos++;
        }
    }

    private void skipBlanks() {
        while (pos < sql.length()) {
            char c = sql.charAt(pos);
            if (c == '\n') {
                pos++;
                newLine();
            } else if (Character.isWhitespace(c)) {
                pos++;
            } else if (sql.startsWith("--", pos)) {
                while (pos < sql.length() && sql.charAt(pos) != '\n') {
                    pos++;
                }
            } else if (sql.startsWith("/*", pos)) {
                int startLine = line;
                int column = pos - lineStart + 1;
                pos += 2;
                while (!sql.startsWith("*/", pos)) {
                    if (pos >= sql.length()) {
                        throw error("Unterminated comment", startLine, column);
                    }
                    if (sql.charAt(pos++) == '\n') {
                        newLine();
                    }
                }
                pos += 2;
            } else {
                return;
            }
        }
    }

    private void newLine() {
        line++;
        lineStart = pos;
    }

    private static boolean isWordPart(char c) {
        return Character.isLetterOrDigit(c) || c == '_' || c == '$';
    }
}
