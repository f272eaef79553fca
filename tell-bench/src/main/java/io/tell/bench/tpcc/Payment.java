package io.tell.bench.tpcc;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;

/**
 * The Payment transaction (§2.5). Year-to-date amounts and the customer's balance are updated
 * by increments before the rows are read, so no payment is lost under any isolation level; the
 * customer row, locked by that update, is then read for C_CREDIT and C_DATA.
 */
final class Payment implements TpccTransaction {

    /** The input of §2.5.1; {@code customerLast} set means selection by last name. */
    record Input(int warehouse, int district, int customerWarehouse, int customerDistrict,
                 int customerId, String customerLast, BigDecimal amount) {
    }

    private final Connection connection;
    private final TerminalHome home;
    private final PreparedStatement payWarehouse;
    private final PreparedStatement warehouse;
    private final PreparedStatement payDistrict;
    private final PreparedStatement district;
    private final CustomerByName byName;
    private final PreparedStatement payCustomer;
    private final PreparedStatement customer;
    private final PreparedStatement customerData;
    private final PreparedStatement insertHistory;

    Payment(Connection connection, TerminalHome home) throws SQLException {
        this.connection = connection;
        this.home = home;
        payWarehouse = connection.prepareStatement("UPDATE WAREHOUSE SET W_YTD = W_YTD + ? WHERE W_ID = ?");
        warehouse = connection.prepareStatement(
                "SELECT W_NAME, W_STREET_1, W_STREET_2, W_CITY, W_STATE, W_ZIP FROM WAREHOUSE WHERE W_ID = ?");
        payDistrict = connection.prepareStatement("UPDATE DISTRICT SET D_YTD = D_YTD + ? WHERE D_W_ID = ? AND D_ID = ?");
        district = connection.prepareStatement(
                "SELECT D_NAME, D_STREET_1, D_STREET_2, D_CITY, D_STATE, D_ZIP FROM DISTRICT WHERE D_W_ID = ? AND D_ID = ?");
        byName = new CustomerByName(connection);
        payCustomer = connection.prepareStatement("UPDATE CUSTOMER SET C_BALANCE = C_BALANCE - ?,"
                + " C_YTD_PAYMENT = C_YTD_PAYMENT + ?, C_PAYMENT_CNT = C_PAYMENT_CNT + 1"
                + " WHERE C_W_ID = ? AND C_D_ID = ? AND C_ID = ?");
        customer = connection.prepareStatement("SELECT C_FIRST, C_MIDDLE, C_LAST, C_STREET_1, C_STREET_2, C_CITY, C_STATE,"
                + " C_ZIP, C_PHONE, C_SINCE, C_CREDIT, C_CREDIT_LIM, C_DISCOUNT, C_BALANCE, C_DATA"
                + " FROM CUSTOMER WHERE C_W_ID = ? AND C_D_ID = ? AND C_ID = ?");
        customerData = connection.prepareStatement("UPDATE CUSTOMER SET C_DATA = ? WHERE C_W_ID = ? AND C_D_ID = ? AND C_ID = ?");
        insertHistory = connection.prepareStatement("INSERT INTO HISTORY (H_C_ID, H_C_D_ID, H_C_W_ID, H_D_ID, H_W_ID, H_DATE,"
                + " H_AMOUNT, H_DATA) VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
    }

    @Override
    public TransactionType type() {
        return TransactionType.PAYMENT;
    }

    @Override
    public Execution next(TpccRandom random) {
        Input input = input(random, home);
        return () -> execute(input);
    }

    /** Draws an input per §2.5.1: 85 % home customer, 15 % remote (given several warehouses), 60 % by last name. */
    static Input input(TpccRandom random, TerminalHome home) {
        int district = random.uniform(1, TpccScale.DISTRICTS_PER_WAREHOUSE);
        int cw = home.warehouse();
        int cd = district;
        if (random.uniform(1, 100) > 85 && home.warehouses() > 1) {
            cw = random.otherWarehouse(home.warehouse(), home.warehouses());
            cd = random.uniform(1, TpccScale.DISTRICTS_PER_WAREHOUSE);
        }
        boolean byLastName = random.uniform(1, 100) <= 60;
        return new Input(home.warehouse(), district, cw, cd, byLastName ? 0 : random.customerId(),
                byLastName ? random.randomLastName() : null, random.decimal("1.00", "5000.00", 2));
    }

    Outcome execute(Input in) throws SQLException {
        Timestamp now = new Timestamp(System.currentTimeMillis());
        Sql.update(payWarehouse, in.amount(), in.warehouse());
        String warehouseName;
        try (ResultSet rs = Sql.single(warehouse, in.warehouse())) {
            warehouseName = rs.getString(1);
        }
        Sql.update(payDistrict, in.amount(), in.warehouse(), in.district());
        String districtName;
        try (ResultSet rs = Sql.single(district, in.warehouse(), in.district())) {
            districtName = rs.getString(1);
        }
        int cw = in.customerWarehouse();
        int cd = in.customerDistrict();
        int c = in.customerLast() == null ? in.customerId() : byName.find(cw, cd, in.customerLast());
        Sql.update(payCustomer, in.amount(), in.amount(), cw, cd, c);
        String credit;
        String data;
        try (ResultSet rs = Sql.single(customer, cw, cd, c)) {
            credit = rs.getString(11);
            data = rs.getString(15);
        }
        if ("BC".equals(credit.trim())) {
            String entry = c + " " + cd + " " + cw + " " + in.district() + " " + in.warehouse() + " " + in.amount() + " | ";
            String updated = entry + data;
            Sql.update(customerData, updated.length() > 500 ? updated.substring(0, 500) : updated, cw, cd, c);
        }
        Sql.update(insertHistory, c, cd, cw, in.district(), in.warehouse(), now, in.amount(),
                truncate(warehouseName, 10) + "    " + truncate(districtName, 10));
        connection.commit();
        return Outcome.COMMITTED;
    }

    private static String truncate(String s, int length) {
        return s.length() > length ? s.substring(0, length) : s;
    }
}
