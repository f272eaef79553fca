package io.tell.txn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.tell.error.TellException;
import io.tell.store.RecordKey;
import java.util.List;
import org.junit.jupiter.api.Test;

class TxLogTest {
    @Test
    void entriesRoundTrip() {
        List<RecordKey> keys = List.of(new RecordKey("accounts", new byte[] {1, 2}), new RecordKey("x.y", new byte[0]));
        TxLog.Entry e = new TxLog.Entry(TxLog.State.WRITING, "pn-1", 1234L, keys);
        TxLog.Entry back = TxLog.decode(TxLog.encode(e));
        assertEquals(e.state(), back.state());
        assertEquals("pn-1", back.node());
        assertEquals(1234L, back.millis());
        assertEquals(keys, back.keys());
    }

    @Test
    void tidKeysSortByTid() {
        assertArrayEquals(new byte[] {0, 0, 0, 0, 0, 0, 1, 0}, TxLog.key(256));
    }

    @Test
    void truncatedEntryIsCorruptData() {
        byte[] bytes = TxLog.encode(new TxLog.Entry(TxLog.State.FENCED, "cm", 1, List.of(new RecordKey("d", new byte[] {5}))));
        assertThrows(TellException.class, () -> TxLog.decode(java.util.Arrays.copyOf(bytes, bytes.length - 2)));
    }
}
