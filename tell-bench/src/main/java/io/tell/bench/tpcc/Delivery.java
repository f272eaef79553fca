package io.tell.bench.tpcc;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;

/**
 * The Delivery transaction (§2.7), run in the terminal rather than deferred to a queue: the
 * oldest undelivered order of each of the ten districts, in one database transaction. When the
 * DELETE of the oldest NEW_ORDER row finds it gone (another Delivery took it meanwhile, under
 * READ COMMITTED) the next oldest is tried; a district without one is skipped (§2.7.4.2).
 */
final class Delivery implements TpccTransaction {

    /** The input of §2.7.1. */
    record Input(int warehouse, int carrier) {
    }

    private final Connection connection;
    private final TerminalHome home;
    private final PreparedStatement oldestNewOrder;
    private final PreparedStatement deleteNewOrder;
    private final PreparedStatement orderCustomer;
    private final PreparedStatement setCarrier;
    private final PreparedStatement setDeliveryDate;
    private final PreparedStatement orderAmount;
    private final PreparedStatement payCustomer;
    private long skippedDistricts;

    Delivery(Connection connection, TerminalHome home) throws SQLException {
        this.connection = connection;
        this.home = home;
        oldestNewOrder = connection.prepareStatement("SELECT NO_O_ID FROM NEW_ORDER WHERE NO_W_ID = ? AND NO_D_ID = ?"
                + " ORDER BY NO_O_ID FETCH FIRST 1 ROWS ONLY");
        deleteNewOrder = connection.prepareStatement("DELETE FROM NEW_ORDER WHERE NO_W_ID = ? AND NO_D_ID = ? AND NO_O_ID = ?");
        orderCustomer = connection.prepareStatement("SELECT O_C_ID FROM OORDER WHERE O_W_ID = ? AND O_D_ID = ? AND O_ID = ?");
        setCarrier = connection.prepareStatement("UPDATE OORDER SET O_CARRIER_ID = ? WHERE O_W_ID = ? AND O_D_ID = ? AND O_ID = ?");
        setDeliveryDate = connection.prepareStatement(
                "UPDATE ORDER_LINE SET OL_DELIVERY_D = ? WHERE OL_W_ID = ? AND OL_D_ID = ? AND OL_O_ID = ?");
        orderAmount = connection.prepareStatement(
                "SELECT SUM(OL_AMOUNT) FROM ORDER_LINE WHERE OL_W_ID = ? AND OL_D_ID = ? AND OL_O_ID = ?");
        payCustomer = connection.prepareStatement("UPDATE CUSTOMER SET C_BALANCE = C_BALANCE + ?,"
                + " C_DELIVERY_CNT = C_DELIVERY_CNT + 1 WHERE C_W_ID = ? AND C_D_ID = ? AND C_ID = ?");
    }

    @Override
    public TransactionType type() {
        return TransactionType.DELIVERY;
    }

    @Override
    public Execution next(TpccRandom random) {
        Input input = new Input(home.warehouse(), random.uniform(1, 10));
        return () -> execute(input);
    }

    /** Districts found without an undelivered order, over this terminal's Deliveries. */
    long skippedDistricts() {
        return skippedDistricts;
    }

    Outcome execute(Input in) throws SQLException {
        Timestamp now = new Timestamp(System.currentTimeMillis());
        int w = in.warehouse();
        int skipped = 0;
        for (int d = 1; d <= TpccScale.DISTRICTS_PER_WAREHOUSE; d++) {
            int orderId = takeOldest(w, d);
            if (orderId == 0) {
                skipped++;
                continue;
            }
            int customer;
            try (ResultSet rs = Sql.single(orderCustomer, w, d, orderId)) {
                customer = rs.getInt(1);
            }
            Sql.update(setCarrier, in.carrier(), w, d, orderId);
            Sql.update(setDeliveryDate, now, w, d, orderId);
            BigDecimal amount;
            try (ResultSet rs = Sql.single(orderAmount, w, d, orderId)) {
                amount = rs.getBigDecimal(1);
            }
            Sql.update(payCustomer, amount == null ? BigDecimal.ZERO : amount, w, d, customer);
        }
        connection.commit();
        skippedDistricts += skipped;
        return Outcome.COMMITTED;
    }

    /** Deletes the oldest NEW_ORDER row of the district and returns its order id, 0 if none is left. */
    private int takeOldest(int w, int d) throws SQLException {
        for (int attempt = 0; attempt < 100; attempt++) {
            int orderId;
            try (ResultSet rs = Sql.query(oldestNewOrder, w, d)) {
                if (!rs.next()) {
                    return 0;
                }
                orderId = rs.getInt(1);
            }
            if (Sql.update(deleteNewOrder, w, d, orderId) == 1) {
                return orderId;
            }
        }
        throw new SQLException("TPC-C: new orders kept vanishing under Delivery", "40001");
    }
}
