package io.tell.cm.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.error.TellRetriableException;
import io.tell.txn.CommitManager;
import io.tell.txn.SnapshotDescriptor;
import io.tell.txn.TxStart;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

class CmProtocolTest {
    private static final UnpooledByteBufAllocator ALLOC = UnpooledByteBufAllocator.DEFAULT;

    /** Encodes, checks the length prefix, strips it (as the frame decoder does) and decodes. */
    private static <T> T roundTrip(ByteBuf encoded, Function<ByteBuf, T> decode) {
        try {
            assertEquals(encoded.readableBytes() - CmProtocol.LENGTH_BYTES, encoded.readInt(), "length prefix");
            T decoded = decode.apply(encoded);
            assertEquals(0, encoded.readableBytes(), "every byte consumed");
            return decoded;
        } finally {
            encoded.release();
        }
    }

    @Test
    void requestsRoundTrip() {
        for (CmProtocol.Request r : new CmProtocol.Request[] {
                new CmProtocol.Start(1, false), new CmProtocol.Start(Long.MAX_VALUE, true),
                new CmProtocol.Start(2, false, "pn-1.5f3a0"), new CmProtocol.Start(3, true, "pn-ü"),
                new CmProtocol.Report(7, CommitManager.Outcome.COMMITTED, 42, 9), new CmProtocol.Report(8, CommitManager.Outcome.ABORTED, -(3L << 40 | 5), 0),
                new CmProtocol.Report(9, CommitManager.Outcome.DECIDED, 43, 11), new CmProtocol.Validating(10, 44)}) {
            assertEquals(r, roundTrip(CmProtocol.encode(ALLOC, r), CmProtocol::decodeRequest));
        }
    }

    @Test
    void frameSizesOnTheWire() {
        assertEquals(4 + 9 + 1, CmProtocol.encode(ALLOC, new CmProtocol.Start(1, false)).readableBytes());
        assertEquals(4 + 9 + 1 + 2 + 4, CmProtocol.encode(ALLOC, new CmProtocol.Start(1, false, "pn-1")).readableBytes());
        assertEquals(4 + 9 + 16, CmProtocol.encode(ALLOC, new CmProtocol.Report(1, CommitManager.Outcome.COMMITTED, 5, 3)).readableBytes());
        assertEquals(4 + 9 + 8, CmProtocol.encode(ALLOC, new CmProtocol.Report(1, CommitManager.Outcome.ABORTED, 5, 0)).readableBytes());
        assertEquals(4 + 9, CmProtocol.encode(ALLOC, new CmProtocol.Ok(1)).readableBytes());
        assertEquals(4 + 9 + 8, CmProtocol.encode(ALLOC, new CmProtocol.Validating(1, 5)).readableBytes());
    }

    @Test
    void responsesRoundTrip() {
        SnapshotDescriptor snapshot = new SnapshotDescriptor(100, new long[] {0b1011, 0, 1L << 63});
        CmProtocol.Started started = new CmProtocol.Started(3, new TxStart(205, snapshot, 90));
        CmProtocol.Response back = roundTrip(CmProtocol.encode(ALLOC, started), CmProtocol::decodeResponse);
        assertEquals(started, back);
        assertEquals(snapshot, ((CmProtocol.Started) back).start().snapshot());
        TxStart.Writers writers = new TxStart.Writers(101, 205, 300, new long[] {150, 177, 204});
        CmProtocol.Started withWriters = new CmProtocol.Started(4, new TxStart(-7, snapshot, 90, writers));
        TxStart start = ((CmProtocol.Started) roundTrip(CmProtocol.encode(ALLOC, withWriters), CmProtocol::decodeResponse)).start();
        assertEquals(writers, start.writers());
        assertTrue(start.mayPrecedeSnapshot(177), "reported validating");
        assertFalse(start.mayPrecedeSnapshot(178), "issued, running, not validating");
        assertFalse(start.mayPrecedeSnapshot(250), "issued after the snapshot");
        assertTrue(start.mayPrecedeSnapshot(100) && start.mayPrecedeSnapshot(301), "not this manager's");
        for (CmProtocol.Response r : new CmProtocol.Response[] {
                new CmProtocol.Ok(4), new CmProtocol.Failed(5, "TX_STATE", "tid 9 was never issued — ünïcode"),
                new CmProtocol.Failed(6, "", "")}) {
            assertEquals(r, roundTrip(CmProtocol.encode(ALLOC, r), CmProtocol::decodeResponse));
        }
    }

    @Test
    void longErrorMessagesAreCut() {
        String huge = "x".repeat(100_000);
        CmProtocol.Failed back = (CmProtocol.Failed) roundTrip(
                CmProtocol.encode(ALLOC, new CmProtocol.Failed(1, "INTERNAL", huge)), CmProtocol::decodeResponse);
        assertTrue(back.message().length() < 5000);
    }

    @Test
    void errorsMapToTheirCodes() {
        TellException e = new CmProtocol.Failed(1, "CM_UNAVAILABLE", "closed").toException("h:1");
        assertEquals(ErrorCode.CM_UNAVAILABLE, e.code());
        assertTrue(e instanceof TellRetriableException);
        assertEquals(ErrorCode.TX_STATE, new CmProtocol.Failed(1, "TX_STATE", "x").toException("h:1").code());
        assertEquals(ErrorCode.INTERNAL, new CmProtocol.Failed(1, "FROM_THE_FUTURE", "x").toException("h:1").code());
    }

    private static ByteBuf frame(int... bytes) {
        ByteBuf b = Unpooled.buffer();
        for (int x : bytes) {
            b.writeByte(x);
        }
        return b;
    }

    private static ByteBuf header(int type, long id) {
        return Unpooled.buffer().writeByte(type).writeLong(id);
    }

    @Test
    void malformedRequestsAreProtocolErrors() {
        ByteBuf[] bad = {
            frame(),
            frame(1, 0, 0),
            header(0x7f, 1),
            header(CmProtocol.START, 1),
            header(CmProtocol.START, 1).writeByte(2),
            header(CmProtocol.START, 1).writeByte(1).writeByte(0),
            header(CmProtocol.COMMITTED, 1).writeInt(5),
            header(CmProtocol.ABORTED, 1).writeLong(5).writeByte(0),
            header(CmProtocol.VALIDATING, 1).writeInt(5),
            header(CmProtocol.OK & 0xff, 1),
        };
        for (ByteBuf b : bad) {
            TellException e = assertThrows(TellException.class, () -> CmProtocol.decodeRequest(b));
            assertEquals(ErrorCode.PROTOCOL_ERROR, e.code());
        }
        assertEquals(-1, CmProtocol.requestIdOf(frame(1, 2)));
        assertEquals(42, CmProtocol.requestIdOf(header(0x7f, 42)));
    }

    /** A STARTED frame up to its validating tids, of which it announces {@code validating}. */
    private static ByteBuf started(int validating) {
        return header(CmProtocol.STARTED & 0xff, 1).writeLong(1).writeLong(0).writeLong(1).writeLong(0).writeLong(0).writeInt(validating);
    }

    @Test
    void malformedResponsesAreProtocolErrors() {
        ByteBuf[] bad = {
            frame(0x82),
            header(CmProtocol.STARTED & 0xff, 1).writeLong(1),
            started(0).writeLong(0).writeInt(3),
            started(0).writeLong(0).writeInt(0).writeByte(9),
            started(2).writeLong(5),
            started(-1).writeLong(0).writeInt(0),
            header(CmProtocol.OK & 0xff, 1).writeByte(0),
            header(CmProtocol.ERROR & 0xff, 1).writeShort(10).writeByte('A'),
            header(CmProtocol.ERROR & 0xff, 1).writeShort(0).writeShort(0).writeByte(1),
            header(CmProtocol.START, 1).writeByte(0),
        };
        for (ByteBuf b : bad) {
            TellException e = assertThrows(TellException.class, () -> CmProtocol.decodeResponse(b));
            assertEquals(ErrorCode.PROTOCOL_ERROR, e.code());
        }
    }
}
