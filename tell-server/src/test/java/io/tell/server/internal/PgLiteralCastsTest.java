package io.tell.server.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The literal casts psycopg2 and other inlining clients write, as Tell's CAST. */
class PgLiteralCastsTest {
    @Test
    void literalCastsBecomeCast() {
        // a timestamptz literal is its instant, written at UTC (the session's time zone)
        assertEquals("VALUES (CAST('2024-05-06' AS DATE), CAST('2024-05-06 05:08:09.123' AS TIMESTAMP(6)))",
                LiteralCasts.rewrite("VALUES ('2024-05-06'::date, '2024-05-06T07:08:09.123+02:00'::timestamptz)"));
        assertEquals("SELECT CAST('NaN' AS DOUBLE), CAST('1.5' AS DECIMAL(10, 2)), 'x', 'y'",
                LiteralCasts.rewrite("SELECT 'NaN'::float, '1.5'::numeric(10, 2), 'x'::text, 'y'::pg_catalog.varchar"));
    }

    @Test
    void typeNamesOfSeveralWords() {
        assertEquals("VALUES ((CAST('2024-02-29' AS DATE)), CAST('2024-05-06 07:08:09' AS TIMESTAMP(6)), CAST('0.1' AS DOUBLE), 'x')",
                LiteralCasts.rewrite("VALUES (('2024-02-29 +00'::date), '2024-05-06 07:08:09+00'::timestamp with time zone,"
                        + " '0.1'::double precision, 'x'::character varying)"));
    }

    @Test
    void uuidsAndByteStrings() {
        assertEquals("VALUES (CAST('a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11' AS UUID), X'00ff', X'61275c', CAST('12:00' AS TIME(6)))",
                LiteralCasts.rewrite("VALUES ('a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid, '\\x00FF'::bytea, 'a''\\\\'::bytea,"
                        + " '12:00'::time without time zone)"));
    }

    @Test
    void othersAreLeftAlone() {
        assertEquals("SELECT 'a::date', x::int, '1'::interval -- '2'::date",
                LiteralCasts.rewrite("SELECT 'a::date', x::int, '1'::interval -- '2'::date"));
        assertEquals("SELECT 1", LiteralCasts.rewrite("SELECT 1"));
    }
}
