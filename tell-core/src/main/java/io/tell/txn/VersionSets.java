package io.tell.txn;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.store.Expect;
import io.tell.store.RecordKey;
import io.tell.store.RecordStore;
import io.tell.store.Versioned;
import io.tell.store.WriteOp;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The version sets of cache units ({@link Buffering#SYNCED}): one record per unit, in domain
 * {@value #DOMAIN}, whose store version moves on whenever a commit has written to the unit. A
 * unit is {@code unitSize} consecutive rids of one table (other keys: a hash bucket of their
 * domain). A commit bumps the units it wrote after its record writes and before it reports, so
 * a snapshot that sees a tid also sees that tid's bumps.
 *
 * <p>A buffered record can be trusted on an unchanged unit only if every node bumps, so whether a
 * store keeps version sets is decided once, by the first node that opens it with a buffering
 * setting ({@code tell.sys/vsets}), and binds every node after: nodes of a store that keeps them
 * all bump, whatever their own buffering, and {@code buffer=synced} on a store that does not is
 * refused.
 */
final class VersionSets {
    static final String DOMAIN = "tell.vs";
    static final RecordKey SETTING = new RecordKey("tell.sys", "vsets".getBytes(StandardCharsets.UTF_8));
    private static final int HASH_BUCKETS = 1024;

    private final int unitSize;

    private VersionSets(int unitSize) {
        this.unitSize = unitSize;
    }

    /**
     * The store's setting, fixed by the first node that asks: version sets of units of
     * {@code unitSize} records when {@code wanted}, none otherwise. Null when the store keeps none;
     * {@link ErrorCode#BAD_CONFIGURATION} when {@code wanted} and it keeps none.
     */
    static VersionSets open(RecordStore store, boolean wanted, int unitSize) {
        VersionSets sets = decide(store, wanted, unitSize);
        if (sets == null && wanted) {
            throw TellException.of(ErrorCode.BAD_CONFIGURATION, "buffer=synced needs version sets, and this store keeps none: "
                    + "its first node chose otherwise, and nodes that do not bump version sets may be running; "
                    + "use buffer=tx or buffer=shared here, or start every node of a new store with buffer=synced");
        }
        return sets;
    }

    /**
     * As {@link #open}, except that a store that keeps none gives null whatever is
     * {@code wanted}: version sets where the store keeps them or this node decides for it.
     */
    static VersionSets decide(RecordStore store, boolean wanted, int unitSize) {
        if (unitSize < 1) {
            throw new IllegalArgumentException("cache unit size must be positive: " + unitSize);
        }
        byte[] mine = ByteBuffer.allocate(4).putInt(wanted ? unitSize : 0).array();
        if (store.write(new WriteOp(SETTING, mine, Expect.ABSENT)).written()) {
            return wanted ? new VersionSets(unitSize) : null;
        }
        Versioned stored = TellException.join(store.getAsync(SETTING));
        int size = stored == null || stored.value().length != 4 ? -1 : ByteBuffer.wrap(stored.value()).getInt();
        if (size < 0) {
            throw TellException.of(ErrorCode.CORRUPT_DATA, "malformed version-set setting " + SETTING);
        }
        return size == 0 ? null : new VersionSets(size);
    }

    int unitSize() {
        return unitSize;
    }

    /** The version-set record of the unit {@code key} belongs to. */
    RecordKey unitOf(RecordKey key) {
        return unitKey(key.domain(), unitNumber(key));
    }

    /** Within its domain, the number of the unit {@code key} belongs to. */
    private long unitNumber(RecordKey key) {
        return key.key().length == 8
                ? Math.floorDiv(TableIndex.ridOf(key.key()), unitSize)
                : -1 - Math.floorMod(java.util.Arrays.hashCode(key.key()), HASH_BUCKETS);
    }

    private static RecordKey unitKey(String domain, long unit) {
        byte[] name = domain.getBytes(StandardCharsets.UTF_8);
        return new RecordKey(DOMAIN, ByteBuffer.allocate(name.length + 9).put(name).put((byte) 0).putLong(unit).array());
    }

    /**
     * The distinct units of {@code keys}, in first-seen order. A run of keys of one unit (the
     * rows of a batch insert, with consecutive rids) makes its unit's key once.
     */
    List<RecordKey> unitsOf(Collection<RecordKey> keys) {
        Set<RecordKey> units = new LinkedHashSet<>();
        String lastDomain = null;
        long lastUnit = 0;
        for (RecordKey k : keys) {
            long unit = unitNumber(k);
            if (!k.domain().equals(lastDomain) || unit != lastUnit) {
                units.add(unitKey(k.domain(), unit));
                lastDomain = k.domain();
                lastUnit = unit;
            }
        }
        return new ArrayList<>(units);
    }

    /** The writes that bump the units of {@code keys} (unconditional: any write moves a version on). */
    List<WriteOp> bumps(Collection<RecordKey> keys, long tid) {
        byte[] value = ByteBuffer.allocate(8).putLong(tid).array();
        List<WriteOp> ops = new ArrayList<>();
        for (RecordKey unit : unitsOf(keys)) {
            ops.add(new WriteOp(unit, value, Expect.ANY));
        }
        return ops;
    }
}
