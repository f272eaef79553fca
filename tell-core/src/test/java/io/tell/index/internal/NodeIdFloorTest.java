package io.tell.index.internal;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tell.store.RecordStore;
import io.tell.store.RecordStores;
import org.junit.jupiter.api.Test;

/** Node ids are never handed out twice, also when the id counter goes back (a store fail-over). */
class NodeIdFloorTest {
    @Test
    void anIdCounterThatWentBackReissuesNoId() {
        RecordStore store = RecordStores.open("mem:");
        NodeStore first = new NodeStore(store, "t", false, 4, 16);
        long highest = 0;
        for (int i = 0; i < 10; i++) {
            highest = Math.max(highest, first.newId());
        }
        String meta = "t.meta";
        long counter = store.increment(meta, NodeStore.IDS_KEY, 0);
        store.increment(meta, NodeStore.IDS_KEY, -counter); // every increment lost
        // The clock floor covers ids handed out before the clock passed them: a fail-over
        // takes longer than the moment this test needs to get there.
        while (RecordStore.clockFloor() <= highest) {
            Thread.onSpinWait();
        }
        NodeStore second = new NodeStore(store, "t", false, 4, 16);
        for (int i = 0; i < 10; i++) {
            long id = second.newId();
            assertTrue(id > highest, "node id " + id + " handed out again (had " + highest + ")");
        }
    }
}
