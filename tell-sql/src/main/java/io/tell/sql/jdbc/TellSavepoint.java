package io.tell.sql.jdbc;

import java.sql.SQLException;
import java.sql.Savepoint;

/**
 * A savepoint of a {@link TellConnection}: named by the application, or unnamed with an id (and
 * a name the session knows it by). As JDBC requires, an unnamed one has no name to ask for and
 * a named one no id.
 */
record TellSavepoint(int id, String name, boolean named) implements Savepoint {

    static TellSavepoint named(String name) {
        return new TellSavepoint(0, name, true);
    }

    static TellSavepoint unnamed(int id, String name) {
        return new TellSavepoint(id, name, false);
    }

    /** The session's name of {@code savepoint}, which must be one of Tell's. */
    static String nameOf(Savepoint savepoint) throws SQLException {
        if (!(savepoint instanceof TellSavepoint t)) {
            throw SqlExceptions.invalidArgument("not a savepoint of a Tell connection: " + savepoint);
        }
        return t.name();
    }

    @Override
    public int getSavepointId() throws SQLException {
        if (named) {
            throw SqlExceptions.invalidArgument("a named savepoint has no id");
        }
        return id;
    }

    @Override
    public String getSavepointName() throws SQLException {
        if (!named) {
            throw SqlExceptions.invalidArgument("an unnamed savepoint has no name");
        }
        return name;
    }
}
