package io.tell.txn;

import io.tell.cm.LocalCommitManager;

/**
 * {@link SerializableHistoryTest}'s randomized histories against a durable commit manager served
 * over TCP, switching tid ranges every few transactions.
 */
class SerializableHistoryOverTheWireTest extends SerializableHistoryTest {
    private ServedCommitManager served;

    @Override
    LocalCommitManager.Options options() {
        return ServedCommitManager.OPTIONS;
    }

    @Override
    CommitManager served(LocalCommitManager cm) {
        served = ServedCommitManager.serve(cm);
        return served.client();
    }

    @Override
    void closeServed() {
        served.close();
    }
}
