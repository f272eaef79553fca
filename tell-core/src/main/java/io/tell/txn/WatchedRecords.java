package io.tell.txn;

import java.util.ArrayList;
import java.util.List;

/**
 * The hot records ({@link HotRecords}) one transaction wrote, which it reads again along with
 * each later fetch of records. Not thread-safe: its transaction's thread uses it.
 */
final class WatchedRecords {
    /** Records watched at most: each costs a record more in every later fetch. */
    static final int MAX = 4;

    private final List<Transaction.Entry> entries = new ArrayList<>(2);

    /** Watches {@code e}, just written over a stored record, if it is hot and there is room. */
    void consider(Transaction.Entry e, HotRecords hot) {
        if (e.stored != null && entries.size() < MAX && !entries.contains(e) && hot.isHot(e.key)) {
            entries.add(e);
        }
    }

    /** The watched records still written (a savepoint may have undone some), in the order watched. */
    List<Transaction.Entry> current() {
        if (entries.isEmpty()) {
            return List.of();
        }
        List<Transaction.Entry> out = new ArrayList<>(entries.size());
        for (Transaction.Entry e : entries) {
            if (e.written) {
                out.add(e);
            }
        }
        return out;
    }
}
