package io.tell.server;

import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The server's TLS: its certificate chain and key (PEM, the key unencrypted PKCS#8,
 * {@code -----BEGIN PRIVATE KEY-----}), loaded once. A server with TLS accepts only clients
 * that ask for it (SSLRequest, {@code sslmode=require} or stricter). The JDK's TLS, through Netty.
 */
public final class PgTls {
    private final SslContext context;

    private PgTls(SslContext context) {
        this.context = context;
    }

    /** BAD_CONFIGURATION when the files cannot be read or used. */
    public static PgTls server(Path certChain, Path key) {
        for (Path file : new Path[] {certChain, key}) {
            if (!Files.isReadable(file)) {
                throw TellException.of(ErrorCode.BAD_CONFIGURATION, "TLS file " + file + " is not readable");
            }
        }
        try {
            return new PgTls(SslContextBuilder.forServer(certChain.toFile(), key.toFile()).sslProvider(SslProvider.JDK).build());
        } catch (Exception e) { // SSLException, or IllegalArgumentException for a key that is not PKCS#8
            throw TellException.of(ErrorCode.BAD_CONFIGURATION, "cannot use TLS certificate " + certChain + " with key " + key
                    + " (PEM, the key unencrypted PKCS#8): " + e.getMessage(), e);
        }
    }

    SslContext context() {
        return context;
    }
}
