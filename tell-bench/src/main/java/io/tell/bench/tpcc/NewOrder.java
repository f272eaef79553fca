package io.tell.bench.tpcc;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.sql.Types;
import java.util.Arrays;

/**
 * The New-Order transaction (§2.4). The district's next order id is taken by incrementing it
 * first and reading it back, so the id is unique under any isolation level without SELECT FOR
 * UPDATE. A stock row is updated only if its quantity is still the one read (re-read otherwise),
 * so no decrement is lost under READ COMMITTED either. Order lines are sorted by item so that
 * concurrent New-Orders lock stock rows in one order.
 */
final class NewOrder implements TpccTransaction {

    /** One order line of the input. */
    record Line(int itemId, int supplyWarehouse, int quantity) {
    }

    /** The input of §2.4.1. */
    record Input(int warehouse, int district, int customer, Line[] lines) {
        boolean allLocal() {
            return Arrays.stream(lines).allMatch(l -> l.supplyWarehouse() == warehouse);
        }
    }

    private final Connection connection;
    private final TerminalHome home;
    private final PreparedStatement warehouseTax;
    private final PreparedStatement nextOrderId;
    private final PreparedStatement district;
    private final PreparedStatement customer;
    private final PreparedStatement insertOrder;
    private final PreparedStatement insertNewOrder;
    private final PreparedStatement item;
    private final PreparedStatement[] stockByDistrict = new PreparedStatement[TpccScale.DISTRICTS_PER_WAREHOUSE];
    private final PreparedStatement updateStock;
    private final PreparedStatement insertOrderLine;

    NewOrder(Connection connection, TerminalHome home) throws SQLException {
        this.connection = connection;
        this.home = home;
        warehouseTax = connection.prepareStatement("SELECT W_TAX FROM WAREHOUSE WHERE W_ID = ?");
        nextOrderId = connection.prepareStatement("UPDATE DISTRICT SET D_NEXT_O_ID = D_NEXT_O_ID + 1 WHERE D_W_ID = ? AND D_ID = ?");
        district = connection.prepareStatement("SELECT D_TAX, D_NEXT_O_ID FROM DISTRICT WHERE D_W_ID = ? AND D_ID = ?");
        customer = connection.prepareStatement(
                "SELECT C_DISCOUNT, C_LAST, C_CREDIT FROM CUSTOMER WHERE C_W_ID = ? AND C_D_ID = ? AND C_ID = ?");
        insertOrder = connection.prepareStatement("INSERT INTO OORDER (O_ID, O_D_ID, O_W_ID, O_C_ID, O_ENTRY_D, O_CARRIER_ID,"
                + " O_OL_CNT, O_ALL_LOCAL) VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
        insertNewOrder = connection.prepareStatement("INSERT INTO NEW_ORDER (NO_O_ID, NO_D_ID, NO_W_ID) VALUES (?, ?, ?)");
        item = connection.prepareStatement("SELECT I_PRICE, I_NAME, I_DATA FROM ITEM WHERE I_ID = ?");
        for (int d = 1; d <= stockByDistrict.length; d++) {
            stockByDistrict[d - 1] = connection.prepareStatement(String.format(
                    "SELECT S_QUANTITY, S_DIST_%02d, S_DATA FROM STOCK WHERE S_W_ID = ? AND S_I_ID = ?%s",
                    d, home.selectForUpdate() ? " FOR UPDATE" : ""));
        }
        updateStock = connection.prepareStatement("UPDATE STOCK SET S_QUANTITY = ?, S_YTD = S_YTD + ?,"
                + " S_ORDER_CNT = S_ORDER_CNT + 1, S_REMOTE_CNT = S_REMOTE_CNT + ?"
                + " WHERE S_W_ID = ? AND S_I_ID = ? AND S_QUANTITY = ?");
        insertOrderLine = connection.prepareStatement("INSERT INTO ORDER_LINE (OL_O_ID, OL_D_ID, OL_W_ID, OL_NUMBER, OL_I_ID,"
                + " OL_SUPPLY_W_ID, OL_DELIVERY_D, OL_QUANTITY, OL_AMOUNT, OL_DIST_INFO) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    }

    @Override
    public TransactionType type() {
        return TransactionType.NEW_ORDER;
    }

    @Override
    public Execution next(TpccRandom random) {
        Input input = input(random, home);
        return () -> execute(input);
    }

    /** Draws an input per §2.4.1: district, NURand customer, 5..15 lines, 1 % remote lines, 1 % rollback. */
    static Input input(TpccRandom random, TerminalHome home) {
        int count = random.uniform(TpccScale.MIN_OL, TpccScale.MAX_OL);
        boolean rollback = random.uniform(1, 100) == 1;
        Line[] lines = new Line[count];
        for (int i = 0; i < count; i++) {
            int itemId = rollback && i == count - 1 ? random.scale().unusedItem() : random.itemId();
            int supply = random.uniform(1, 100) == 1 ? random.otherWarehouse(home.warehouse(), home.warehouses()) : home.warehouse();
            lines[i] = new Line(itemId, supply, random.uniform(1, 10));
        }
        // Sorted, the unused item (the largest id) stays last.
        Arrays.sort(lines, (a, b) -> a.itemId() != b.itemId()
                ? Integer.compare(a.itemId(), b.itemId()) : Integer.compare(a.supplyWarehouse(), b.supplyWarehouse()));
        return new Input(home.warehouse(), random.uniform(1, TpccScale.DISTRICTS_PER_WAREHOUSE), random.customerId(), lines);
    }

    Outcome execute(Input in) throws SQLException {
        Timestamp entry = new Timestamp(System.currentTimeMillis());
        insertOrderLine.clearBatch(); // lines of an attempt that failed
        try (ResultSet rs = Sql.single(warehouseTax, in.warehouse())) {
            rs.getBigDecimal(1);
        }
        Sql.update(nextOrderId, in.warehouse(), in.district());
        int orderId;
        try (ResultSet rs = Sql.single(district, in.warehouse(), in.district())) {
            rs.getBigDecimal(1);
            orderId = rs.getInt(2) - 1;
        }
        try (ResultSet rs = Sql.single(customer, in.warehouse(), in.district(), in.customer())) {
            rs.getBigDecimal(1);
        }
        Sql.bind(insertOrder, orderId, in.district(), in.warehouse(), in.customer(), entry);
        insertOrder.setNull(6, Types.SMALLINT);
        insertOrder.setInt(7, in.lines().length);
        insertOrder.setInt(8, in.allLocal() ? 1 : 0);
        insertOrder.executeUpdate();
        Sql.update(insertNewOrder, orderId, in.district(), in.warehouse());
        for (int n = 0; n < in.lines().length; n++) {
            Line line = in.lines()[n];
            BigDecimal price;
            try (ResultSet rs = Sql.query(item, line.itemId())) {
                if (!rs.next()) {
                    connection.rollback(); // the intended 1 %: "Item number is not valid"
                    return Outcome.ROLLED_BACK;
                }
                price = rs.getBigDecimal(1);
            }
            String distInfo = takeStock(in, line);
            Sql.bind(insertOrderLine, orderId, in.district(), in.warehouse(), n + 1, line.itemId(), line.supplyWarehouse());
            insertOrderLine.setNull(7, Types.TIMESTAMP);
            insertOrderLine.setInt(8, line.quantity());
            insertOrderLine.setBigDecimal(9, price.multiply(BigDecimal.valueOf(line.quantity())));
            insertOrderLine.setString(10, distInfo);
            insertOrderLine.addBatch();
        }
        insertOrderLine.executeBatch();
        connection.commit();
        return Outcome.COMMITTED;
    }

    /** Decrements the stock of one line (§2.4.2.2) and returns its S_DIST_xx. */
    private String takeStock(Input in, Line line) throws SQLException {
        int remote = line.supplyWarehouse() == in.warehouse() ? 0 : 1;
        for (int attempt = 0; attempt < 100; attempt++) {
            int quantity;
            String distInfo;
            try (ResultSet rs = Sql.single(stockByDistrict[in.district() - 1], line.supplyWarehouse(), line.itemId())) {
                quantity = rs.getInt(1);
                distInfo = rs.getString(2);
            }
            int left = quantity >= line.quantity() + 10 ? quantity - line.quantity() : quantity - line.quantity() + 91;
            if (Sql.update(updateStock, left, line.quantity(), remote, line.supplyWarehouse(), line.itemId(), quantity) == 1) {
                return distInfo;
            }
        }
        throw new SQLException("TPC-C: stock row kept changing under New-Order", "40001");
    }
}
