package io.tell.cm.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.ReferenceCountUtil;
import io.tell.cm.LocalCommitManager;
import io.tell.store.RecordStores;
import io.tell.txn.CommitManager;
import io.tell.txn.TxStart;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A START whose STARTED answer never reaches its client must not leave the transaction
 * registered at the commit manager, where it would pin lav forever.
 */
class CmServerHandlerTest {
    private LocalCommitManager cm;
    /** Starts wait for this, so a test can close the connection before the answer exists. */
    private final CompletableFuture<Void> gate = new CompletableFuture<>();
    private CommitManager gated;

    @BeforeEach
    void setUp() {
        cm = LocalCommitManager.open(RecordStores.open("mem:"), LocalCommitManager.Options.embedded());
        // Once a tid range is at hand, starts complete on the caller's thread: no waiting below.
        cm.committed(cm.start(false).tid());
        gated = new io.tell.txn.ForwardingCommitManager() {
            @Override
            protected CommitManager delegate() {
                return cm;
            }

            @Override
            public CompletableFuture<TxStart> startAsync(boolean readOnly, String owner) {
                return gate.thenCompose(ignored -> cm.startAsync(readOnly, owner));
            }

            @Override
            public void close() {
            }
        };
    }

    @AfterEach
    void tearDown() {
        cm.close();
    }

    private static ByteBuf startFrame(boolean readOnly) {
        ByteBuf frame = CmProtocol.encode(io.netty.buffer.UnpooledByteBufAllocator.DEFAULT, new CmProtocol.Start(1, readOnly));
        frame.readInt(); // the frame decoder strips the length prefix before the handler
        return frame;
    }

    private void assertNothingRunning() {
        assertTrue(cm.describe().endsWith("running=0"), "the undelivered start still runs: " + cm.describe());
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void startAnsweredAfterTheConnectionClosedIsReleased(boolean readOnly) {
        EmbeddedChannel channel = new EmbeddedChannel(new CmServerHandler(gated));
        channel.writeInbound(startFrame(readOnly));
        channel.close();
        gate.complete(null);
        channel.runPendingTasks();
        assertNothingRunning();
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void startWhoseAnswerFailsToBeWrittenIsReleased(boolean readOnly) {
        gate.complete(null);
        EmbeddedChannel channel = new EmbeddedChannel(new ChannelOutboundHandlerAdapter() {
            @Override
            public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
                ReferenceCountUtil.release(msg);
                promise.setFailure(new IOException("injected: connection reset"));
            }
        }, new CmServerHandler(gated));
        channel.writeInbound(startFrame(readOnly));
        channel.runPendingTasks();
        assertNothingRunning();
        assertEquals(0, channel.outboundMessages().size());
    }
}
