package io.tell.bench.tpcc;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.EnumMap;
import java.util.Map;

/**
 * One of the five transactions, bound to a terminal's connection with its statements prepared.
 * {@link #next} draws the input of one execution (§2.x.1); the returned {@link Execution} runs
 * it as one database transaction and may be run again with the same input after a conflict.
 */
interface TpccTransaction {

    TransactionType type();

    Execution next(TpccRandom random);

    /** The five transactions on {@code connection}, for a terminal at {@code home}. */
    static Map<TransactionType, TpccTransaction> all(Connection connection, TerminalHome home) throws SQLException {
        Map<TransactionType, TpccTransaction> all = new EnumMap<>(TransactionType.class);
        for (TpccTransaction t : new TpccTransaction[] {new NewOrder(connection, home), new Payment(connection, home),
                new OrderStatus(connection, home), new Delivery(connection, home), new StockLevel(connection, home)}) {
            all.put(t.type(), t);
        }
        return all;
    }

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
