package io.tell.store;

/**
 * A backend, found with {@link java.util.ServiceLoader}. New backends (RAMCloud, an RDMA
 * store) plug in here without changes elsewhere.
 */
public interface RecordStoreProvider {
    /** The URL scheme this backend opens, e.g. {@code mem} or {@code redis}. */
    String scheme();

    /** Whether this backend opens URLs of {@code scheme}; by default just {@link #scheme()}'s. */
    default boolean accepts(String scheme) {
        return scheme().equals(scheme);
    }

    /** Opens a store; throws {@link io.tell.error.TellException} with BAD_CONFIGURATION for a bad URL. */
    RecordStore open(StoreUrl url);
}
