package io.tell.bench.tpcc;

import java.sql.SQLException;

/**
 * One of the five transactions, bound to a terminal's connection with its statements prepared.
 * {@link #next} draws the input of one execution (§2.x.1); the returned {@link Execution} runs
 * it as one database transaction and may be run again with the same input after a conflict.
 */
interface TpccTransaction {

    TransactionType type();

    Execution next(TpccRandom random);

    /** One input, ready to run; ends with commit or, for an intended rollback, rollback. */
    @FunctionalInterface
    interface Execution {
        Outcome run() throws SQLException;
    }

    /** How an execution ended when it threw nothing. */
    enum Outcome {
        COMMITTED,
        /** Rolled back on purpose: the 1 % of New-Orders with an unused item id. */
        ROLLED_BACK
    }
}
