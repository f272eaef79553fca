package io.tell.bench.tpcc;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/** The Order-Status transaction (§2.6), read-only: a customer's balance and last order with its lines. */
final class OrderStatus implements TpccTransaction {

    /** The input of §2.6.1; {@code customerLast} set means selection by last name. */
    record Input(int warehouse, int district, int customerId, String customerLast) {
    }

    private final Connection connection;
    private final TerminalHome home;
    private final PreparedStatement customersByName;
    private final PreparedStatement customerById;
    private final PreparedStatement lastOrder;
    private final PreparedStatement orderLines;

    OrderStatus(Connection connection, TerminalHome home) throws SQLException {
        this.connection = connection;
        this.home = home;
        customersByName = connection.prepareStatement("SELECT C_ID, C_BALANCE, C_FIRST, C_MIDDLE FROM CUSTOMER"
                + " WHERE C_W_ID = ? AND C_D_ID = ? AND C_LAST = ? ORDER BY C_FIRST");
        customerById = connection.prepareStatement(
                "SELECT C_BALANCE, C_FIRST, C_MIDDLE, C_LAST FROM CUSTOMER WHERE C_W_ID = ? AND C_D_ID = ? AND C_ID = ?");
        lastOrder = connection.prepareStatement("SELECT O_ID, O_ENTRY_D, O_CARRIER_ID FROM OORDER"
                + " WHERE O_W_ID = ? AND O_D_ID = ? AND O_C_ID = ? ORDER BY O_ID DESC FETCH FIRST 1 ROWS ONLY");
        orderLines = connection.prepareStatement("SELECT OL_I_ID, OL_SUPPLY_W_ID, OL_QUANTITY, OL_AMOUNT, OL_DELIVERY_D"
                + " FROM ORDER_LINE WHERE OL_W_ID = ? AND OL_D_ID = ? AND OL_O_ID = ?");
    }

    @Override
    public TransactionType type() {
        return TransactionType.ORDER_STATUS;
    }

    @Override
    public Execution next(TpccRandom random) {
        Input input = input(random, home);
        return () -> execute(input);
    }

    /** Draws an input per §2.6.1: a district of the home warehouse, 60 % by last name. */
    static Input input(TpccRandom random, TerminalHome home) {
        int district = random.uniform(1, TpccScale.DISTRICTS_PER_WAREHOUSE);
        boolean byLastName = random.uniform(1, 100) <= 60;
        return new Input(home.warehouse(), district, byLastName ? 0 : random.customerId(),
                byLastName ? random.randomLastName() : null);
    }

    Outcome execute(Input in) throws SQLException {
        int customer = in.customerLast() == null ? byId(in) : byName(in);
        int orderId;
        try (ResultSet rs = Sql.single(lastOrder, in.warehouse(), in.district(), customer)) {
            orderId = rs.getInt(1);
        }
        int lines = 0;
        try (ResultSet rs = Sql.query(orderLines, in.warehouse(), in.district(), orderId)) {
            while (rs.next()) {
                lines++;
            }
        }
        if (lines == 0) {
            throw new SQLException("TPC-C: order " + orderId + " has no lines", "02000");
        }
        connection.commit();
        return Outcome.COMMITTED;
    }

    private int byId(Input in) throws SQLException {
        try (ResultSet rs = Sql.single(customerById, in.warehouse(), in.district(), in.customerId())) {
            rs.getBigDecimal(1);
            return in.customerId();
        }
    }

    private int byName(Input in) throws SQLException {
        List<Integer> ids = new ArrayList<>();
        List<BigDecimal> balances = new ArrayList<>();
        try (ResultSet rs = Sql.query(customersByName, in.warehouse(), in.district(), in.customerLast())) {
            while (rs.next()) {
                ids.add(rs.getInt(1));
                balances.add(rs.getBigDecimal(2));
            }
        }
        if (ids.isEmpty()) {
            throw new SQLException("TPC-C: no customer named " + in.customerLast(), "02000");
        }
        return ids.get(CustomerByName.middle(ids.size()));
    }
}
