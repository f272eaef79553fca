package io.tell.sql.jdbc;

import java.sql.SQLException;
import java.sql.Wrapper;

/** {@link Wrapper} for the driver's objects: each wraps nothing but itself. */
abstract class TellWrapper implements Wrapper {
    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
        if (iface.isInstance(this)) {
            return iface.cast(this);
        }
        throw SqlExceptions.invalidArgument(getClass().getSimpleName() + " does not implement " + iface.getName());
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) {
        return iface.isInstance(this);
    }
}
