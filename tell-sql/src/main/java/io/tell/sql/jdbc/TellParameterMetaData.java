package io.tell.sql.jdbc;

import io.tell.sql.ColumnInfo;
import java.sql.ParameterMetaData;
import java.sql.SQLException;
import java.util.List;

/**
 * The {@code ?} parameters of a prepared statement, as the engine typed them
 * ({@link io.tell.sql.PreparedSql#parameters()}); all are IN parameters.
 */
public final class TellParameterMetaData extends TellWrapper implements ParameterMetaData {
    private final List<ColumnInfo> parameters;

    TellParameterMetaData(List<ColumnInfo> parameters) {
        this.parameters = List.copyOf(parameters);
    }

    private ColumnInfo parameter(int param) throws SQLException {
        if (param < 1 || param > parameters.size()) {
            throw SqlExceptions.of(SqlExceptions.BAD_INDEX, "parameter index " + param + " is out of range: there are "
                    + parameters.size() + " parameters");
        }
        return parameters.get(param - 1);
    }

    @Override
    public int getParameterCount() {
        return parameters.size();
    }

    @Override
    public int isNullable(int param) throws SQLException {
        return parameter(param).nullable() ? parameterNullable : parameterNoNulls;
    }

    @Override
    public boolean isSigned(int param) throws SQLException {
        return JdbcTypes.signed(parameter(param).jdbcType());
    }

    @Override
    public int getPrecision(int param) throws SQLException {
        return parameter(param).precision();
    }

    @Override
    public int getScale(int param) throws SQLException {
        return parameter(param).scale();
    }

    @Override
    public int getParameterType(int param) throws SQLException {
        return parameter(param).jdbcType();
    }

    @Override
    public String getParameterTypeName(int param) throws SQLException {
        return parameter(param).typeName();
    }

    /** The class the engine converts a bound value to. */
    @Override
    public String getParameterClassName(int param) throws SQLException {
        return parameter(param).javaClass().getName();
    }

    @Override
    public int getParameterMode(int param) throws SQLException {
        parameter(param);
        return parameterModeIn;
    }
}
