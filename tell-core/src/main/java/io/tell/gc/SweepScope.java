package io.tell.gc;

import io.tell.index.BTreeConfig;
import java.util.List;
import java.util.Set;

/**
 * What only the layer that owns the schema (the SQL catalog) knows, handed to the generic
 * {@link Sweeper}: which domains hold rows and which index trees list them, and which domains
 * nothing refers to any more. Called once per pass, from the sweeper's thread.
 */
public interface SweepScope {

    /** One table: its rows (MVCC records keyed by 8-byte rids, never reused) and every index tree over them. */
    record Table(String rowDomain, List<BTreeConfig> indexes) {
        public Table {
            indexes = List.copyOf(indexes);
        }
    }

    /** The live tables, with every index a transaction may still add entries to. */
    List<Table> tables();

    /**
     * Domains that belonged to tables or indexes no longer in the schema. The sweeper deletes
     * every record in them once no transaction that began before it first saw them dead is still
     * running and the grace period has passed. A domain must never come back to life: storage
     * names are never reused.
     */
    Set<String> deadDomains();
}
