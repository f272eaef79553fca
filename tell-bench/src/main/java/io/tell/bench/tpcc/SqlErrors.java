package io.tell.bench.tpcc;

import java.io.PrintStream;
import java.sql.SQLException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Which SQL errors are conflicts to retry, and the few unexpected ones worth printing. A
 * conflict is SQLState 40001 (serialization failure, also H2's deadlock) or 40P01
 * (PostgreSQL's deadlock), anywhere in the exception's chain.
 */
final class SqlErrors {
    private static final int PRINTED = 5;

    private final PrintStream out;
    private final AtomicInteger seen = new AtomicInteger();

    SqlErrors(PrintStream out) {
        this.out = out;
    }

    static boolean isConflict(SQLException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SQLException s) {
                for (SQLException n = s; n != null; n = n.getNextException()) {
                    if ("40001".equals(n.getSQLState()) || "40P01".equals(n.getSQLState())) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    /** Prints the first few errors of the run (with SQLState), counts the rest. */
    void report(TransactionType type, SQLException e) {
        int n = seen.incrementAndGet();
        if (out != null && n <= PRINTED) {
            out.printf("tpcc: %s error [SQLState %s, code %d]: %s%s%n", type.label(), e.getSQLState(), e.getErrorCode(),
                    e.getMessage(), n == PRINTED ? " (further errors are only counted)" : "");
        }
    }

    int count() {
        return seen.get();
    }
}
