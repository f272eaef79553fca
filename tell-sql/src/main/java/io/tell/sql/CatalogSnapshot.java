package io.tell.sql;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The catalog as of one version: every table, sequence and view by name. Immutable; a processing node caches the
 * newest one it has seen, and a plan built against version v is valid while the catalog is at v.
 */
public final class CatalogSnapshot {
    private final long version;
    private final long storeVersion;
    private final Map<String, TableDef> tables;
    private final Map<String, Long> defIds;
    private final Map<String, SequenceDef> sequences;
    private final Map<String, ViewDef> views;
    private final java.util.SortedSet<String> schemas;

    CatalogSnapshot(long version, long storeVersion, Map<String, TableDef> tables, Map<String, Long> defIds,
                    Map<String, SequenceDef> sequences, Map<String, ViewDef> views, java.util.Set<String> schemas) {
        java.util.SortedSet<String> all = new java.util.TreeSet<>(schemas);
        all.add(Names.DEFAULT_SCHEMA);
        this.schemas = Collections.unmodifiableSortedSet(all);
        this.version = version;
        this.storeVersion = storeVersion;
        this.tables = Collections.unmodifiableMap(tables);
        this.defIds = Collections.unmodifiableMap(defIds);
        this.sequences = Collections.unmodifiableMap(sequences);
        this.views = Collections.unmodifiableMap(views);
    }

    /** This catalog with {@code def} added or replaced, as it would be after a DDL (for validating that DDL). */
    CatalogSnapshot with(TableDef def) {
        Map<String, TableDef> next = new TreeMap<>(tables);
        next.values().removeIf(t -> t.id() == def.id());
        next.put(def.name(), def);
        return new CatalogSnapshot(version, storeVersion, next, defIds, sequences, views, schemas);
    }

    /** Every schema, {@value Names#DEFAULT_SCHEMA} among them, in name order. */
    public java.util.SortedSet<String> schemas() {
        return schemas;
    }

    public boolean hasSchema(String schema) {
        return schemas.contains(schema);
    }

    /** Whether a table, view or sequence has catalog name {@code name} (they share one name space). */
    public boolean hasRelation(String name) {
        return tables.containsKey(name) || views.containsKey(name) || sequences.containsKey(name);
    }

    Map<String, ViewDef> viewMap() {
        return views;
    }

    public Optional<ViewDef> view(String name) {
        return Optional.ofNullable(views.get(name));
    }

    /** All views, by name. */
    public List<ViewDef> views() {
        return List.copyOf(new TreeMap<>(views).values());
    }

    /** The views that read relation {@code name} directly. */
    public List<ViewDef> viewsOn(String name) {
        return views().stream().filter(v -> v.dependsOn().contains(name)).toList();
    }

    /** The catalog version: 0 for an empty, never-changed catalog, one more with every DDL. */
    public long version() {
        return version;
    }

    /**
     * The store version of the directory record ({@link Catalog#DIRECTORY}) this snapshot was
     * read from (0 = absent): it changes with every catalog change.
     */
    public long storeVersion() {
        return storeVersion;
    }

    Map<String, Long> defIds() {
        return defIds;
    }

    Map<String, TableDef> tableMap() {
        return tables;
    }

    Map<String, SequenceDef> sequenceMap() {
        return sequences;
    }

    public Optional<SequenceDef> sequence(String name) {
        return Optional.ofNullable(sequences.get(name));
    }

    /** All sequences, by name (those of identity and SERIAL columns included). */
    public List<SequenceDef> sequences() {
        return List.copyOf(new TreeMap<>(sequences).values());
    }

    public Optional<TableDef> table(String name) {
        return Optional.ofNullable(tables.get(name));
    }

    /** All tables, by name. */
    public List<TableDef> tables() {
        List<TableDef> out = new ArrayList<>(tables.values());
        out.sort((a, b) -> a.name().compareTo(b.name()));
        return out;
    }

    /** The table that has index {@code indexName}, if any: index names are unique in the catalog. */
    public Optional<TableDef> tableOfIndex(String indexName) {
        return tables.values().stream().filter(t -> t.index(indexName) != null).findFirst();
    }
}
