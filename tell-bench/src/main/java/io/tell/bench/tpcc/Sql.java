package io.tell.bench.tpcc;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/** Binding positional parameters in one call; values are Integer, String, BigDecimal or Timestamp. */
final class Sql {
    private Sql() {
    }

    static PreparedStatement bind(PreparedStatement statement, Object... values) throws SQLException {
        for (int i = 0; i < values.length; i++) {
            statement.setObject(i + 1, values[i]);
        }
        return statement;
    }

    static ResultSet query(PreparedStatement statement, Object... values) throws SQLException {
        return bind(statement, values).executeQuery();
    }

    static int update(PreparedStatement statement, Object... values) throws SQLException {
        return bind(statement, values).executeUpdate();
    }

    /** A row expected to exist: a missing one means the database is inconsistent. */
    static ResultSet single(PreparedStatement statement, Object... values) throws SQLException {
        ResultSet rs = query(statement, values);
        if (!rs.next()) {
            rs.close();
            throw new SQLException("TPC-C: expected row not found", "02000");
        }
        return rs;
    }
}
