package io.tell.store.mem;

import io.tell.store.RecordStore;
import io.tell.store.RecordStoreProvider;
import io.tell.store.StoreUrl;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Opens {@code mem:} (a private store) and {@code mem:NAME} (one store per name, shared by
 * every open in this JVM, kept until the JVM exits or {@link #drop}).
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

    /**
     * Forgets the named store {@code name}: its data goes once nothing uses the store any more,
     * and the next open of the name starts empty. For tools that run several databases in one
     * JVM one after another (so that the next one does not run beside the last one's data).
     */
    public static void drop(String name) {
        NAMED.remove(name);
    }
}
