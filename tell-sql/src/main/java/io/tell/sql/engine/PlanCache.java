package io.tell.sql.engine;

import io.tell.sql.CatalogSnapshot;
import io.tell.sql.ProcessingNode;
import io.tell.sql.SqlFrontEnd;
import io.tell.sql.SchemaPath;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Plans shared by all sessions of a processing node, keyed by statement text, catalog version,
 * the session's schema path and the epoch of the node's table sizes (none for a plan that reads
 * no table, {@link Plan#ANY_SIZES}): DDL makes a new version, so old plans are never used again and age
 * out (LRU, bounded). Also keeps the front ends (Calcite schema and validator set-up) of the newest
 * catalog version, one per schema path. Thread-safe.
 */
public final class PlanCache {
    private static final int MAX_PLANS = 2000;

    private final ProcessingNode node;
    private final Map<Key, Plan> plans = new LinkedHashMap<>(256, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Key, Plan> eldest) {
            return size() > MAX_PLANS;
        }
    };
    private final Map<Key, Boolean> unliftable = new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Key, Boolean> eldest) {
            return size() > MAX_PLANS;
        }
    };
    private final Map<SchemaPath, SqlFrontEnd> frontEnds = new HashMap<>();
    private long frontEndVersion = -1;
    private long hits;
    private long misses;

    public PlanCache(ProcessingNode node) {
        this.node = node;
    }

    /** Also the epoch of the table sizes the plan was made for ({@link io.tell.sql.TableSizes}): they move, it is made again. */
    private record Key(String sql, long catalogVersion, SchemaPath path, long sizes) {
    }

    /** The plan of {@code sql} against {@code catalog}, names found along {@code path}, planned on a miss. */
    Plan plan(String sql, CatalogSnapshot catalog, SchemaPath path) {
        Key anySizes = new Key(sql, catalog.version(), path, Plan.ANY_SIZES);
        synchronized (this) {
            Plan p = plans.get(anySizes);
            if (p == null) {
                p = plans.get(new Key(sql, catalog.version(), path, node.tableSizes().epoch()));
            }
            if (p != null) {
                hits++;
                return p;
            }
            misses++;
        }
        Plan p = StatementPlanner.plan(node, frontEnd(catalog, path), sql);
        synchronized (this) {
            // Under the sizes it was made with: a sample taken while planning may have moved them.
            plans.put(new Key(sql, catalog.version(), path, p.sizesEpoch()), p);
        }
        return p;
    }

    /** Whether the lifted form {@code sql} is known not to plan or not to take its literals exactly. */
    synchronized boolean unliftable(String sql, CatalogSnapshot catalog, SchemaPath path) {
        return unliftable.containsKey(new Key(sql, catalog.version(), path, 0));
    }

    synchronized void markUnliftable(String sql, CatalogSnapshot catalog, SchemaPath path) {
        unliftable.put(new Key(sql, catalog.version(), path, 0), Boolean.TRUE);
    }

    /** The front end of {@code catalog} for sessions on {@code path} (kept for the newest version seen). */
    synchronized SqlFrontEnd frontEnd(CatalogSnapshot catalog, SchemaPath path) {
        if (catalog.version() != frontEndVersion) {
            if (catalog.version() < frontEndVersion) {
                return new SqlFrontEnd(catalog, path, node.tableSizes()); // an older transaction's catalog: not worth keeping
            }
            frontEnds.clear();
            frontEndVersion = catalog.version();
        }
        return frontEnds.computeIfAbsent(path, p -> new SqlFrontEnd(catalog, p, node.tableSizes()));
    }

    public synchronized long hits() {
        return hits;
    }

    public synchronized long misses() {
        return misses;
    }
}
