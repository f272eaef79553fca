package io.tell.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.junit.jupiter.api.Test;

class CastSyntaxTest {
    @Test
    void eachOperandKindIsCast() {
        assertEquals("SELECT CAST(x AS TEXT), CAST(t.c AS INTEGER), CAST(\"A\".\"b\" AS BIGINT) FROM t",
                CastSyntax.rewrite("SELECT x::text, t.c::int4, \"A\".\"b\"::int8 FROM t"));
        assertEquals("SELECT CAST('2024-01-01' AS DATE), CAST(? AS DECIMAL(5, 2)), CAST(1.5 AS DOUBLE), -CAST(1 AS INTEGER)",
                CastSyntax.rewrite("SELECT '2024-01-01'::date, ?::numeric(5, 2), 1.5::double precision, -1::int"));
        assertEquals("SELECT CAST((a + b) AS REAL), CAST(count(*) AS INTEGER), CAST(X'0a' AS BYTEA) FROM t",
                CastSyntax.rewrite("SELECT (a + b)::float4, count(*)::int, X'0a'::bytea FROM t"));
        assertEquals("SELECT CAST(CAST(x AS TEXT) AS INTEGER) WHERE y IN (CAST(1 AS BIGINT))",
                CastSyntax.rewrite("SELECT x::text::int WHERE y IN (1::int8)"));
        assertEquals("SELECT CAST(t AS TIMESTAMP WITH LOCAL TIME ZONE), CAST(u AS TIMESTAMP)",
                CastSyntax.rewrite("SELECT t::timestamp with time zone, u :: timestamp without time zone"));
    }

    @Test
    void quotesCommentsAndTextWithoutCastsStayAsTheyAre() {
        String plain = "SELECT 'a::b', \"c::d\" -- e::f\n FROM t /* g::h */";
        assertSame(plain, CastSyntax.rewrite(plain));
        String none = "SELECT 1";
        assertSame(none, CastSyntax.rewrite(none));
        assertEquals("SELECT ::int", CastSyntax.rewrite("SELECT ::int")); // no operand: the parser says so
    }
}
