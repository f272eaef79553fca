package io.tell.bench.tpcc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * The customer selection by last name of Payment and Order-Status (§2.5.2.2, §2.6.2.2): the
 * customers with that name in the district sorted by C_FIRST, and the one at position n/2
 * rounded up.
 */
final class CustomerByName {
    private final PreparedStatement select;

    CustomerByName(Connection connection) throws SQLException {
        select = connection.prepareStatement(
                "SELECT C_ID FROM CUSTOMER WHERE C_W_ID = ? AND C_D_ID = ? AND C_LAST = ? ORDER BY C_FIRST");
    }

    int find(int warehouse, int district, String last) throws SQLException {
        List<Integer> ids = new ArrayList<>();
        try (ResultSet rs = Sql.query(select, warehouse, district, last)) {
            while (rs.next()) {
                ids.add(rs.getInt(1));
            }
        }
        if (ids.isEmpty()) {
            throw new SQLException("TPC-C: no customer named " + last + " in district " + warehouse + "/" + district, "02000");
        }
        return ids.get(middle(ids.size()));
    }

    /** Index from 0 of the row at position ceil(n / 2) counted from 1. */
    static int middle(int n) {
        return (n - 1) / 2;
    }
}
