package io.tell.sql;

import io.tell.gc.SweepScope;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * What the sweeper ({@link io.tell.gc.Sweeper}) needs from the SQL catalog: the live tables
 * with their index trees, and the storage no live table uses any more. Storage names derive
 * from table ids and per-table index numbers, both drawn once and never reused, so a domain
 * that is dead stays dead.
 */
public final class CatalogSweepScope implements SweepScope {
    private final Catalog catalog;
    /** The last answer of {@link #deadDomains} and the catalog directory's version it holds for. */
    private Set<String> dead = Set.of();
    private long deadAtVersion = -1;

    public CatalogSweepScope(Catalog catalog) {
        this.catalog = catalog;
    }

    @Override
    public List<Table> tables() {
        List<Table> out = new ArrayList<>();
        for (TableDef def : catalog.tables()) {
            out.add(new Table(def.rowDomain(), def.treeNames().stream().map(TableStore::treeConfig).toList()));
        }
        return out;
    }

    /**
     * Every domain of every definition record minus those of the live tables; the scan of the
     * definitions runs again only when the catalog's directory changed (a create or drop). Read live tables
     * after the definitions: a table created between the two reads is then live, not dead.
     */
    @Override
    public synchronized Set<String> deadDomains() {
        long version = catalog.snapshot().storeVersion();
        if (version != deadAtVersion) {
            dead = computeDeadDomains();
            deadAtVersion = version;
        }
        return dead;
    }

    private Set<String> computeDeadDomains() {
        List<TableDef> all = catalog.definitions();
        Set<String> live = new HashSet<>();
        for (TableDef def : catalog.tables()) {
            live.addAll(def.storageDomains());
        }
        Set<String> dead = new HashSet<>();
        for (TableDef def : all) {
            dead.addAll(def.storageDomains());
        }
        dead.removeAll(live);
        return dead;
    }
}
