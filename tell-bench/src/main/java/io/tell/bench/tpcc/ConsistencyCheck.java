package io.tell.bench.tpcc;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The consistency conditions 1–4 of TPC-C §3.3.2, checked with aggregate queries after a run
 * (or a load): per warehouse W_YTD = sum(D_YTD); per district D_NEXT_O_ID − 1 = max(O_ID) =
 * max(NO_O_ID); max(NO_O_ID) − min(NO_O_ID) + 1 = the number of NEW_ORDER rows; and
 * sum(O_OL_CNT) = the number of ORDER_LINE rows.
 */
public final class ConsistencyCheck {

    /** One condition: passed, with how many rows were checked or the first violation. */
    public record Result(int condition, String description, boolean passed, String detail) {
    }

    private record District(long w, long d) implements Comparable<District> {
        @Override
        public int compareTo(District o) {
            return w != o.w ? Long.compare(w, o.w) : Long.compare(d, o.d);
        }

        @Override
        public String toString() {
            return "district " + w + "/" + d;
        }
    }

    private ConsistencyCheck() {
    }

    public static List<Result> run(Connection connection) throws SQLException {
        try (Statement s = connection.createStatement()) {
            List<Result> results = new ArrayList<>();
            results.add(warehouseYtd(s));
            Map<District, List<Object>> districts = grouped(s, "SELECT D_W_ID, D_ID, D_NEXT_O_ID FROM DISTRICT");
            Map<District, List<Object>> orders = grouped(s,
                    "SELECT O_W_ID, O_D_ID, MAX(O_ID), SUM(O_OL_CNT) FROM OORDER GROUP BY O_W_ID, O_D_ID");
            Map<District, List<Object>> newOrders = grouped(s,
                    "SELECT NO_W_ID, NO_D_ID, MAX(NO_O_ID), MIN(NO_O_ID), COUNT(*) FROM NEW_ORDER GROUP BY NO_W_ID, NO_D_ID");
            Map<District, List<Object>> lines = grouped(s,
                    "SELECT OL_W_ID, OL_D_ID, COUNT(*) FROM ORDER_LINE GROUP BY OL_W_ID, OL_D_ID");
            results.add(orderIds(districts, orders, newOrders));
            results.add(newOrderRange(newOrders));
            results.add(orderLineCounts(districts, orders, lines));
            connection.commit();
            return results;
        }
    }

    private static Result warehouseYtd(Statement s) throws SQLException {
        String description = "W_YTD = sum(D_YTD)";
        Map<Long, BigDecimal> districtSums = new HashMap<>();
        try (ResultSet rs = s.executeQuery("SELECT D_W_ID, SUM(D_YTD) FROM DISTRICT GROUP BY D_W_ID")) {
            while (rs.next()) {
                districtSums.put(rs.getLong(1), rs.getBigDecimal(2));
            }
        }
        int checked = 0;
        try (ResultSet rs = s.executeQuery("SELECT W_ID, W_YTD FROM WAREHOUSE ORDER BY W_ID")) {
            while (rs.next()) {
                BigDecimal sum = districtSums.get(rs.getLong(1));
                if (sum == null || rs.getBigDecimal(2).compareTo(sum) != 0) {
                    return new Result(1, description, false,
                            "warehouse " + rs.getLong(1) + ": W_YTD " + rs.getBigDecimal(2) + ", sum(D_YTD) " + sum);
                }
                checked++;
            }
        }
        return new Result(1, description, checked > 0, checked + " warehouses");
    }

    private static Result orderIds(Map<District, List<Object>> districts, Map<District, List<Object>> orders,
                                   Map<District, List<Object>> newOrders) {
        String description = "D_NEXT_O_ID - 1 = max(O_ID) = max(NO_O_ID)";
        for (var e : districts.entrySet()) {
            long next = number(e.getValue().get(0)) - 1;
            List<Object> o = orders.get(e.getKey());
            List<Object> no = newOrders.get(e.getKey());
            Long maxOrder = o == null ? null : number(o.get(0));
            Long maxNewOrder = no == null ? null : number(no.get(0));
            // A district whose NEW_ORDER rows were all delivered has no max(NO_O_ID) to compare.
            if (!Objects.equals(next, maxOrder) || (maxNewOrder != null && maxNewOrder != next)) {
                return new Result(2, description, false, e.getKey() + ": D_NEXT_O_ID - 1 = " + next
                        + ", max(O_ID) = " + maxOrder + ", max(NO_O_ID) = " + maxNewOrder);
            }
        }
        return new Result(2, description, !districts.isEmpty(), districts.size() + " districts");
    }

    private static Result newOrderRange(Map<District, List<Object>> newOrders) {
        String description = "max(NO_O_ID) - min(NO_O_ID) + 1 = count(NEW_ORDER)";
        for (var e : newOrders.entrySet()) {
            long span = number(e.getValue().get(0)) - number(e.getValue().get(1)) + 1;
            long count = number(e.getValue().get(2));
            if (span != count) {
                return new Result(3, description, false, e.getKey() + ": max - min + 1 = " + span + ", rows " + count);
            }
        }
        return new Result(3, description, true, newOrders.size() + " districts");
    }

    private static Result orderLineCounts(Map<District, List<Object>> districts, Map<District, List<Object>> orders,
                                          Map<District, List<Object>> lines) {
        String description = "sum(O_OL_CNT) = count(ORDER_LINE)";
        for (District d : districts.keySet()) {
            Long olCnt = orders.containsKey(d) ? number(orders.get(d).get(1)) : null;
            Long count = lines.containsKey(d) ? number(lines.get(d).get(0)) : null;
            if (!Objects.equals(olCnt, count)) {
                return new Result(4, description, false, d + ": sum(O_OL_CNT) = " + olCnt + ", order lines " + count);
            }
        }
        return new Result(4, description, !districts.isEmpty(), districts.size() + " districts");
    }

    /** Rows keyed by their first two columns (warehouse, district), the other columns as values. */
    private static Map<District, List<Object>> grouped(Statement s, String sql) throws SQLException {
        Map<District, List<Object>> rows = new TreeMap<>();
        try (ResultSet rs = s.executeQuery(sql)) {
            int columns = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                List<Object> values = new ArrayList<>();
                for (int c = 3; c <= columns; c++) {
                    values.add(rs.getObject(c));
                }
                rows.put(new District(rs.getLong(1), rs.getLong(2)), values);
            }
        }
        return rows;
    }

    private static long number(Object value) {
        return ((Number) value).longValue();
    }
}
