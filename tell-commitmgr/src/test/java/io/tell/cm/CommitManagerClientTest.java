package io.tell.cm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import java.net.InetSocketAddress;
import java.util.List;
import org.junit.jupiter.api.Test;

class CommitManagerClientTest {

    @Test
    void parsesAddressLists() {
        assertEquals(List.of(InetSocketAddress.createUnresolved("127.0.0.1", 7000), InetSocketAddress.createUnresolved("cm2", 7001)),
                CommitManagerClient.parse("127.0.0.1:7000, cm2:7001"));
        assertEquals(List.of(InetSocketAddress.createUnresolved("::1", 7000)), CommitManagerClient.parse("[::1]:7000"));
    }

    @Test
    void badAddressesAreConfigurationErrors() {
        for (String bad : new String[] {"", "host", "host:", "host:0", "host:99999", ":7000", "h:1,,h:2", "h:x"}) {
            TellException e = assertThrows(TellException.class, () -> CommitManagerClient.parse(bad), bad);
            assertEquals(ErrorCode.BAD_CONFIGURATION, e.code(), bad);
        }
    }
}
