package io.tell.bench.ch;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * The three tables the CH-benCHmark adds to TPC-C's nine: REGION, NATION and SUPPLIER, taken
 * from TPC-H, in the same portable SQL as {@link io.tell.bench.tpcc.TpccSchema} (Tell, H2 and
 * PostgreSQL accept it). Names and comments are VARCHAR rather than TPC-H's CHAR so that a
 * comparison such as {@code R_NAME = 'Europe'} means the same on every database, whatever it
 * does with CHAR padding. No foreign keys: Tell does not enforce them, and the load order
 * guarantees them.
 */
public final class ChSchema {
    /** The tables, in the order they are created (and the reverse of the order they are dropped). */
    public static final List<String> TABLES = List.of("REGION", "NATION", "SUPPLIER");

    private static final List<String> CREATE_TABLES = List.of(
            """
            CREATE TABLE REGION (
              R_REGIONKEY INTEGER NOT NULL, R_NAME VARCHAR(55) NOT NULL, R_COMMENT VARCHAR(152) NOT NULL,
              PRIMARY KEY (R_REGIONKEY))""",
            """
            CREATE TABLE NATION (
              N_NATIONKEY INTEGER NOT NULL, N_NAME VARCHAR(25) NOT NULL, N_REGIONKEY INTEGER NOT NULL,
              N_COMMENT VARCHAR(152) NOT NULL,
              PRIMARY KEY (N_NATIONKEY))""",
            """
            CREATE TABLE SUPPLIER (
              SU_SUPPKEY INTEGER NOT NULL, SU_NAME VARCHAR(25) NOT NULL, SU_ADDRESS VARCHAR(40) NOT NULL,
              SU_NATIONKEY INTEGER NOT NULL, SU_PHONE CHAR(15) NOT NULL, SU_ACCTBAL DECIMAL(12,2) NOT NULL,
              SU_COMMENT VARCHAR(101) NOT NULL,
              PRIMARY KEY (SU_SUPPKEY))""");

    private ChSchema() {
    }

    /** Drops the three tables (if they exist) and creates them empty; TPC-C's tables are left alone. */
    public static void recreateTables(Connection connection) throws SQLException {
        try (Statement s = connection.createStatement()) {
            for (String table : TABLES.reversed()) {
                s.execute("DROP TABLE IF EXISTS " + table);
            }
            for (String ddl : CREATE_TABLES) {
                s.execute(ddl);
            }
        }
        if (!connection.getAutoCommit()) {
            connection.commit();
        }
    }
}
