package io.tell.bench.tpcc;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * The nine TPC-C tables (§1.3) in portable SQL that H2, PostgreSQL and a Calcite-based engine
 * accept: INTEGER, SMALLINT, DECIMAL, VARCHAR, CHAR and TIMESTAMP columns, a PRIMARY KEY table
 * constraint, plain CREATE INDEX. The order table is OORDER because ORDER is reserved; HISTORY
 * has no key, as in the specification.
 */
public final class TpccSchema {
    /** Every table, in the order they are created. */
    public static final List<String> TABLES = List.of(
            "WAREHOUSE", "DISTRICT", "CUSTOMER", "HISTORY", "NEW_ORDER", "OORDER", "ORDER_LINE", "ITEM", "STOCK");

    private static final List<String> CREATE_TABLES = List.of(
            """
            CREATE TABLE WAREHOUSE (
              W_ID INTEGER NOT NULL, W_NAME VARCHAR(10), W_STREET_1 VARCHAR(20), W_STREET_2 VARCHAR(20),
              W_CITY VARCHAR(20), W_STATE CHAR(2), W_ZIP CHAR(9), W_TAX DECIMAL(4,4), W_YTD DECIMAL(12,2),
              PRIMARY KEY (W_ID))""",
            """
            CREATE TABLE DISTRICT (
              D_ID INTEGER NOT NULL, D_W_ID INTEGER NOT NULL, D_NAME VARCHAR(10), D_STREET_1 VARCHAR(20),
              D_STREET_2 VARCHAR(20), D_CITY VARCHAR(20), D_STATE CHAR(2), D_ZIP CHAR(9), D_TAX DECIMAL(4,4),
              D_YTD DECIMAL(12,2), D_NEXT_O_ID INTEGER,
              PRIMARY KEY (D_W_ID, D_ID))""",
            """
            CREATE TABLE CUSTOMER (
              C_ID INTEGER NOT NULL, C_D_ID INTEGER NOT NULL, C_W_ID INTEGER NOT NULL, C_FIRST VARCHAR(16),
              C_MIDDLE CHAR(2), C_LAST VARCHAR(16), C_STREET_1 VARCHAR(20), C_STREET_2 VARCHAR(20),
              C_CITY VARCHAR(20), C_STATE CHAR(2), C_ZIP CHAR(9), C_PHONE CHAR(16), C_SINCE TIMESTAMP,
              C_CREDIT CHAR(2), C_CREDIT_LIM DECIMAL(12,2), C_DISCOUNT DECIMAL(4,4), C_BALANCE DECIMAL(12,2),
              C_YTD_PAYMENT DECIMAL(12,2), C_PAYMENT_CNT INTEGER, C_DELIVERY_CNT INTEGER, C_DATA VARCHAR(500),
              PRIMARY KEY (C_W_ID, C_D_ID, C_ID))""",
            """
            CREATE TABLE HISTORY (
              H_C_ID INTEGER, H_C_D_ID INTEGER, H_C_W_ID INTEGER, H_D_ID INTEGER, H_W_ID INTEGER,
              H_DATE TIMESTAMP, H_AMOUNT DECIMAL(6,2), H_DATA VARCHAR(24))""",
            """
            CREATE TABLE NEW_ORDER (
              NO_O_ID INTEGER NOT NULL, NO_D_ID INTEGER NOT NULL, NO_W_ID INTEGER NOT NULL,
              PRIMARY KEY (NO_W_ID, NO_D_ID, NO_O_ID))""",
            """
            CREATE TABLE OORDER (
              O_ID INTEGER NOT NULL, O_D_ID INTEGER NOT NULL, O_W_ID INTEGER NOT NULL, O_C_ID INTEGER,
              O_ENTRY_D TIMESTAMP, O_CARRIER_ID SMALLINT, O_OL_CNT SMALLINT, O_ALL_LOCAL SMALLINT,
              PRIMARY KEY (O_W_ID, O_D_ID, O_ID))""",
            """
            CREATE TABLE ORDER_LINE (
              OL_O_ID INTEGER NOT NULL, OL_D_ID INTEGER NOT NULL, OL_W_ID INTEGER NOT NULL,
              OL_NUMBER SMALLINT NOT NULL, OL_I_ID INTEGER, OL_SUPPLY_W_ID INTEGER, OL_DELIVERY_D TIMESTAMP,
              OL_QUANTITY SMALLINT, OL_AMOUNT DECIMAL(6,2), OL_DIST_INFO CHAR(24),
              PRIMARY KEY (OL_W_ID, OL_D_ID, OL_O_ID, OL_NUMBER))""",
            """
            CREATE TABLE ITEM (
              I_ID INTEGER NOT NULL, I_IM_ID INTEGER, I_NAME VARCHAR(24), I_PRICE DECIMAL(5,2),
              I_DATA VARCHAR(50),
              PRIMARY KEY (I_ID))""",
            """
            CREATE TABLE STOCK (
              S_I_ID INTEGER NOT NULL, S_W_ID INTEGER NOT NULL, S_QUANTITY SMALLINT,
              S_DIST_01 CHAR(24), S_DIST_02 CHAR(24), S_DIST_03 CHAR(24), S_DIST_04 CHAR(24),
              S_DIST_05 CHAR(24), S_DIST_06 CHAR(24), S_DIST_07 CHAR(24), S_DIST_08 CHAR(24),
              S_DIST_09 CHAR(24), S_DIST_10 CHAR(24), S_YTD INTEGER, S_ORDER_CNT SMALLINT,
              S_REMOTE_CNT SMALLINT, S_DATA VARCHAR(50),
              PRIMARY KEY (S_W_ID, S_I_ID))""");

    /** Secondary indexes, created after the load: customers by last name (§2.5.2.2) and orders by customer (§2.6.2.2). */
    private static final List<String> CREATE_INDEXES = List.of(
            "CREATE INDEX IDX_CUSTOMER_NAME ON CUSTOMER (C_W_ID, C_D_ID, C_LAST, C_FIRST)",
            "CREATE INDEX IDX_OORDER_CUSTOMER ON OORDER (O_W_ID, O_D_ID, O_C_ID, O_ID)");

    private TpccSchema() {
    }

    /** Drops the tables (if they exist) and creates them empty, without the secondary indexes. */
    public static void recreateTables(Connection connection) throws SQLException {
        try (Statement s = connection.createStatement()) {
            for (String table : TABLES) {
                s.execute("DROP TABLE IF EXISTS " + table);
            }
            for (String ddl : CREATE_TABLES) {
                s.execute(ddl);
            }
        }
        commitUnlessAuto(connection);
    }

    /** Creates the secondary indexes. */
    public static void createIndexes(Connection connection) throws SQLException {
        try (Statement s = connection.createStatement()) {
            for (String ddl : CREATE_INDEXES) {
                s.execute(ddl);
            }
        }
        commitUnlessAuto(connection);
    }

    /**
     * Refreshes the optimizer statistics after a load where the database has a plain ANALYZE
     * (PostgreSQL, H2); without it PostgreSQL plans on empty-table statistics until autovacuum
     * catches up. Other databases are left alone.
     */
    public static void analyze(Connection connection) throws SQLException {
        String product = connection.getMetaData().getDatabaseProductName();
        if (!product.equals("PostgreSQL") && !product.equals("H2")) {
            return;
        }
        try (Statement s = connection.createStatement()) {
            s.execute("ANALYZE");
        }
        commitUnlessAuto(connection);
    }

    private static void commitUnlessAuto(Connection connection) throws SQLException {
        if (!connection.getAutoCommit()) {
            connection.commit();
        }
    }
}
