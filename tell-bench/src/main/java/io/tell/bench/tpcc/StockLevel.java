package io.tell.bench.tpcc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * The Stock-Level transaction (§2.8), read-only: how many distinct items of the district's last
 * 20 orders have a stock below the threshold, as the join of §2.8.2.2.
 */
final class StockLevel implements TpccTransaction {

    /** The input of §2.8.1: the terminal's own district and a threshold in [10, 20]. */
    record Input(int warehouse, int district, int threshold) {
    }

    private final Connection connection;
    private final TerminalHome home;
    private final PreparedStatement nextOrderId;
    private final PreparedStatement lowStock;

    StockLevel(Connection connection, TerminalHome home) throws SQLException {
        this.connection = connection;
        this.home = home;
        nextOrderId = connection.prepareStatement("SELECT D_NEXT_O_ID FROM DISTRICT WHERE D_W_ID = ? AND D_ID = ?");
        lowStock = connection.prepareStatement("SELECT COUNT(DISTINCT S_I_ID) FROM ORDER_LINE, STOCK"
                + " WHERE OL_W_ID = ? AND OL_D_ID = ? AND OL_O_ID < ? AND OL_O_ID >= ?"
                + " AND S_W_ID = ? AND S_I_ID = OL_I_ID AND S_QUANTITY < ?");
    }

    @Override
    public TransactionType type() {
        return TransactionType.STOCK_LEVEL;
    }

    @Override
    public Execution next(TpccRandom random) {
        Input input = new Input(home.warehouse(), home.district(), random.uniform(10, 20));
        return () -> execute(input);
    }

    Outcome execute(Input in) throws SQLException {
        int next;
        try (ResultSet rs = Sql.single(nextOrderId, in.warehouse(), in.district())) {
            next = rs.getInt(1);
        }
        try (ResultSet rs = Sql.single(lowStock, in.warehouse(), in.district(), next, next - 20, in.warehouse(), in.threshold())) {
            rs.getLong(1);
        }
        connection.commit();
        return Outcome.COMMITTED;
    }
}
