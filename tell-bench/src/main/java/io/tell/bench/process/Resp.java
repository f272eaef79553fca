package io.tell.bench.process;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** One Redis command over a fresh connection, for the few admin calls the process helpers make. */
final class Resp {
    private Resp() {
    }

    /** The reply: a String (simple or bulk), a Long, a List, or null; an error reply throws. */
    static Object call(int port, String... args) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(Loopback.HOST, port), 1_000);
            s.setSoTimeout(2_000);
            ByteArrayOutputStream req = new ByteArrayOutputStream();
            req.writeBytes(("*" + args.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
            for (String a : args) {
                byte[] b = a.getBytes(StandardCharsets.UTF_8);
                req.writeBytes(("$" + b.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
                req.writeBytes(b);
                req.writeBytes("\r\n".getBytes(StandardCharsets.US_ASCII));
            }
            OutputStream out = s.getOutputStream();
            out.write(req.toByteArray());
            out.flush();
            return read(new BufferedInputStream(s.getInputStream()));
        } catch (IOException e) {
            throw new UncheckedIOException("redis on port " + port + ": " + String.join(" ", args), e);
        }
    }

    private static Object read(InputStream in) throws IOException {
        int type = in.read();
        String line = line(in);
        switch (type) {
            case '+':
                return line;
            case '-':
                throw new IllegalStateException("redis error: " + line);
            case ':':
                return Long.parseLong(line);
            case '$': {
                int n = Integer.parseInt(line);
                if (n < 0) {
                    return null;
                }
                byte[] b = in.readNBytes(n + 2);
                return new String(b, 0, n, StandardCharsets.UTF_8);
            }
            case '*': {
                int n = Integer.parseInt(line);
                if (n < 0) {
                    return null;
                }
                List<Object> items = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    items.add(read(in));
                }
                return items;
            }
            default:
                throw new IOException("unexpected reply type " + type);
        }
    }

    private static String line(InputStream in) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        for (int c = in.read(); c != '\r'; c = in.read()) {
            if (c < 0) {
                throw new IOException("connection closed");
            }
            b.write(c);
        }
        in.read(); // '\n'
        return b.toString(StandardCharsets.UTF_8);
    }
}
