package io.tell.sql;

import java.util.List;

/**
 * A statement prepared by a {@link SqlSession}: planned (or found in the node's plan cache)
 * once, executed any number of times with different parameter values. Immutable and
 * shareable; if DDL changes the catalog, executing it re-plans transparently.
 */
public interface PreparedSql {
    /** What kind of statement this is. */
    enum Kind {
        /** Returns rows: SELECT, VALUES, EXPLAIN, and INSERT/UPDATE/DELETE … RETURNING. */
        QUERY,
        /** INSERT, UPDATE, DELETE: returns an update count. */
        DML,
        /** CREATE/DROP TABLE/INDEX: returns 0. Commits an open transaction first, as most databases do. */
        DDL
    }

    String sql();

    Kind kind();

    /** The result columns (empty unless {@link Kind#QUERY}). */
    List<ColumnInfo> columns();

    /** The {@code ?} parameters in order. */
    List<ColumnInfo> parameters();

    /**
     * True when executing it writes rows: DML, and a query that is an INSERT, UPDATE or DELETE
     * with RETURNING (its rows are the changed ones).
     */
    default boolean writes() {
        return kind() == Kind.DML;
    }
}
