package io.tell.txn;

import io.tell.cm.LocalCommitManager;

/**
 * {@link SerializableTest}'s cases against a durable commit manager served over TCP: starts that
 * come over the wire carry what the member knows of its writers, and writers report
 * {@code VALIDATING} to it.
 */
class SerializableOverTheWireTest extends SerializableTest {
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
