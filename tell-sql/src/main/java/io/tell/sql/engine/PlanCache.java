package io.tell.sql.engine;

import io.tell.sql.CatalogSnapshot;
import io.tell.sql.ProcessingNode;
import io.tell.sql.SqlFrontEnd;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Plans shared by all sessions of a processing node, keyed by statement text and catalog
 * version: DDL makes a new version, so old plans are never used again and age out (LRU,
 * bounded). Also keeps the front end (Calcite schema and validator set-up) of the newest
 * catalog version. Thread-safe.
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
    private SqlFrontEnd frontEnd;
    private long hits;
    private long misses;

    public PlanCache(ProcessingNode node) {
        this.node = node;
    }

    private record Key(String sql, long catalogVersion) {
    }

    /** The plan of {@code sql} against {@code catalog}, planned on a miss. */
    Plan plan(String sql, CatalogSnapshot catalog) {
        Key key = new Key(sql, catalog.version());
        synchronized (this) {
            Plan p = plans.get(key);
            if (p != null) {
                hits++;
                return p;
            }
            misses++;
        }
        Plan p = StatementPlanner.plan(node, frontEnd(catalog), sql);
        synchronized (this) {
            plans.put(key, p);
        }
        return p;
    }

    /** Whether the lifted form {@code sql} is known not to plan or not to take its literals exactly. */
    synchronized boolean unliftable(String sql, CatalogSnapshot catalog) {
        return unliftable.containsKey(new Key(sql, catalog.version()));
    }

    synchronized void markUnliftable(String sql, CatalogSnapshot catalog) {
        unliftable.put(new Key(sql, catalog.version()), Boolean.TRUE);
    }

    private synchronized SqlFrontEnd frontEnd(CatalogSnapshot catalog) {
        if (frontEnd == null || frontEnd.catalogVersion() != catalog.version()) {
            frontEnd = new SqlFrontEnd(catalog);
        }
        return frontEnd;
    }

    public synchronized long hits() {
        return hits;
    }

    public synchronized long misses() {
        return misses;
    }
}
