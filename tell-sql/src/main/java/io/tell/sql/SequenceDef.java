package io.tell.sql;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;

/**
 * A sequence as the catalog stores it. Its values are {@code start}, {@code start + increment},
 * … within {@code [min, max]}; value number {@code n} (from 1) is {@code start + (n - 1) * increment}.
 * The store keeps how many numbers were handed out (a counter record named by {@code id}, never
 * reused), and each node takes {@code cache} numbers at a time, so values are unique but may
 * have gaps and, across nodes, need not be handed out in order.
 *
 * @param ownerTable  the table whose identity (or SERIAL) column this sequence feeds, dropped
 *                    with it; null for a sequence made by CREATE SEQUENCE
 * @param ownerColumn that column; null when {@code ownerTable} is
 */
public record SequenceDef(String name, long id, long start, long increment, long min, long max, int cache,
                          String ownerTable, String ownerColumn) {
    /** Numbers a node takes from the store at a time unless CACHE says otherwise. */
    public static final int DEFAULT_CACHE = 32;

    public SequenceDef {
        Names.check("sequence", name);
        if (increment == 0) {
            throw invalid("INCREMENT of sequence " + name + " must not be zero");
        }
        if (min >= max) {
            throw invalid("MINVALUE (" + min + ") of sequence " + name + " must be less than MAXVALUE (" + max + ")");
        }
        if (start < min || start > max) {
            throw invalid("START value (" + start + ") of sequence " + name + " must lie between MINVALUE (" + min
                    + ") and MAXVALUE (" + max + ")");
        }
        if (cache < 1) {
            throw invalid("CACHE (" + cache + ") of sequence " + name + " must be at least 1");
        }
    }

    /** This sequence with the id the catalog drew for it. */
    public SequenceDef withId(long newId) {
        return new SequenceDef(name, newId, start, increment, min, max, cache, ownerTable, ownerColumn);
    }

    /** Value number {@code n} (from 1); SEQUENCE_EXHAUSTED past MAXVALUE (or MINVALUE, counting down). */
    public long value(long n) {
        long v;
        try {
            v = Math.addExact(start, Math.multiplyExact(n - 1, increment));
        } catch (ArithmeticException e) {
            throw exhausted();
        }
        if (v > max || v < min) {
            throw exhausted();
        }
        return v;
    }

    private TellException exhausted() {
        return TellException.of(ErrorCode.SEQUENCE_EXHAUSTED, "nextval: reached "
                + (increment > 0 ? "maximum value of sequence " + name + " (" + max + ")"
                : "minimum value of sequence " + name + " (" + min + ")"));
    }

    private static TellException invalid(String message) {
        return TellException.of(ErrorCode.INVALID_DEFINITION, message);
    }
}
