package io.tell.cm;

import io.netty.channel.Channel;
import io.netty.handler.ssl.NotSslRecordException;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslProvider;
import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.CertificateException;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;

/**
 * TLS for the commit-manager connection: the server's certificate and key, or the CA a client
 * trusts. The {@link SslHandler} it makes goes first in the pipeline, so every frame, the
 * cluster-secret handshake included, travels inside TLS. A client checks that the server's
 * certificate names the host it dialled (endpoint identification "HTTPS": a DNS name or an IP
 * address in the subject alternative names). PEM files, the key in PKCS#8
 * ({@code -----BEGIN PRIVATE KEY-----}, what {@code openssl req -newkey} writes); the JDK's TLS.
 */
public final class CmTls {
    private final SslContext context;

    private CmTls(SslContext context) {
        this.context = context;
    }

    /** The server side: {@code certChain} (the server's certificate first) and its unencrypted PKCS#8 {@code key}. */
    public static CmTls server(Path certChain, Path key) {
        readable(certChain, "TLS certificate");
        readable(key, "TLS key");
        try {
            return new CmTls(SslContextBuilder.forServer(certChain.toFile(), key.toFile()).sslProvider(SslProvider.JDK).build());
        } catch (Exception e) { // SSLException, or IllegalArgumentException for a key that is not PKCS#8
            throw TellException.of(ErrorCode.BAD_CONFIGURATION, "cannot use TLS certificate " + certChain + " with key " + key
                    + " (PEM, the key unencrypted PKCS#8): " + e.getMessage(), e);
        }
    }

    /** The client side: trusts the certificates the CA in {@code caPem} signed (and no other). */
    public static CmTls trusting(Path caPem) {
        readable(caPem, "TLS CA");
        try {
            return new CmTls(SslContextBuilder.forClient().trustManager(caPem.toFile()).sslProvider(SslProvider.JDK).build());
        } catch (Exception e) {
            throw TellException.of(ErrorCode.BAD_CONFIGURATION, "cannot use TLS CA " + caPem + " (PEM): " + e.getMessage(), e);
        }
    }

    private static void readable(Path file, String what) {
        if (!Files.isReadable(file)) {
            throw TellException.of(ErrorCode.BAD_CONFIGURATION, what + " file " + file + " is not readable");
        }
    }

    boolean isServer() {
        return context.isServer();
    }

    SslHandler serverHandler(Channel ch) {
        return context.newHandler(ch.alloc());
    }

    /** A handler that checks the server's certificate names {@code host}. */
    SslHandler clientHandler(Channel ch, String host, int port) {
        SslHandler handler = context.newHandler(ch.alloc(), host, port);
        SSLEngine engine = handler.engine();
        SSLParameters parameters = engine.getSSLParameters();
        parameters.setEndpointIdentificationAlgorithm("HTTPS");
        engine.setSSLParameters(parameters);
        return handler;
    }

    /**
     * What a failed client handshake means: a server that does not speak TLS, or whose
     * certificate this client does not trust, will not change by retrying (AUTH_FAILED); anything
     * else (e.g. the connection dropped) is CM_UNAVAILABLE.
     */
    static TellException handshakeFailure(String peer, Throwable cause) {
        for (Throwable t = cause; t != null; t = t.getCause()) {
            if (t instanceof NotSslRecordException) {
                return TellException.of(ErrorCode.AUTH_FAILED, "commit manager " + peer + " does not speak TLS and this client"
                        + " requires it (a TLS CA is configured); start the server with --tls-cert and --tls-key", cause);
            }
            if (t instanceof CertificateException) {
                return TellException.of(ErrorCode.AUTH_FAILED, "the TLS certificate of commit manager " + peer + " is not trusted ("
                        + t.getMessage() + "): it must be signed by the configured TLS CA and name " + peer.substring(0, peer.lastIndexOf(':')), cause);
            }
        }
        return TellException.of(ErrorCode.CM_UNAVAILABLE, "TLS handshake with commit manager " + peer + " failed: " + cause, cause);
    }
}
