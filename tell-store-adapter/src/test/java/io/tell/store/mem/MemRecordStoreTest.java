package io.tell.store.mem;

import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.store.RecordStore;
import io.tell.store.RecordStoreContractTest;
import io.tell.store.RecordStores;
import org.junit.jupiter.api.Test;

class MemRecordStoreTest extends RecordStoreContractTest {
    @Override
    protected RecordStore openStore() {
        return RecordStores.open("mem:");
    }

    @Test
    void namedStoresAreSharedWithinTheJvm() {
        assertSame(RecordStores.open("mem:shared-x"), RecordStores.open("mem:shared-x"));
    }

    @Test
    void unknownSchemeIsAClearConfigurationError() {
        TellException e = assertThrows(TellException.class, () -> RecordStores.open("foo://x"));
        assertSame(ErrorCode.BAD_CONFIGURATION, e.code());
    }
}
