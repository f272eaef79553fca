package io.tell.sql.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.DriverPropertyInfo;
import java.sql.SQLException;
import java.util.Properties;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;

class JdbcDriverTest {
    private final TellDriver driver = new TellDriver();

    @Test
    void driverManagerFindsTheDriverThroughItsServiceEntry() throws SQLException {
        assertTrue(ServiceLoader.load(Driver.class).stream().anyMatch(p -> p.type() == TellDriver.class));
        assertInstanceOf(TellDriver.class, DriverManager.getDriver("jdbc:tell:mem:"));
        try (Connection c = DriverManager.getConnection("jdbc:tell:mem:")) {
            assertInstanceOf(TellConnection.class, c);
            assertFalse(c.isClosed());
            assertEquals("jdbc:tell:mem:", c.getMetaData().getURL());
        }
    }

    @Test
    void acceptsOnlyTellUrls() throws SQLException {
        assertTrue(driver.acceptsURL("jdbc:tell:mem:"));
        assertTrue(driver.acceptsURL("jdbc:tell:redis://h:7000?cm=h:7400"));
        assertTrue(driver.acceptsURL("jdbc:tell:nonsense"), "a Tell URL, even if a bad one: connect says why");
        assertFalse(driver.acceptsURL("jdbc:h2:mem:"));
        assertThrows(SQLException.class, () -> driver.acceptsURL(null));
        assertNull(driver.connect("jdbc:h2:mem:", new Properties()), "another driver's URL");
    }

    @Test
    void badUrlsFailWithAClearMessage() {
        for (String bad : new String[] {"jdbc:tell:", "jdbc:tell:mem:bad name", "jdbc:tell:redis://h:1",
                "jdbc:tell:postgres://x"}) {
            SQLException e = assertThrows(SQLException.class, () -> DriverManager.getConnection(bad), bad);
            assertEquals("22023", e.getSQLState(), bad);
            assertTrue(e.getMessage().contains(bad), e.getMessage());
        }
        SQLException noCm = assertThrows(SQLException.class, () -> DriverManager.getConnection("jdbc:tell:redis://h:1"));
        assertTrue(noCm.getMessage().contains("?cm="), noCm.getMessage());
    }

    @Test
    void userComesFromTheProperties() throws SQLException {
        Properties info = new Properties();
        info.setProperty("user", "ann");
        info.setProperty("password", "ignored");
        try (Connection c = DriverManager.getConnection("jdbc:tell:mem:", info)) {
            assertEquals("ann", c.getMetaData().getUserName());
        }
        try (Connection c = DriverManager.getConnection("jdbc:tell:mem:", "bob", "")) {
            assertEquals("bob", c.getMetaData().getUserName());
        }
    }

    @Test
    void reportsVersionAndProperties() {
        assertEquals(0, driver.getMajorVersion());
        assertEquals(1, driver.getMinorVersion());
        assertFalse(driver.jdbcCompliant());
        DriverPropertyInfo[] props = driver.getPropertyInfo("jdbc:tell:mem:", new Properties());
        assertEquals("user", props[0].name);
        assertEquals("password", props[1].name);
        assertFalse(props[0].required);
        assertTrue(props[1].description.contains("no authentication"));
    }
}
