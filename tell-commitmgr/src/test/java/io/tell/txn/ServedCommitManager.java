package io.tell.txn;

import io.tell.cm.CommitManagerClient;
import io.tell.cm.CommitManagerServer;
import io.tell.cm.LocalCommitManager;
import java.time.Duration;

/**
 * A durable commit manager (a cluster member) served over TCP on loopback, and a client of it:
 * what a processing node talks to when the commit manager runs in a process of its own. Tid
 * ranges of {@value #TID_RANGE} make the member switch ranges every few transactions.
 */
final class ServedCommitManager implements AutoCloseable {
    static final int TID_RANGE = 3;
    static final LocalCommitManager.Options OPTIONS = new LocalCommitManager.Options(TID_RANGE, true, Duration.ofSeconds(3));

    private final CommitManagerServer server;
    private final CommitManagerClient client;

    private ServedCommitManager(CommitManagerServer server, CommitManagerClient client) {
        this.server = server;
        this.client = client;
    }

    /** Serves {@code cm} (opened with {@link #OPTIONS}) on a free loopback port and connects to it. */
    static ServedCommitManager serve(LocalCommitManager cm) {
        CommitManagerServer server = CommitManagerServer.start(cm, "127.0.0.1", 0);
        return new ServedCommitManager(server, CommitManagerClient.connect("127.0.0.1:" + server.port(), CommitManagerClient.Options.defaults()));
    }

    CommitManager client() {
        return client;
    }

    /** Closes client and server; the served manager stays open. */
    @Override
    public void close() {
        client.close();
        server.close();
    }
}
