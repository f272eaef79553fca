package io.tell.cm.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.tell.cm.ClusterSecret;
import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;

/**
 * One plain-TCP connection to a commit-manager server used from the calling thread: a request
 * is written and its answer read on that thread, one call at a time, so a call costs the round
 * trip and two system calls where the event-loop client adds a hand-off there and back. The
 * handshake with a cluster secret is made when the connection opens. An I/O failure or a time-out
 * leaves the stream out of step: the connection must then be closed (or drained, {@link #readUntil}).
 */
public final class CmBlockingConnection implements AutoCloseable {
    private static final UnpooledByteBufAllocator HEAP = new UnpooledByteBufAllocator(false);

    private final Socket socket;
    private final DataInputStream in;
    private final OutputStream out;
    private final int addressIndex;
    private final String peer;

    private CmBlockingConnection(Socket socket, int addressIndex, String peer) throws IOException {
        this.socket = socket;
        this.in = new DataInputStream(new BufferedInputStream(socket.getInputStream(), 4096));
        this.out = socket.getOutputStream();
        this.addressIndex = addressIndex;
        this.peer = peer;
    }

    /**
     * Connects to {@code host:port} and, with a {@code secret}, proves it and checks the server's
     * proof, all within {@code connectMillis}. Fails with an IOException when the server
     * cannot be reached or does not answer in time, with a TellException when it refuses (AUTH_FAILED).
     */
    public static CmBlockingConnection open(String host, int port, int addressIndex, int connectMillis, ClusterSecret secret)
            throws IOException {
        long deadline = System.nanoTime() + connectMillis * 1_000_000L;
        Socket socket = new Socket();
        try {
            socket.setTcpNoDelay(true);
            socket.connect(new InetSocketAddress(host, port), connectMillis);
            CmBlockingConnection c = new CmBlockingConnection(socket, addressIndex, host + ":" + port);
            if (secret != null) {
                c.authenticate(secret, deadline);
            }
            return c;
        } catch (IOException | RuntimeException e) {
            socket.close();
            throw e;
        }
    }

    private void authenticate(ClusterSecret secret, long deadline) throws IOException {
        CmProtocol.Response first = read(millisLeft(deadline));
        if (!(first instanceof CmProtocol.Challenge challenge)) {
            throw refused(first);
        }
        byte[] clientNonce = CmHandshake.nonce();
        write(new CmProtocol.Auth(0, clientNonce, CmHandshake.clientProof(secret, challenge.serverNonce(), clientNonce)));
        CmProtocol.Response second = read(millisLeft(deadline));
        if (!(second instanceof CmProtocol.Authenticated a)) {
            throw refused(second);
        }
        if (!CmHandshake.matches(CmHandshake.serverProof(secret, challenge.serverNonce(), clientNonce), a.proof())) {
            throw TellException.of(ErrorCode.AUTH_FAILED, "commit manager " + peer
                    + " could not prove it holds the cluster secret (a different cluster, or not a member)");
        }
    }

    private static int millisLeft(long deadline) throws SocketTimeoutException {
        long left = (deadline - System.nanoTime()) / 1_000_000;
        if (left <= 0) {
            throw new SocketTimeoutException("handshake not finished in time");
        }
        return (int) Math.min(Integer.MAX_VALUE, left);
    }

    private TellException refused(CmProtocol.Response response) {
        return response instanceof CmProtocol.Failed f ? f.toException(peer)
                : TellException.of(ErrorCode.PROTOCOL_ERROR, "commit manager " + peer + " answered "
                        + response.getClass().getSimpleName() + " during the handshake");
    }

    public int addressIndex() {
        return addressIndex;
    }

    public String peer() {
        return peer;
    }

    /**
     * Sends {@code request} and returns its answer, waiting at most {@code timeoutMillis} for it
     * (SocketTimeoutException). A CHALLENGE means the server wants a secret this client lacks:
     * AUTH_FAILED, as is an answer about the connection (id 0).
     */
    public CmProtocol.Response call(CmProtocol.Request request, int timeoutMillis) throws IOException {
        write(request);
        CmProtocol.Response response = read(timeoutMillis);
        if (response instanceof CmProtocol.Challenge || response instanceof CmProtocol.Authenticated) {
            throw TellException.of(ErrorCode.AUTH_FAILED, "commit manager " + peer + " requires the cluster secret and "
                    + "this client has none (set " + ClusterSecret.ENV + ", or give a secret file)");
        }
        if (response instanceof CmProtocol.Failed f && f.requestId() == 0) {
            throw f.toException(peer);
        }
        if (response.requestId() != request.requestId()) {
            throw TellException.of(ErrorCode.PROTOCOL_ERROR, "commit manager " + peer + " answered request "
                    + response.requestId() + " where " + request.requestId() + " was the one sent");
        }
        return response;
    }

    /**
     * Reads answers until the one to {@code requestId} arrives or {@code deadlineNanos} passes
     * (then null): what a call that timed out still gets, so that a late STARTED can be ended.
     */
    public CmProtocol.Response readUntil(long requestId, long deadlineNanos) throws IOException {
        while (true) {
            long left = deadlineNanos - System.nanoTime();
            if (left <= 0) {
                return null;
            }
            try {
                CmProtocol.Response r = read((int) Math.max(1, Math.min(Integer.MAX_VALUE, left / 1_000_000)));
                if (r.requestId() == requestId) {
                    return r;
                }
            } catch (SocketTimeoutException e) {
                return null;
            }
        }
    }

    private void write(CmProtocol.Request request) throws IOException {
        ByteBuf frame = CmProtocol.encode(HEAP, request);
        try {
            out.write(frame.array(), frame.arrayOffset() + frame.readerIndex(), frame.readableBytes());
        } finally {
            frame.release();
        }
    }

    private CmProtocol.Response read(int timeoutMillis) throws IOException {
        socket.setSoTimeout(timeoutMillis);
        int length = in.readInt();
        if (length < CmProtocol.HEADER_BYTES || length > CmProtocol.MAX_RESPONSE_FRAME) {
            throw TellException.of(ErrorCode.PROTOCOL_ERROR, "commit manager " + peer + " sent a frame of " + length + " bytes");
        }
        byte[] frame = new byte[length];
        in.readFully(frame);
        return CmProtocol.decodeResponse(Unpooled.wrappedBuffer(frame));
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException e) {
            // closing: nothing left to do with it
        }
    }
}
