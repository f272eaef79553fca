package io.tell.sql.jdbc;

import io.tell.sql.ProcessingNode;
import io.tell.sql.SchemaPath;
import io.tell.sql.SqlSession;
import io.tell.sql.TellUrl;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.DriverPropertyInfo;
import java.sql.SQLException;
import java.util.Properties;
import java.util.logging.Logger;

/**
 * The Tell JDBC driver, for URLs {@code jdbc:tell:mem:[NAME]} (an embedded database, private
 * or shared by the JVM's connections) and {@code jdbc:tell:redis://host:port[,…]?cm=host:port[,…]}
 * (this JVM as a processing node of a shared database). Registered with {@link DriverManager}
 * by its service entry and when this class loads. Every connection holds the
 * {@link ProcessingNode} of its URL until it closes. There is no authentication yet: the
 * {@code user} property is only reported back.
 */
public final class TellDriver implements java.sql.Driver {
    /** The driver and product version: the jar's, or this build's when run from classes. */
    public static final String VERSION = version();
    static final int MAJOR_VERSION = versionPart(0);
    static final int MINOR_VERSION = versionPart(1);

    static {
        try {
            DriverManager.registerDriver(new TellDriver());
        } catch (SQLException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @Override
    public Connection connect(String url, Properties info) throws SQLException {
        if (!acceptsURL(url)) {
            return null;
        }
        ProcessingNode node;
        try {
            node = ProcessingNode.connect(url);
        } catch (RuntimeException e) {
            throw SqlExceptions.of(e);
        }
        String user = info == null ? null : info.getProperty("user");
        String conflicts = info == null ? null : info.getProperty("conflicts", "commit");
        if (conflicts != null && !conflicts.equals("commit") && !conflicts.equals("statement")) {
            node.close();
            throw SqlExceptions.of(SqlExceptions.INVALID_ARGUMENT, "property conflicts must be commit or statement, not "
                    + conflicts);
        }
        boolean atStatement = "statement".equals(conflicts);
        String schema = info == null ? null : info.getProperty("currentSchema");
        TellConnection c = new TellConnection(node, () -> {
            SqlSession s = node.openSession();
            s.setStatementChecks(atStatement);
            return s;
        }, url, user);
        if (schema != null) {
            c.useSchemaPath(SchemaPath.parse(schema));
        }
        return c;
    }

    @Override
    public boolean acceptsURL(String url) throws SQLException {
        if (url == null) {
            throw SqlExceptions.invalidArgument("the URL is null");
        }
        return TellUrl.accepts(url);
    }

    @Override
    public DriverPropertyInfo[] getPropertyInfo(String url, Properties info) {
        Properties given = info == null ? new Properties() : info;
        DriverPropertyInfo user = new DriverPropertyInfo("user", given.getProperty("user"));
        user.description = "the user name, reported by DatabaseMetaData.getUserName (no authentication yet)";
        DriverPropertyInfo password = new DriverPropertyInfo("password", given.getProperty("password"));
        password.description = "ignored: Tell has no authentication yet";
        DriverPropertyInfo conflicts = new DriverPropertyInfo("conflicts", given.getProperty("conflicts", "commit"));
        conflicts.description = "when an explicit transaction learns of write conflicts and duplicate keys: at commit"
                + " (default), or at each statement, as PostgreSQL reports them (one store round trip per statement)";
        conflicts.choices = new String[] {"commit", "statement"};
        DriverPropertyInfo schema = new DriverPropertyInfo("currentSchema", given.getProperty("currentSchema"));
        schema.description = "the schemas where names without one are found and new objects go, comma-separated"
                + " (as PostgreSQL's driver takes it; default PUBLIC)";
        return new DriverPropertyInfo[] {user, password, conflicts, schema};
    }

    @Override
    public int getMajorVersion() {
        return MAJOR_VERSION;
    }

    @Override
    public int getMinorVersion() {
        return MINOR_VERSION;
    }

    /** False: Tell does not pass the JDBC compliance tests (no stored procedures, no full SQL-92 entry level yet). */
    @Override
    public boolean jdbcCompliant() {
        return false;
    }

    @Override
    public Logger getParentLogger() {
        return Logger.getLogger(TellDriver.class.getPackageName());
    }

    private static String version() {
        String v = TellDriver.class.getPackage().getImplementationVersion();
        return v != null ? v : "0.1.0-SNAPSHOT";
    }

    private static int versionPart(int i) {
        String[] parts = VERSION.split("[.-]");
        try {
            return i < parts.length ? Integer.parseInt(parts[i]) : 0;
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
