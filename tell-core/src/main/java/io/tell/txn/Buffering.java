package io.tell.txn;

import java.util.Locale;

/**
 * How a processing node buffers the records its transactions read (paper §5.4; see
 * {@code docs/transactions.md}, "Buffering").
 */
public enum Buffering {
    /**
     * Each transaction keeps what it read for its own re-reads; nothing is shared (the default
     * embedded, and over a store that cannot take {@link #SYNCED}).
     */
    TRANSACTION("tx"),
    /**
     * A record buffer shared by the node's transactions: an entry read after snapshot {@code C}
     * was handed out serves any transaction whose snapshot is a subset of {@code C}.
     */
    SHARED("shared"),
    /**
     * {@link #SHARED}, and when the snapshot test fails the entry is checked against its cache
     * unit's version set in the store, which every commit of every node bumps after writing to
     * the unit: an unchanged unit means the entry is still good, at the price of one small read.
     */
    SYNCED("synced");

    private final String option;

    Buffering(String option) {
        this.option = option;
    }

    /** The name a URL uses ({@code buffer=tx|shared|synced}). */
    public String option() {
        return option;
    }

    public static Buffering ofOption(String value) {
        for (Buffering b : values()) {
            if (b.option.equals(value.toLowerCase(Locale.ROOT))) {
                return b;
            }
        }
        throw new IllegalArgumentException("unknown buffering " + value + " (tx, shared or synced)");
    }
}
