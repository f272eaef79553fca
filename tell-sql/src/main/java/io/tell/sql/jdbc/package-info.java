/**
 * Tell's JDBC driver: {@link io.tell.sql.jdbc.TellDriver} for {@code jdbc:tell:} URLs, over the
 * session API of {@code io.tell.sql} ({@link io.tell.sql.SqlSession}, {@link io.tell.sql.PreparedSql},
 * {@link io.tell.sql.SqlResult}). Statements are forward-only and read-only; errors carry the
 * SQLStates of {@link io.tell.sql.SqlStates}, as the {@link java.sql.SQLException} subclass
 * JDBC names for each state's class.
 */
package io.tell.sql.jdbc;
