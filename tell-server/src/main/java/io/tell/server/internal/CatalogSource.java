package io.tell.server.internal;

import io.tell.sql.Catalog;

/** Where a connection's catalog queries are answered from: the node's catalog, and the database name the client gave. */
record CatalogSource(Catalog catalog, String database) {
}
