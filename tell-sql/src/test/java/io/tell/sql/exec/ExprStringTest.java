package io.tell.sql.exec;

import static io.tell.sql.exec.RexFixture.row;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.tell.error.ErrorCode;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.junit.jupiter.api.Test;

/** LIKE, SIMILAR TO and the string functions. */
class ExprStringTest {
    private final RexFixture f = new RexFixture();

    private Object like(String value, String pattern) {
        return f.eval("S LIKE '" + pattern.replace("'", "''") + "'", row("S", value));
    }

    @Test
    void likeWithWildcards() {
        assertEquals(true, like("abc", "a%"));
        assertEquals(false, like("xabc", "a%"));
        assertEquals(true, like("xabc", "%bc"));
        assertEquals(true, like("xabcx", "%bc%"));
        assertEquals(true, like("abc", "abc"));
        assertEquals(false, like("abcd", "abc"));
        assertEquals(true, like("", "%"));
        assertEquals(true, like("abc", "a_c"));
        assertEquals(false, like("abbc", "a_c"));
        assertEquals(true, like("a\nb", "a%b"));
        assertEquals(true, like("axxbyyc", "a%b%c"));
        // Regex specials in the pattern are plain characters.
        assertEquals(true, like("a.c(", "a.c("));
        assertEquals(false, like("abc(", "a.c("));
        assertEquals(true, like("1+1=2", "%+1=%"));
        assertNull(f.eval("S LIKE 'a%'", row()));
        assertEquals(false, f.eval("S NOT LIKE 'a%'", row("S", "abc")));
    }

    @Test
    void likeWithEscape() {
        assertEquals(true, f.eval("S LIKE 'a!%' ESCAPE '!'", row("S", "a%")));
        assertEquals(false, f.eval("S LIKE 'a!%' ESCAPE '!'", row("S", "ab")));
        assertEquals(true, f.eval("S LIKE '%!_%' ESCAPE '!'", row("S", "x_y")));
        assertEquals(false, f.eval("S LIKE '%!_%' ESCAPE '!'", row("S", "xy")));
        assertEquals(true, f.eval("S LIKE 'a!!b' ESCAPE '!'", row("S", "a!b")));
        assertEquals(true, f.eval("S LIKE 'a!__' ESCAPE '!'", row("S", "a_z")));
        assertEquals(ErrorCode.DATA_EXCEPTION, f.failure("S LIKE 'a!b' ESCAPE '!'", row("S", "ab")));
        assertEquals(ErrorCode.DATA_EXCEPTION, f.failure("S LIKE 'a!' ESCAPE '!'", row("S", "a")));
    }

    @Test
    void likeWithColumnPatternsAndChar() {
        assertEquals(true, f.eval("S LIKE C", row("S", "abc", "C", "a%   ")));
        assertNull(f.eval("S LIKE C", row("S", "abc")));
        assertEquals(true, f.eval("C LIKE 'ab'", row("C", "ab   "))); // CHAR padding is not matched
        assertEquals(true, f.eval("C LIKE '%b'", row("C", "ab   ")));
        RexNode escaped = f.rexBuilder.makeCall(SqlStdOperatorTable.LIKE, f.ref("S"), f.ref("C"), f.ref("S"));
        assertNull(f.eval(escaped, row("C", "x")));
        RexNode ilike = f.rexBuilder.makeCall(org.apache.calcite.sql.fun.SqlLibraryOperators.ILIKE, f.ref("S"), f.ref("C"));
        assertEquals(true, f.eval(ilike, row("S", "ABC", "C", "a%")));
    }

    @Test
    void similarTo() {
        assertEquals(true, f.eval("S SIMILAR TO 'a(b|c)*'", row("S", "abcb")));
        assertEquals(false, f.eval("S SIMILAR TO 'a(b|c)*'", row("S", "abd")));
        assertEquals(true, f.eval("S NOT SIMILAR TO 'a'", row("S", "b")));
        assertEquals(true, f.eval("S SIMILAR TO '%!%' ESCAPE '!'", row("S", "50%")));
    }

    @Test
    void concatUpperLowerInitcap() {
        assertEquals("abcab   ", f.eval("S || C", row("S", "abc", "C", "ab   ")));
        assertNull(f.eval("S || C", row("S", "abc")));
        assertEquals("ABC", f.eval("UPPER(S)", row("S", "aBc")));
        assertEquals("abc", f.eval("LOWER(S)", row("S", "aBc")));
        assertEquals("Hello World", f.eval("INITCAP(S)", row("S", "hello wORLD")));
    }

    @Test
    void trim() {
        assertEquals("a b", f.eval("TRIM(S)", row("S", "  a b  ")));
        assertEquals("a b  ", f.eval("TRIM(LEADING FROM S)", row("S", "  a b  ")));
        assertEquals("  a b", f.eval("TRIM(TRAILING FROM S)", row("S", "  a b  ")));
        assertEquals("axx", f.eval("TRIM(LEADING 'x' FROM S)", row("S", "xxaxx")));
        assertEquals("a", f.eval("TRIM(BOTH 'x' FROM S)", row("S", "xxaxx")));
        assertEquals("ab", f.eval("TRIM(TRAILING FROM C)", row("C", "ab   ")));
        assertEquals("", f.eval("TRIM(S)", row("S", "   ")));
    }

    @Test
    void substring() {
        assertEquals("bc", f.eval("SUBSTRING(S FROM 2)", row("S", "abc")));
        assertEquals("bcd", f.eval("SUBSTRING(S FROM 2 FOR 3)", row("S", "abcdef")));
        assertEquals("a", f.eval("SUBSTRING(S FROM 0 FOR 2)", row("S", "abc")));
        assertEquals("", f.eval("SUBSTRING(S FROM -5 FOR 2)", row("S", "abc")));
        assertEquals("", f.eval("SUBSTRING(S FROM 10)", row("S", "abc")));
        assertEquals("abc", f.eval("SUBSTRING(S FROM -1)", row("S", "abc")));
        assertEquals("\uD83D\uDE00b", f.eval("SUBSTRING(S FROM 2 FOR 2)", row("S", "a\uD83D\uDE00bc")));
        assertEquals(ErrorCode.DATA_EXCEPTION, f.failure("SUBSTRING(S FROM 1 FOR -1)", row("S", "abc")));
        assertEquals("bc", f.eval("SUBSTRING(S, I, J)", row("S", "abc", "I", 2, "J", 5)));
        assertNull(f.eval("SUBSTRING(S, I, J)", row("S", "abc", "I", 2)));
    }

    @Test
    void lengthPositionOverlay() {
        assertEquals(3, f.eval("CHAR_LENGTH(S)", row("S", "abc")));
        assertEquals(2, f.eval("CHARACTER_LENGTH(S)", row("S", "\uD83D\uDE00b")));
        assertEquals(5, f.eval("CHAR_LENGTH(C)", row("C", "ab   ")));
        assertEquals(2, f.eval("POSITION('b' IN S)", row("S", "abcb")));
        assertEquals(4, f.eval("POSITION('b' IN S FROM 3)", row("S", "abcb")));
        assertEquals(0, f.eval("POSITION('z' IN S)", row("S", "abc")));
        assertEquals(1, f.eval("POSITION('' IN S)", row("S", "abc")));
        assertEquals(3, f.eval("POSITION('b' IN S)", row("S", "\uD83D\uDE00ab")));
        assertEquals("axc", f.eval("OVERLAY(S PLACING 'x' FROM 2)", row("S", "abc")));
        assertEquals("axyd", f.eval("OVERLAY(S PLACING 'xy' FROM 2 FOR 2)", row("S", "abcd")));
    }

    @Test
    void asciiIsTheFirstCodePoint() {
        assertEquals(65, f.eval("ASCII(S)", row("S", "AB")));
        assertEquals(54, f.eval("ASCII(SUBSTRING(C FROM 1 FOR 1))", row("C", "6Q   ")));
        assertEquals(0x1F600, f.eval("ASCII(S)", row("S", "\uD83D\uDE00b")));
        assertEquals(0, f.eval("ASCII(S)", row("S", "")));
        assertNull(f.eval("ASCII(S)", row()));
    }
}
