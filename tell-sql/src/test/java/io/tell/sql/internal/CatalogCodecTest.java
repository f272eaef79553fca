package io.tell.sql.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.sql.ColumnDef;
import io.tell.sql.ColumnType;
import io.tell.sql.ForeignKeyDef;
import io.tell.sql.IndexDef;
import io.tell.sql.SequenceDef;
import io.tell.sql.TableDef;
import io.tell.sql.ViewDef;
import io.tell.sql.internal.CatalogCodec.DirEntry;
import io.tell.sql.internal.CatalogCodec.Directory;
import java.nio.charset.StandardCharsets;
import java.time.LocalDateTime;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CatalogCodecTest {
    private static final TableDef TABLE = new TableDef(7, "ORDERS",
            List.of(ColumnDef.notNull("ID", ColumnType.BIGINT),
                    ColumnDef.of("AT", ColumnType.TIMESTAMP).withDefault(LocalDateTime.of(2026, 1, 1, 0, 0)),
                    ColumnDef.of("CODE", ColumnType.character(4)).withDefault("X"),
                    ColumnDef.of("CUST", ColumnType.INTEGER)),
            List.of("ID"),
            List.of(new IndexDef("ORDERS_UNIQUE_1", List.of("CODE"), true, true, "tell.t7.i1"),
                    new IndexDef("BY_CUST_AT", List.of("CUST", "AT"), false, false, "tell.t7.i2")),
            List.of(new ForeignKeyDef("ORDERS_FK_1", List.of("CUST"), "CUSTOMER", List.of("ID"))),
            "tell.t7", "tell.t7.rid", "tell.t7.pk", null, 3);

    @Test
    void tableDefinitionsRoundTrip() {
        assertEquals(TABLE, CatalogCodec.decodeTable(CatalogCodec.encodeTable(TABLE)));
        TableDef noKey = new TableDef(8, "LOG", List.of(ColumnDef.of("MSG", ColumnType.varchar(100))), List.of(),
                List.of(), List.of(), "tell.t8", "tell.t8.rid", null, "tell.t8.rows", 1);
        assertEquals(noKey, CatalogCodec.decodeTable(CatalogCodec.encodeTable(noKey)));
        TableDef sequenced = new TableDef(9, "T", List.of(
                ColumnDef.notNull("ID", ColumnType.INTEGER).withSequence("T_ID_SEQ", ColumnDef.Identity.ALWAYS),
                ColumnDef.notNull("B", ColumnType.BIGINT).withSequence("T_B_SEQ", ColumnDef.Identity.BY_DEFAULT),
                ColumnDef.of("C", ColumnType.BIGINT).withSequence("S", ColumnDef.Identity.NONE)),
                List.of(), List.of(), List.of(), "tell.t9", "tell.t9.rid", null, "tell.t9.rows", 1);
        assertEquals(sequenced, CatalogCodec.decodeTable(CatalogCodec.encodeTable(sequenced)));
        TableDef altered = new TableDef(10, "A", List.of(ColumnDef.of("X", ColumnType.INTEGER), ColumnDef.of("Z", ColumnType.BIGINT)),
                List.of(), List.of(), List.of(), "tell.t10", "tell.t10.rid", null, "tell.t10.rows", 1,
                List.of(new TableDef.Slot(ColumnType.INTEGER, null, false), new TableDef.Slot(ColumnType.DATE, null, true),
                        new TableDef.Slot(ColumnType.BIGINT, 7L, false)),
                List.of(new io.tell.sql.CheckDef("A_CHECK_1", "x > 0 AND z < 10")));
        assertEquals(altered, CatalogCodec.decodeTable(CatalogCodec.encodeTable(altered)));
    }

    @Test
    void definitionsOfFormatOneHaveNoRidTree() {
        byte[] v2 = CatalogCodec.encodeTable(TABLE);
        String hex = HexFormat.of().formatHex(v2);
        String pkTree = HexFormat.of().formatHex("tell.t7.pk".getBytes(StandardCharsets.UTF_8));
        int at = hex.indexOf(pkTree + "00") / 2 + "tell.t7.pk".length(); // the empty rid tree name
        // without the rid tree's name, the foreign key's two actions, and at the end the slot and check counts
        byte[] v1 = new byte[v2.length - 5];
        System.arraycopy(v2, 0, v1, 0, at);
        System.arraycopy(v2, at + 1, v1, at, v2.length - at - 5);
        v1[0] = 1;
        assertEquals(TABLE, CatalogCodec.decodeTable(v1));
    }

    @Test
    void directoriesRoundTrip() {
        Map<String, DirEntry> entries = new LinkedHashMap<>();
        entries.put("A", new DirEntry(1, 10));
        entries.put("B", new DirEntry(2, 300));
        Map<String, SequenceDef> sequences = new LinkedHashMap<>();
        sequences.put("A_ID_SEQ", new SequenceDef("A_ID_SEQ", 3, 1, 1, 1, Integer.MAX_VALUE, 32, "A", "ID"));
        sequences.put("DOWN", new SequenceDef("DOWN", 4, -5, -5, Long.MIN_VALUE, -1, 1, null, null));
        Directory dir = new Directory(42, entries, sequences);
        assertEquals(dir, CatalogCodec.decodeDirectory(CatalogCodec.encodeDirectory(dir)));
        Directory noSequences = new Directory(43, entries, Map.of());
        byte[] v4 = CatalogCodec.encodeDirectory(noSequences);
        byte[] v1 = Arrays.copyOf(v4, v4.length - 3); // format 1 ended before the sequence, view and schema counts
        v1[0] = 1;
        assertEquals(noSequences, CatalogCodec.decodeDirectory(v1));
        Map<String, ViewDef> views = Map.of("V", new ViewDef("V", "SELECT \"A\" FROM \"T\"",
                List.of(ColumnDef.notNull("A", ColumnType.decimal(5, 2))), List.of("T")));
        Directory withViews = new Directory(44, entries, sequences, views, new java.util.TreeSet<>());
        assertEquals(withViews, CatalogCodec.decodeDirectory(CatalogCodec.encodeDirectory(withViews)));
        byte[] v3 = Arrays.copyOf(CatalogCodec.encodeDirectory(withViews), CatalogCodec.encodeDirectory(withViews).length - 1);
        v3[0] = 3; // format 3 ended before the schemas
        assertEquals(withViews, CatalogCodec.decodeDirectory(v3));
        Directory withSchemas = new Directory(45, Map.of("APP.T", new DirEntry(5, 50)), Map.of(), Map.of(),
                new java.util.TreeSet<>(List.of("APP", "Other")));
        assertEquals(withSchemas, CatalogCodec.decodeDirectory(CatalogCodec.encodeDirectory(withSchemas)));
    }

    @Test
    void badBytesAreCorruptData() {
        byte[] good = CatalogCodec.encodeTable(TABLE);
        assertSame(ErrorCode.CORRUPT_DATA, assertThrows(TellException.class,
                () -> CatalogCodec.decodeTable(Arrays.copyOf(good, good.length - 2))).code());
        byte[] other = good.clone();
        other[0] = 9;
        assertSame(ErrorCode.CORRUPT_DATA, assertThrows(TellException.class, () -> CatalogCodec.decodeTable(other)).code());
        assertSame(ErrorCode.CORRUPT_DATA, assertThrows(TellException.class,
                () -> CatalogCodec.decodeDirectory(new byte[] {1, 5})).code());
    }
}
