package io.tell.store.mem;

import io.tell.store.RecordStore;
import io.tell.store.RecordStoreProvider;
import io.tell.store.StoreUrl;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Opens {@code mem:} (a private store) and {@code mem:NAME} (one store per name, shared by
 * every open in this JVM, kept until the JVM exits).
 */
public final class MemStoreProvider implements RecordStoreProvider {
    private static final ConcurrentHashMap<String, MemRecordStore> NAMED = new ConcurrentHashMap<>();

    @Override
    public String scheme() {
        return "mem";
    }

    @Override
    public RecordStore open(StoreUrl url) {
        String name = url.body();
        if (name.isEmpty()) {
            return new MemRecordStore("");
        }
        return NAMED.computeIfAbsent(name, MemRecordStore::new);
    }
}
