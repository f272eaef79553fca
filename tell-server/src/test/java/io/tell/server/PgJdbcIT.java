package io.tell.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.Date;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Time;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The PostgreSQL JDBC driver against a PN server: DDL, DML, types, prepared statements (also server-side and binary), batches. */
class PgJdbcIT {
    private static PgTestServer server;

    @BeforeAll
    static void start() {
        server = PgTestServer.trust();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    /** The driver's generated keys: RETURNING * for RETURN_GENERATED_KEYS, RETURNING "id" (lower case, quoted) for names. */
    @Test
    void generatedKeysComeBackThroughReturning() throws SQLException {
        try (Connection c = server.connect(""); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE gk (id INT GENERATED ALWAYS AS IDENTITY PRIMARY KEY, name VARCHAR(10))");
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO gk (name) VALUES (?)", Statement.RETURN_GENERATED_KEYS)) {
                ps.setString(1, "a");
                assertEquals(1, ps.executeUpdate());
                try (ResultSet keys = ps.getGeneratedKeys()) {
                    assertTrue(keys.next());
                    assertEquals(1, keys.getInt(1));
                }
            }
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO gk (name) VALUES (?)", new String[] {"id"})) {
                ps.setString(1, "b");
                assertEquals(1, ps.executeUpdate());
                try (ResultSet keys = ps.getGeneratedKeys()) {
                    assertTrue(keys.next());
                    assertEquals(2, keys.getInt(1));
                }
            }
            try (ResultSet rs = s.executeQuery("INSERT INTO gk (name) VALUES ('c') RETURNING id, UPPER(name)")) {
                assertTrue(rs.next());
                assertEquals(3, rs.getInt(1));
                assertEquals("C", rs.getString(2));
            }
        }
    }

    /**
     * The driver's defaults, server-side prepares from the first execution, and binary transfer.
     * (Not preferQueryMode=simple: the driver then inlines parameters with PostgreSQL's ::
     * casts, which Tell's SQL does not have.)
     */
    @ParameterizedTest
    @ValueSource(strings = {"", "prepareThreshold=1", "prepareThreshold=1&binaryTransfer=true"})
    void everyTypeRoundTrips(String options) throws SQLException {
        String table = "types_" + Math.abs(options.hashCode());
        try (Connection c = server.connect(options); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE " + table + " (id INTEGER PRIMARY KEY, si SMALLINT, bi BIGINT, amount DECIMAL(12,3), "
                    + "d DOUBLE, r REAL, vc VARCHAR(20), ch CHAR(3), b BOOLEAN, dt DATE, ts TIMESTAMP)");
            LocalDateTime ts = LocalDateTime.of(2024, 5, 6, 7, 8, 9, 123_456_000);
            try (PreparedStatement p = c.prepareStatement("INSERT INTO " + table + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
                for (int id = 1; id <= 3; id++) { // three executions: the driver switches modes between them
                    p.setInt(1, id);
                    p.setShort(2, (short) -7);
                    p.setLong(3, 9_000_000_000L + id);
                    p.setBigDecimal(4, new BigDecimal("-12345.678"));
                    p.setDouble(5, 0.1);
                    p.setFloat(6, 1.5f);
                    p.setString(7, "héllo 'x'");
                    p.setString(8, "ab");
                    p.setBoolean(9, id % 2 == 0);
                    p.setDate(10, Date.valueOf(LocalDate.of(2024, 2, 29)));
                    p.setTimestamp(11, Timestamp.valueOf(ts));
                    assertEquals(1, p.executeUpdate());
                }
            }
            p2(c, table, ts);
            try (ResultSet rs = s.executeQuery("SELECT si, vc, b, ts FROM " + table + " WHERE id = 3")) {
                assertTrue(rs.next());
                assertEquals(-7, rs.getInt(1));
                assertEquals("héllo 'x'", rs.getString(2));
                assertFalse(rs.getBoolean(3));
                assertEquals("2024-05-06 07:08:09.123456", rs.getString(4));
            }
            s.execute("INSERT INTO " + table + " (id) VALUES (4)");
            try (ResultSet rs = s.executeQuery("SELECT si, vc, ts FROM " + table + " WHERE id = 4")) {
                assertTrue(rs.next());
                assertEquals(0, rs.getInt(1));
                assertTrue(rs.wasNull());
                assertNull(rs.getString(2));
                assertNull(rs.getTimestamp(3));
            }
        }
    }

    /** BYTEA, UUID and TIME in the driver's text and binary forms, as parameters and results. */
    @ParameterizedTest
    @ValueSource(strings = {"", "prepareThreshold=1", "prepareThreshold=1&binaryTransfer=true"})
    void bytesUuidsAndTimesRoundTrip(String options) throws SQLException {
        String table = "blobs_" + Math.abs(options.hashCode());
        UUID id = UUID.fromString("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11");
        byte[] body = new byte[300];
        for (int i = 0; i < body.length; i++) {
            body[i] = (byte) i;
        }
        try (Connection c = server.connect(options); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE " + table + " (id UUID PRIMARY KEY, body BYTEA, thumb VARBINARY(4), due TIME)");
            try (PreparedStatement p = c.prepareStatement("INSERT INTO " + table + " VALUES (?, ?, ?, ?)")) {
                for (int n = 0; n < 3; n++) { // three executions: the driver switches modes between them
                    p.setObject(1, n == 0 ? id : new UUID(n, n));
                    p.setBytes(2, body);
                    p.setBytes(3, new byte[] {0, (byte) 0xff, (byte) n});
                    p.setTime(4, Time.valueOf("13:14:15"));
                    assertEquals(1, p.executeUpdate());
                }
                p.setObject(1, new UUID(7, 7));
                p.setBytes(2, body);
                p.setBytes(3, new byte[5]);
                p.setObject(4, LocalTime.NOON);
                assertEquals("22001", assertThrows(SQLException.class, p::executeUpdate).getSQLState());
            }
            try (PreparedStatement q = c.prepareStatement("SELECT id, body, thumb, due FROM " + table + " WHERE id = ?")) {
                for (int round = 0; round < 3; round++) {
                    q.setObject(1, id);
                    try (ResultSet rs = q.executeQuery()) {
                        assertTrue(rs.next());
                        assertEquals(id, rs.getObject(1));
                        assertArrayEquals(body, rs.getBytes(2));
                        assertArrayEquals(new byte[] {0, (byte) 0xff, 0}, rs.getBytes("thumb"));
                        assertEquals(LocalTime.of(13, 14, 15), rs.getObject(4, LocalTime.class));
                        assertEquals(Types.BINARY, rs.getMetaData().getColumnType(2));
                        assertEquals(Types.OTHER, rs.getMetaData().getColumnType(1));
                        assertEquals("uuid", rs.getMetaData().getColumnTypeName(1));
                        assertFalse(rs.next());
                    }
                }
            }
            try (ResultSet rs = s.executeQuery("SELECT thumb, CAST(id AS VARCHAR(36)) FROM " + table
                    + " WHERE id = '00000000-0000-0002-0000-000000000002'")) {
                assertTrue(rs.next());
                assertEquals("\\x00ff02", rs.getString(1));
                assertEquals("00000000-0000-0002-0000-000000000002", rs.getString(2));
            }
        }
    }

    /** timestamptz through the driver: OffsetDateTime in, the same instant out at +00, text, server-side and binary. */
    @ParameterizedTest
    @ValueSource(strings = {"", "prepareThreshold=1", "prepareThreshold=1&binaryTransfer=true"})
    void instantsRoundTrip(String options) throws SQLException {
        String table = "stamps_" + Math.abs(options.hashCode());
        java.time.OffsetDateTime at = java.time.OffsetDateTime.parse("2024-05-06T09:08:09.123456+02:00");
        try (Connection c = server.connect(options); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE " + table + " (id INT PRIMARY KEY, stamped timestamptz)");
            try (PreparedStatement p = c.prepareStatement("INSERT INTO " + table + " VALUES (?, ?)")) {
                for (int id = 1; id <= 3; id++) {
                    p.setInt(1, id);
                    p.setObject(2, at.plusMinutes(id));
                    assertEquals(1, p.executeUpdate());
                }
            }
            s.execute("INSERT INTO " + table + " VALUES (4, '2024-05-06 07:20:09+00'::timestamptz)");
            try (PreparedStatement q = c.prepareStatement("SELECT stamped FROM " + table + " WHERE id = ?")) {
                for (int id = 1; id <= 3; id++) {
                    q.setInt(1, id);
                    try (ResultSet rs = q.executeQuery()) {
                        assertTrue(rs.next());
                        assertEquals(at.plusMinutes(id).toInstant(), rs.getObject(1, java.time.OffsetDateTime.class).toInstant());
                        assertEquals(Types.TIMESTAMP, rs.getMetaData().getColumnType(1));
                        assertEquals("timestamptz", rs.getMetaData().getColumnTypeName(1));
                    }
                }
            }
            try (ResultSet rs = s.executeQuery("SELECT CAST(stamped AS VARCHAR(40)) FROM " + table + " WHERE id = 4")) {
                assertTrue(rs.next());
                assertEquals("2024-05-06 07:20:09+00", rs.getString(1));
            }
        }
    }

    /** information_schema is Tell's own: queries on it run through the server like any other (Tell's upper-case names). */
    @Test
    void informationSchemaAnswersThroughTheServer() throws SQLException {
        try (Connection c = server.connect(""); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE info_t (id INT PRIMARY KEY, label VARCHAR(12) NOT NULL)");
            try (ResultSet rs = s.executeQuery("SELECT column_name, data_type, character_maximum_length, is_nullable"
                    + " FROM information_schema.columns WHERE table_name = 'INFO_T' ORDER BY ordinal_position")) {
                assertTrue(rs.next());
                assertEquals("ID", rs.getString(1));
                assertEquals("integer", rs.getString(2));
                assertTrue(rs.next());
                assertEquals("LABEL", rs.getString(1));
                assertEquals("character varying", rs.getString(2));
                assertEquals(12, rs.getInt(3));
                assertEquals("NO", rs.getString(4));
                assertFalse(rs.next());
            }
            try (PreparedStatement ps = c.prepareStatement("SELECT count(*) FROM information_schema.tables WHERE table_schema = ?"
                    + " AND table_name = ?")) {
                ps.setString(1, "PUBLIC");
                ps.setString(2, "INFO_T");
                try (ResultSet rs = ps.executeQuery()) {
                    assertTrue(rs.next());
                    assertEquals(1, rs.getInt(1));
                }
            }
        }
    }

    private static void p2(Connection c, String table, LocalDateTime ts) throws SQLException {
        try (PreparedStatement q = c.prepareStatement("SELECT id, si, bi, amount, d, r, vc, ch, b, dt, ts FROM " + table
                + " WHERE id >= ? ORDER BY id")) {
            for (int round = 0; round < 3; round++) {
                q.setInt(1, 2);
                try (ResultSet rs = q.executeQuery()) {
                    assertTrue(rs.next());
                    assertEquals(2, rs.getInt("id"));
                    assertEquals(-7, rs.getShort("si"));
                    assertEquals(9_000_000_002L, rs.getLong("bi"));
                    assertEquals(new BigDecimal("-12345.678"), rs.getBigDecimal("amount"));
                    assertEquals(0.1, rs.getDouble("d"));
                    assertEquals(1.5f, rs.getFloat("r"));
                    assertEquals("héllo 'x'", rs.getString("vc"));
                    assertEquals("ab ", rs.getString("ch"));
                    assertTrue(rs.getBoolean("b"));
                    assertEquals(LocalDate.of(2024, 2, 29), rs.getObject("dt", LocalDate.class));
                    assertEquals(ts, rs.getObject("ts", LocalDateTime.class));
                    assertEquals(Types.INTEGER, rs.getMetaData().getColumnType(1));
                    assertEquals(Types.NUMERIC, rs.getMetaData().getColumnType(4));
                    assertEquals(Types.TIMESTAMP, rs.getMetaData().getColumnType(11));
                    assertTrue(rs.next());
                    assertFalse(rs.next());
                }
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "reWriteBatchedInserts=true", "prepareThreshold=1&binaryTransfer=true"})
    void batchesInsertAndFailAsAWhole(String options) throws SQLException {
        String table = "batch_" + Math.abs(options.hashCode());
        try (Connection c = server.connect(options); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE " + table + " (id INTEGER PRIMARY KEY, v VARCHAR(10))");
            try (PreparedStatement p = c.prepareStatement("INSERT INTO " + table + " (id, v) VALUES (?, ?)")) {
                for (int i = 0; i < 50; i++) {
                    p.setInt(1, i);
                    p.setString(2, "v" + i);
                    p.addBatch();
                }
                int[] counts = p.executeBatch();
                assertEquals(50, counts.length);
                for (int i = 0; i < 50; i++) {
                    p.setInt(1, 100 + i);
                    p.setString(2, "w");
                    p.addBatch();
                }
                p.setInt(1, 7); // a duplicate key: the whole batch goes, as in PostgreSQL
                p.setString(2, "dup");
                p.addBatch();
                SQLException e = assertThrows(SQLException.class, p::executeBatch);
                assertEquals("23505", (e.getNextException() != null ? e.getNextException() : e).getSQLState());
            }
            assertEquals(50, count(s, "SELECT count(*) FROM " + table));
            s.addBatch("UPDATE " + table + " SET v = 'x' WHERE id < 10");
            s.addBatch("DELETE FROM " + table + " WHERE id >= 40");
            assertArrayEquals(new int[] {10, 10}, s.executeBatch());
            assertEquals(40, count(s, "SELECT count(*) FROM " + table));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "preferQueryMode=simple"})
    void errorsCarryTellsSqlStates(String options) throws SQLException {
        try (Connection c = server.connect(options); Statement s = c.createStatement()) {
            // Tell reports an unknown table as 42000 (SqlStates), where PostgreSQL says 42P01
            assertEquals("42000", assertThrows(SQLException.class, () -> s.executeQuery("SELECT * FROM no_such_table")).getSQLState());
            assertEquals("42601", assertThrows(SQLException.class, () -> s.execute("SELEC 1")).getSQLState());
            assertEquals("22012", assertThrows(SQLException.class, () -> s.executeQuery("SELECT 1 / 0")).getSQLState());
            try (ResultSet rs = s.executeQuery("SELECT 1 + 1")) { // the connection goes on
                assertTrue(rs.next());
                assertEquals(2, rs.getInt(1));
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "preferQueryMode=simple"})
    void setAndShowParameters(String options) throws SQLException {
        try (Connection c = server.connect(options + (options.isEmpty() ? "" : "&") + "ApplicationName=probe");
             Statement s = c.createStatement()) {
            assertEquals("probe", show(s, "application_name"));
            s.execute("SET application_name = 'other'");
            assertEquals("other", show(s, "application_name"));
            s.execute("SET search_path TO public");
            assertEquals("public", show(s, "search_path"));
            s.execute("SET TIME ZONE 'Europe/Zurich'");
            assertEquals("Europe/Zurich", show(s, "TimeZone"));
            s.execute("SET statement_timeout = '5s'");
            assertEquals("5000", show(s, "statement_timeout"));
            assertEquals("UTF8", show(s, "server_encoding"));
            assertEquals("42704", assertThrows(SQLException.class, () -> s.execute("SET no_such_parameter = 1")).getSQLState());
            assertEquals("22023", assertThrows(SQLException.class, () -> s.execute("SET client_encoding = 'LATIN1'")).getSQLState());
            assertTrue(c.getMetaData().getDatabaseProductVersion().startsWith("15.0"));
        }
    }

    static String show(Statement s, String name) throws SQLException {
        try (ResultSet rs = s.executeQuery("SHOW " + name)) {
            assertTrue(rs.next());
            return rs.getString(1);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "preferQueryMode=simple"})
    void savepointsUndoWritesAndRepairAFailedBlock(String options) throws SQLException {
        String table = "sp_" + Math.abs(options.hashCode());
        try (Connection c = server.connect(options); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE " + table + " (id INTEGER PRIMARY KEY)");
            assertEquals("25P01", assertThrows(SQLException.class, () -> s.execute("SAVEPOINT outside")).getSQLState());
            c.setAutoCommit(false);
            s.execute("INSERT INTO " + table + " VALUES (1)");
            java.sql.Savepoint unnamed = c.setSavepoint();
            s.execute("INSERT INTO " + table + " VALUES (2)");
            c.rollback(unnamed);
            java.sql.Savepoint named = c.setSavepoint("Before Error");
            s.execute("INSERT INTO " + table + " VALUES (3)");
            assertEquals("22012", assertThrows(SQLException.class, () -> s.executeQuery("SELECT 1 / 0")).getSQLState());
            assertEquals("25P02", assertThrows(SQLException.class, () -> s.execute("INSERT INTO " + table + " VALUES (9)"))
                    .getSQLState(), "the block is failed until it rolls back to the savepoint");
            c.rollback(named);
            s.execute("INSERT INTO " + table + " VALUES (4)");
            c.releaseSavepoint(named);
            assertEquals("3B001", assertThrows(SQLException.class, () -> s.execute("ROLLBACK TO SAVEPOINT nowhere")).getSQLState());
            c.rollback(); // the error above failed the block again: end it
            s.execute("INSERT INTO " + table + " VALUES (1)");
            s.execute("SAVEPOINT a");
            s.execute("INSERT INTO " + table + " VALUES (4)");
            s.execute("RELEASE SAVEPOINT a");
            c.commit();
            try (ResultSet rs = s.executeQuery("SELECT id FROM " + table + " ORDER BY id")) {
                assertTrue(rs.next());
                assertEquals(1, rs.getInt(1));
                assertTrue(rs.next());
                assertEquals(4, rs.getInt(1));
                assertFalse(rs.next());
            }
        }
        // The driver's autosave: a savepoint before each statement, rolled back to when one fails.
        try (Connection c = server.connect(options + (options.isEmpty() ? "" : "&") + "autosave=always");
                Statement s = c.createStatement()) {
            c.setAutoCommit(false);
            s.execute("INSERT INTO " + table + " VALUES (10)");
            assertThrows(SQLException.class, () -> s.executeQuery("SELECT 1 / 0"));
            s.execute("INSERT INTO " + table + " VALUES (11)");
            c.commit();
            assertEquals(4, count(s, "SELECT count(*) FROM " + table));
        }
    }

    static long count(Statement s, String sql) throws SQLException {
        try (ResultSet rs = s.executeQuery(sql)) {
            assertTrue(rs.next());
            return rs.getLong(1);
        }
    }
}
