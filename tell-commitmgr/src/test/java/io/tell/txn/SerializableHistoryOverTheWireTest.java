package io.tell.txn;

/** {@link SerializableHistoryTest}'s randomized histories against a durable commit manager served over TCP. */
class SerializableHistoryOverTheWireTest extends SerializableHistoryTest {
    @Override
    CommitManagerFixture fixture() {
        return CommitManagerFixture.overTheWire();
    }
}
