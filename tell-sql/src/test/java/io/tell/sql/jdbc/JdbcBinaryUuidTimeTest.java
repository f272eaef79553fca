package io.tell.sql.jdbc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.sql.Blob;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Time;
import java.sql.Types;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import javax.sql.rowset.serial.SerialBlob;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** VARBINARY (BYTEA, BLOB), UUID and TIME through the embedded JDBC driver, as applications bind and read them. */
class JdbcBinaryUuidTimeTest {
    private Connection c;

    @BeforeEach
    void open() throws SQLException {
        c = DriverManager.getConnection("jdbc:tell:mem:");
        try (Statement s = c.createStatement()) {
            s.execute("CREATE TABLE doc (id UUID PRIMARY KEY, body BYTEA, thumb VARBINARY(8), pic BLOB, due TIME)");
        }
    }

    @AfterEach
    void close() throws SQLException {
        c.close();
    }

    @Test
    void valuesRoundTripThroughEveryWayOfBindingThem() throws SQLException {
        UUID a = UUID.fromString("123e4567-e89b-12d3-a456-426614174000");
        UUID b = UUID.fromString("ffffffff-ffff-ffff-0000-000000000000");
        byte[] body = new byte[70_000];
        for (int i = 0; i < body.length; i++) {
            body[i] = (byte) (i * 31);
        }
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO doc VALUES (?, ?, ?, ?, ?)")) {
            ps.setObject(1, a);
            ps.setBytes(2, body);
            ps.setBinaryStream(3, new ByteArrayInputStream(new byte[] {0, 1, 2}), 3);
            ps.setBlob(4, new SerialBlob(new byte[] {9, 8}));
            ps.setTime(5, Time.valueOf("13:14:15"));
            assertEquals(1, ps.executeUpdate());
            ps.setString(1, b.toString().toUpperCase());
            ps.setObject(2, new byte[0], Types.VARBINARY);
            ps.setNull(3, Types.VARBINARY);
            ps.setBinaryStream(4, new ByteArrayInputStream(new byte[] {7}));
            ps.setObject(5, LocalTime.of(23, 59, 59, 250_000_000));
            assertEquals(1, ps.executeUpdate());
        }
        try (PreparedStatement ps = c.prepareStatement("SELECT id, body, thumb, pic, due FROM doc WHERE id = ?")) {
            ps.setObject(1, a);
            try (ResultSet rs = ps.executeQuery()) {
                assertTrue(rs.next());
                assertEquals(a, rs.getObject(1));
                assertEquals(a, rs.getObject("ID", UUID.class));
                assertEquals(a.toString(), rs.getString(1));
                assertArrayEquals(body, rs.getBytes(2));
                assertArrayEquals(new byte[] {0, 1, 2}, rs.getBinaryStream(3).readAllBytes());
                Blob pic = rs.getBlob(4);
                assertArrayEquals(new byte[] {9, 8}, pic.getBytes(1, (int) pic.length()));
                assertEquals("\\x000102", rs.getString(3));
                assertEquals(Time.valueOf("13:14:15"), rs.getTime(5));
                assertEquals(LocalTime.of(13, 14, 15), rs.getObject(5, LocalTime.class));
                assertFalse(rs.next());
            } catch (java.io.IOException e) {
                throw new AssertionError(e);
            }
            ps.setString(1, b.toString());
            try (ResultSet rs = ps.executeQuery()) {
                assertTrue(rs.next());
                assertArrayEquals(new byte[0], rs.getBytes(2));
                assertNull(rs.getBytes(3));
                assertTrue(rs.wasNull());
                assertArrayEquals(new byte[] {7}, rs.getBytes(4));
                assertEquals(LocalTime.of(23, 59, 59, 250_000_000), rs.getObject(5, LocalTime.class));
            }
        }
        // Ordered as PostgreSQL orders uuid (unsigned bytes), and compared by content.
        List<UUID> ids = new ArrayList<>();
        try (ResultSet rs = c.createStatement().executeQuery("SELECT id FROM doc WHERE thumb = X'000102' OR thumb IS NULL ORDER BY id")) {
            while (rs.next()) {
                ids.add(rs.getObject(1, UUID.class));
            }
        }
        assertEquals(List.of(a, b), ids);
    }

    @Test
    void aValueTooLongOrMalformedIsRefusedAndNothingIsStored() throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO doc (id, thumb) VALUES (?, ?)")) {
            ps.setObject(1, UUID.randomUUID());
            ps.setBytes(2, new byte[9]);
            assertEquals("22001", assertThrows(SQLException.class, ps::executeUpdate).getSQLState());
            ps.setString(1, "not-a-uuid");
            ps.setBytes(2, new byte[8]);
            assertEquals("22018", assertThrows(SQLException.class, ps::executeUpdate).getSQLState());
        }
        try (ResultSet rs = c.createStatement().executeQuery("SELECT count(*) FROM doc")) {
            assertTrue(rs.next());
            assertEquals(0, rs.getInt(1));
        }
    }

    @Test
    void bytesHandedInOrOutAreCopies() throws SQLException {
        byte[] mine = {1, 2, 3};
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO doc (id, thumb) VALUES (?, ?)")) {
            ps.setObject(1, new UUID(0, 1));
            ps.setBytes(2, mine);
            mine[0] = 99; // after binding, before executing: the bound value does not change
            ps.executeUpdate();
        }
        try (ResultSet rs = c.createStatement().executeQuery("SELECT thumb FROM doc")) {
            assertTrue(rs.next());
            byte[] got = rs.getBytes(1);
            assertArrayEquals(new byte[] {1, 2, 3}, got);
            got[0] = 42;
            assertArrayEquals(new byte[] {1, 2, 3}, rs.getBytes(1));
        }
    }

    @Test
    void metadataReportsTheTypes() throws SQLException {
        try (ResultSet rs = c.createStatement().executeQuery("SELECT id, body, thumb, due FROM doc")) {
            var md = rs.getMetaData();
            assertEquals(Types.OTHER, md.getColumnType(1));
            assertEquals("UUID", md.getColumnTypeName(1));
            assertEquals(UUID.class.getName(), md.getColumnClassName(1));
            assertEquals(Types.VARBINARY, md.getColumnType(2));
            assertEquals(Types.VARBINARY, md.getColumnType(3));
            assertEquals(8, md.getPrecision(3));
            assertEquals(Types.TIME, md.getColumnType(4));
        }
        DatabaseMetaData meta = c.getMetaData();
        List<String> types = new ArrayList<>();
        try (ResultSet rs = meta.getColumns(null, null, "DOC", "%")) {
            while (rs.next()) {
                types.add(rs.getString("COLUMN_NAME") + " " + rs.getString("TYPE_NAME") + " " + rs.getInt("DATA_TYPE")
                        + " " + rs.getInt("COLUMN_SIZE"));
            }
        }
        assertEquals(List.of("ID UUID 1111 36", "BODY VARBINARY -3 1048576", "THUMB VARBINARY -3 8",
                "PIC VARBINARY -3 1048576", "DUE TIME 92 18"), types);
        assertInstanceOf(ResultSet.class, meta.getTypeInfo());
    }

    /** TIMESTAMP WITH TIME ZONE holds instants: bound as OffsetDateTime, Instant or text with an offset, read at UTC. */
    @Test
    void instantsRoundTripWhateverTheirOffset() throws SQLException {
        java.time.OffsetDateTime at = java.time.OffsetDateTime.parse("2024-05-06T09:08:09.123+02:00");
        try (Statement s = c.createStatement()) {
            s.execute("CREATE TABLE stamp (id INT PRIMARY KEY, stamped TIMESTAMP WITH TIME ZONE)");
        }
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO stamp VALUES (?, ?)")) {
            ps.setInt(1, 1);
            ps.setObject(2, at);
            ps.executeUpdate();
            ps.setInt(1, 2);
            ps.setObject(2, at.toInstant().plusSeconds(60));
            ps.executeUpdate();
            ps.setInt(1, 3);
            ps.setObject(2, "2024-05-06 07:10:09.123Z", Types.TIMESTAMP_WITH_TIMEZONE);
            ps.executeUpdate();
        }
        try (ResultSet rs = c.createStatement().executeQuery("SELECT id, stamped FROM stamp ORDER BY stamped")) {
            assertEquals(Types.TIMESTAMP_WITH_TIMEZONE, rs.getMetaData().getColumnType(2));
            List<Long> seconds = new ArrayList<>();
            while (rs.next()) {
                java.time.OffsetDateTime got = rs.getObject(2, java.time.OffsetDateTime.class);
                assertEquals(java.time.ZoneOffset.UTC, got.getOffset());
                assertEquals(got.toInstant(), rs.getObject(2, java.time.Instant.class));
                assertEquals(got.toInstant(), rs.getTimestamp(2).toInstant());
                seconds.add(got.toEpochSecond() - at.toEpochSecond());
                if (rs.getInt(1) == 1) {
                    assertEquals(at.toInstant(), got.toInstant());
                    assertEquals("2024-05-06 07:08:09.123+00", rs.getString(2));
                }
            }
            assertEquals(List.of(0L, 60L, 120L), seconds);
        }
    }
}
