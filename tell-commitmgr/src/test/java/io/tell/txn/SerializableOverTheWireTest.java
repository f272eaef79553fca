package io.tell.txn;

/** {@link SerializableTest}'s cases against a durable commit manager served over TCP. */
class SerializableOverTheWireTest extends SerializableTest {
    @Override
    CommitManagerFixture fixture() {
        return CommitManagerFixture.overTheWire();
    }
}
