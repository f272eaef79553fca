package io.tell.txn;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.store.Expect;
import io.tell.store.RecordKey;
import io.tell.store.RecordStore;
import io.tell.store.Versioned;
import io.tell.store.WriteOp;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.UnaryOperator;

/**
 * A set of names kept in one store record and changed by conditional writes, so that
 * concurrent joins and leaves never lose one another: the members of a kind (processing-node
 * leases, commit managers) are found by reading it, not by scanning a domain (a scan costs a
 * pass over the whole keyspace on Redis).
 *
 * <p>Value: count (4 bytes), then per name its length (2) and UTF-8 bytes.
 */
public final class Directory {
    private static final int ATTEMPTS = 100;
    private final RecordStore store;
    private final RecordKey key;

    public Directory(RecordStore store, String domain, String name) {
        this.store = store;
        this.key = new RecordKey(domain, ("dir." + name).getBytes(StandardCharsets.UTF_8));
    }

    public Set<String> read() {
        Versioned v = TellException.join(store.getAsync(key));
        return v == null ? new TreeSet<>() : decode(v.value());
    }

    public void add(String name) {
        change(names -> {
            names.add(name);
            return names;
        });
    }

    public void remove(String name) {
        change(names -> {
            names.remove(name);
            return names;
        });
    }

    private void change(UnaryOperator<Set<String>> edit) {
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            Versioned v = TellException.join(store.getAsync(key));
            Set<String> names = edit.apply(v == null ? new TreeSet<>() : decode(v.value()));
            Expect expect = v == null ? Expect.ABSENT : Expect.version(v.version());
            if (TellException.join(store.writeAsync(new WriteOp(key, encode(names), expect))).written()) {
                return;
            }
        }
        throw TellException.of(ErrorCode.STORE_TIMEOUT, "directory " + key + " stayed contended");
    }

    private static byte[] encode(Set<String> names) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeInt(names.size());
            for (String n : names) {
                byte[] b = n.getBytes(StandardCharsets.UTF_8);
                out.writeShort(b.length);
                out.write(b);
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return bytes.toByteArray();
    }

    private static Set<String> decode(byte[] value) {
        try (DataInputStream in = new DataInputStream(new java.io.ByteArrayInputStream(value))) {
            int n = in.readInt();
            Set<String> names = new TreeSet<>();
            for (int i = 0; i < n; i++) {
                byte[] b = new byte[in.readUnsignedShort()];
                in.readFully(b);
                names.add(new String(b, StandardCharsets.UTF_8));
            }
            return names;
        } catch (IOException e) {
            throw TellException.of(ErrorCode.CORRUPT_DATA, "malformed directory record", e);
        }
    }
}
