package io.tell.store;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import java.util.ServiceLoader;

/** Opens a record store by URL through the installed {@link RecordStoreProvider}s. */
public final class RecordStores {
    private RecordStores() {
    }

    public static RecordStore open(String url) {
        StoreUrl parsed = StoreUrl.parse(url);
        for (RecordStoreProvider provider : ServiceLoader.load(RecordStoreProvider.class)) {
            if (provider.accepts(parsed.scheme())) {
                return provider.open(parsed);
            }
        }
        throw TellException.of(ErrorCode.BAD_CONFIGURATION,
                "no store backend for scheme '" + parsed.scheme() + "' (known: mem, redis, rediss): " + parsed);
    }
}
