package io.tell.bench.bank;

import io.tell.cm.CommitManagerClient;
import io.tell.cm.CommitManagerServer;
import io.tell.cm.LocalCommitManager;
import io.tell.store.RecordStore;
import io.tell.store.RecordStores;
import io.tell.txn.TransactionManager;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A test deployment: one commit manager behind a TCP server, and several processing nodes,
 * each with its own store connection, commit-manager client and transaction manager.
 */
final class BankCluster implements AutoCloseable {
    private final String storeUrl;
    private final LocalCommitManager.Options cmOptions;
    private final RecordStore cmStore;
    private LocalCommitManager commitManager;
    private CommitManagerServer server;
    private final int port;
    private final List<RecordStore> stores = new ArrayList<>();
    private final List<CommitManagerClient> clients = new ArrayList<>();
    final List<TransactionManager> nodes = new ArrayList<>();

    BankCluster(String storeUrl, int nodeCount, LocalCommitManager.Options cmOptions) {
        this.storeUrl = storeUrl;
        this.cmOptions = cmOptions;
        this.cmStore = RecordStores.open(storeUrl);
        this.commitManager = LocalCommitManager.open(cmStore, cmOptions);
        this.server = CommitManagerServer.start(commitManager, "127.0.0.1", 0);
        this.port = server.port();
        CommitManagerClient.Options clientOptions = CommitManagerClient.Options.defaults()
                .withRequestTimeout(Duration.ofSeconds(2))
                .withReportDeadline(Duration.ofSeconds(30));
        for (int n = 0; n < nodeCount; n++) {
            RecordStore store = RecordStores.open(storeUrl);
            CommitManagerClient client = CommitManagerClient.connect("127.0.0.1:" + port, clientOptions);
            stores.add(store);
            clients.add(client);
            nodes.add(new TransactionManager(store, client, "pn-" + n, Duration.ofSeconds(30)));
        }
    }

    /** Takes the commit manager off the network (the process stays, as in a network outage). */
    void stopServer() {
        server.close();
    }

    /** Serves the same commit manager again on the same port. */
    void restartServer() {
        server = CommitManagerServer.start(commitManager, "127.0.0.1", port);
    }

    /** Replaces the commit manager by a new incarnation over the same store (a process restart). */
    void restartCommitManager() {
        server.close();
        commitManager.close();
        commitManager = LocalCommitManager.open(cmStore, cmOptions);
        server = CommitManagerServer.start(commitManager, "127.0.0.1", port);
    }

    String storeUrl() {
        return storeUrl;
    }

    @Override
    public void close() {
        nodes.forEach(TransactionManager::close);
        clients.forEach(CommitManagerClient::close);
        server.close();
        commitManager.close();
        stores.forEach(RecordStore::close);
        cmStore.close();
    }
}
