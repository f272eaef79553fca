package io.tell.bench.ch;

import java.sql.Timestamp;
import java.util.List;

/**
 * The CH-benCHmark's 22 analytical queries (Cole et al., "The mixed workload CH-benCHmark",
 * DBTest 2011): TPC-H's queries rewritten for TPC-C's tables plus REGION, NATION and SUPPLIER.
 * The predicates, groupings and date windows are the paper's; the text is written so that Tell,
 * H2 and PostgreSQL all accept it:
 * <ul>
 * <li>TPC-C's order table is OORDER; upper-case names as in {@link io.tell.bench.tpcc.TpccSchema};
 * <li>the supplier of a stock row is {@code MOD(S_W_ID * S_I_ID, 10000)}, a customer's nation
 *     {@code ASCII(SUBSTRING(C_STATE FROM 1 FOR 1))} (the paper's {@code substr(c_state, 1, 1)});
 * <li>dates are TIMESTAMP literals, years {@code EXTRACT(YEAR FROM …)};
 * <li>Q15's view is a WITH clause (the paper writes it so too);
 * <li>every query ends with an ORDER BY that orders its result totally: where the paper's does
 *     not, tie-breaking columns are added and a comment says so; a query of one row (an
 *     aggregate without GROUP BY) orders by its value, which changes nothing.
 * </ul>
 */
public final class ChQueries {
    /**
     * When the TPC-C population the queries read should be stamped (O_ENTRY_D, OL_DELIVERY_D,
     * C_SINCE, H_DATE; {@link io.tell.bench.tpcc.TpccLoader#atLoadTime}): in 2011, when the
     * benchmark was published, so that its date windows (Q4, Q7 and Q8 look at 2007-01-02 to
     * 2012-01-02, Q6, Q12 and Q14 before 2020, Q20 after 2010-05-23) hold the population, as they
     * did for their authors. With today's date those queries would find nothing.
     */
    public static final Timestamp POPULATION_TIME = Timestamp.valueOf("2011-06-01 12:00:00");

    private static final List<ChQuery> ALL = List.of(
            new ChQuery(1, "pricing summary report", """
                    SELECT OL_NUMBER,
                           SUM(OL_QUANTITY) AS SUM_QTY, SUM(OL_AMOUNT) AS SUM_AMOUNT,
                           AVG(OL_QUANTITY) AS AVG_QTY, AVG(OL_AMOUNT) AS AVG_AMOUNT,
                           COUNT(*) AS COUNT_ORDER
                    FROM ORDER_LINE
                    WHERE OL_DELIVERY_D > TIMESTAMP '2007-01-02 00:00:00'
                    GROUP BY OL_NUMBER
                    ORDER BY OL_NUMBER"""),
            // Order as in the paper: SU_NAME is unique, and rows equal in (N_NAME, SU_NAME, I_ID)
            // are equal in every column.
            new ChQuery(2, "minimum cost supplier", """
                    SELECT SU_SUPPKEY, SU_NAME, N_NAME, I_ID, I_NAME, SU_ADDRESS, SU_PHONE, SU_COMMENT
                    FROM ITEM, SUPPLIER, STOCK, NATION, REGION,
                         (SELECT S_I_ID AS M_I_ID, MIN(S_QUANTITY) AS M_S_QUANTITY
                          FROM STOCK, SUPPLIER, NATION, REGION
                          WHERE MOD(S_W_ID * S_I_ID, 10000) = SU_SUPPKEY
                            AND SU_NATIONKEY = N_NATIONKEY
                            AND N_REGIONKEY = R_REGIONKEY
                            AND R_NAME LIKE 'Europ%'
                          GROUP BY S_I_ID) M
                    WHERE I_ID = S_I_ID
                      AND MOD(S_W_ID * S_I_ID, 10000) = SU_SUPPKEY
                      AND SU_NATIONKEY = N_NATIONKEY
                      AND N_REGIONKEY = R_REGIONKEY
                      AND I_DATA LIKE '%b'
                      AND R_NAME LIKE 'Europ%'
                      AND I_ID = M_I_ID
                      AND S_QUANTITY = M_S_QUANTITY
                    ORDER BY N_NAME, SU_NAME, I_ID"""),
            // Tie-breakers added: OL_W_ID, OL_D_ID, OL_O_ID (the rest of the group key).
            new ChQuery(3, "shipping priority", """
                    SELECT OL_O_ID, OL_W_ID, OL_D_ID, SUM(OL_AMOUNT) AS REVENUE, O_ENTRY_D
                    FROM CUSTOMER, NEW_ORDER, OORDER, ORDER_LINE
                    WHERE C_STATE LIKE 'A%'
                      AND C_ID = O_C_ID AND C_W_ID = O_W_ID AND C_D_ID = O_D_ID
                      AND NO_W_ID = O_W_ID AND NO_D_ID = O_D_ID AND NO_O_ID = O_ID
                      AND OL_W_ID = O_W_ID AND OL_D_ID = O_D_ID AND OL_O_ID = O_ID
                      AND O_ENTRY_D > TIMESTAMP '2007-01-02 00:00:00'
                    GROUP BY OL_O_ID, OL_W_ID, OL_D_ID, O_ENTRY_D
                    ORDER BY REVENUE DESC, O_ENTRY_D, OL_W_ID, OL_D_ID, OL_O_ID"""),
            new ChQuery(4, "order priority checking", """
                    SELECT O_OL_CNT, COUNT(*) AS ORDER_COUNT
                    FROM OORDER
                    WHERE O_ENTRY_D >= TIMESTAMP '2007-01-02 00:00:00'
                      AND O_ENTRY_D < TIMESTAMP '2012-01-02 00:00:00'
                      AND EXISTS (SELECT *
                                  FROM ORDER_LINE
                                  WHERE O_ID = OL_O_ID AND O_W_ID = OL_W_ID AND O_D_ID = OL_D_ID
                                    AND OL_DELIVERY_D >= O_ENTRY_D)
                    GROUP BY O_OL_CNT
                    ORDER BY O_OL_CNT"""),
            // Tie-breaker added: N_NAME.
            new ChQuery(5, "local supplier volume", """
                    SELECT N_NAME, SUM(OL_AMOUNT) AS REVENUE
                    FROM CUSTOMER, OORDER, ORDER_LINE, STOCK, SUPPLIER, NATION, REGION
                    WHERE C_ID = O_C_ID AND C_W_ID = O_W_ID AND C_D_ID = O_D_ID
                      AND OL_O_ID = O_ID AND OL_W_ID = O_W_ID AND OL_D_ID = O_D_ID
                      AND OL_W_ID = S_W_ID AND OL_I_ID = S_I_ID
                      AND MOD(S_W_ID * S_I_ID, 10000) = SU_SUPPKEY
                      AND ASCII(SUBSTRING(C_STATE FROM 1 FOR 1)) = SU_NATIONKEY
                      AND SU_NATIONKEY = N_NATIONKEY
                      AND N_REGIONKEY = R_REGIONKEY
                      AND R_NAME = 'Europe'
                      AND O_ENTRY_D >= TIMESTAMP '2007-01-02 00:00:00'
                    GROUP BY N_NAME
                    ORDER BY REVENUE DESC, N_NAME"""),
            new ChQuery(6, "forecasting revenue change", """
                    SELECT SUM(OL_AMOUNT) AS REVENUE
                    FROM ORDER_LINE
                    WHERE OL_DELIVERY_D >= TIMESTAMP '1999-01-01 00:00:00'
                      AND OL_DELIVERY_D < TIMESTAMP '2020-01-01 00:00:00'
                      AND OL_QUANTITY BETWEEN 1 AND 100000
                    ORDER BY REVENUE"""),
            new ChQuery(7, "volume shipping", """
                    SELECT SU_NATIONKEY AS SUPP_NATION,
                           SUBSTRING(C_STATE FROM 1 FOR 1) AS CUST_NATION,
                           EXTRACT(YEAR FROM O_ENTRY_D) AS L_YEAR,
                           SUM(OL_AMOUNT) AS REVENUE
                    FROM SUPPLIER, STOCK, ORDER_LINE, OORDER, CUSTOMER, NATION N1, NATION N2
                    WHERE OL_SUPPLY_W_ID = S_W_ID AND OL_I_ID = S_I_ID
                      AND MOD(S_W_ID * S_I_ID, 10000) = SU_SUPPKEY
                      AND OL_W_ID = O_W_ID AND OL_D_ID = O_D_ID AND OL_O_ID = O_ID
                      AND C_ID = O_C_ID AND C_W_ID = O_W_ID AND C_D_ID = O_D_ID
                      AND SU_NATIONKEY = N1.N_NATIONKEY
                      AND ASCII(SUBSTRING(C_STATE FROM 1 FOR 1)) = N2.N_NATIONKEY
                      AND ((N1.N_NAME = 'Germany' AND N2.N_NAME = 'Cambodia')
                        OR (N1.N_NAME = 'Cambodia' AND N2.N_NAME = 'Germany'))
                      AND OL_DELIVERY_D BETWEEN TIMESTAMP '2007-01-02 00:00:00' AND TIMESTAMP '2012-01-02 00:00:00'
                    GROUP BY SU_NATIONKEY, SUBSTRING(C_STATE FROM 1 FOR 1), EXTRACT(YEAR FROM O_ENTRY_D)
                    ORDER BY SUPP_NATION, CUST_NATION, L_YEAR"""),
            new ChQuery(8, "national market share", """
                    SELECT EXTRACT(YEAR FROM O_ENTRY_D) AS L_YEAR,
                           SUM(CASE WHEN N2.N_NAME = 'Germany' THEN OL_AMOUNT ELSE 0 END) / SUM(OL_AMOUNT) AS MKT_SHARE
                    FROM ITEM, SUPPLIER, STOCK, ORDER_LINE, OORDER, CUSTOMER, NATION N1, NATION N2, REGION
                    WHERE I_ID = S_I_ID
                      AND OL_I_ID = S_I_ID AND OL_SUPPLY_W_ID = S_W_ID
                      AND MOD(S_W_ID * S_I_ID, 10000) = SU_SUPPKEY
                      AND OL_W_ID = O_W_ID AND OL_D_ID = O_D_ID AND OL_O_ID = O_ID
                      AND C_ID = O_C_ID AND C_W_ID = O_W_ID AND C_D_ID = O_D_ID
                      AND N1.N_NATIONKEY = ASCII(SUBSTRING(C_STATE FROM 1 FOR 1))
                      AND N1.N_REGIONKEY = R_REGIONKEY
                      AND OL_I_ID < 1000
                      AND R_NAME = 'Europe'
                      AND SU_NATIONKEY = N2.N_NATIONKEY
                      AND O_ENTRY_D BETWEEN TIMESTAMP '2007-01-02 00:00:00' AND TIMESTAMP '2012-01-02 00:00:00'
                      AND I_DATA LIKE '%b'
                      AND I_ID = OL_I_ID
                    GROUP BY EXTRACT(YEAR FROM O_ENTRY_D)
                    ORDER BY L_YEAR"""),
            new ChQuery(9, "product type profit measure", """
                    SELECT N_NAME, EXTRACT(YEAR FROM O_ENTRY_D) AS L_YEAR, SUM(OL_AMOUNT) AS SUM_PROFIT
                    FROM ITEM, STOCK, SUPPLIER, ORDER_LINE, OORDER, NATION
                    WHERE OL_I_ID = S_I_ID AND OL_SUPPLY_W_ID = S_W_ID
                      AND MOD(S_W_ID * S_I_ID, 10000) = SU_SUPPKEY
                      AND OL_W_ID = O_W_ID AND OL_D_ID = O_D_ID AND OL_O_ID = O_ID
                      AND OL_I_ID = I_ID
                      AND SU_NATIONKEY = N_NATIONKEY
                      AND I_DATA LIKE '%BB'
                    GROUP BY N_NAME, EXTRACT(YEAR FROM O_ENTRY_D)
                    ORDER BY N_NAME, L_YEAR DESC"""),
            // Tie-breakers added: the rest of the group key (C_ID alone is not unique: it
            // repeats in every district).
            new ChQuery(10, "returned item reporting", """
                    SELECT C_ID, C_LAST, SUM(OL_AMOUNT) AS REVENUE, C_CITY, C_PHONE, N_NAME
                    FROM CUSTOMER, OORDER, ORDER_LINE, NATION
                    WHERE C_ID = O_C_ID AND C_W_ID = O_W_ID AND C_D_ID = O_D_ID
                      AND OL_W_ID = O_W_ID AND OL_D_ID = O_D_ID AND OL_O_ID = O_ID
                      AND O_ENTRY_D >= TIMESTAMP '2007-01-02 00:00:00'
                      AND O_ENTRY_D <= OL_DELIVERY_D
                      AND N_NATIONKEY = ASCII(SUBSTRING(C_STATE FROM 1 FOR 1))
                    GROUP BY C_ID, C_LAST, C_CITY, C_PHONE, N_NAME
                    ORDER BY REVENUE DESC, C_ID, C_LAST, C_CITY, C_PHONE, N_NAME"""),
            // Tie-breaker added: S_I_ID.
            new ChQuery(11, "important stock identification", """
                    SELECT S_I_ID, SUM(S_ORDER_CNT) AS ORDERCOUNT
                    FROM STOCK, SUPPLIER, NATION
                    WHERE MOD(S_W_ID * S_I_ID, 10000) = SU_SUPPKEY
                      AND SU_NATIONKEY = N_NATIONKEY
                      AND N_NAME = 'Germany'
                    GROUP BY S_I_ID
                    HAVING SUM(S_ORDER_CNT) > (SELECT SUM(S_ORDER_CNT) * 0.005
                                               FROM STOCK, SUPPLIER, NATION
                                               WHERE MOD(S_W_ID * S_I_ID, 10000) = SU_SUPPKEY
                                                 AND SU_NATIONKEY = N_NATIONKEY
                                                 AND N_NAME = 'Germany')
                    ORDER BY ORDERCOUNT DESC, S_I_ID"""),
            new ChQuery(12, "shipping modes and order priority", """
                    SELECT O_OL_CNT,
                           SUM(CASE WHEN O_CARRIER_ID = 1 OR O_CARRIER_ID = 2 THEN 1 ELSE 0 END) AS HIGH_LINE_COUNT,
                           SUM(CASE WHEN O_CARRIER_ID <> 1 AND O_CARRIER_ID <> 2 THEN 1 ELSE 0 END) AS LOW_LINE_COUNT
                    FROM OORDER, ORDER_LINE
                    WHERE OL_W_ID = O_W_ID AND OL_D_ID = O_D_ID AND OL_O_ID = O_ID
                      AND O_ENTRY_D <= OL_DELIVERY_D
                      AND OL_DELIVERY_D < TIMESTAMP '2020-01-01 00:00:00'
                    GROUP BY O_OL_CNT
                    ORDER BY O_OL_CNT"""),
            // The paper names the derived table's columns (C_ORDERS (C_ID, C_COUNT)); here the
            // inner select list does, which every database accepts.
            new ChQuery(13, "customer distribution", """
                    SELECT C_COUNT, COUNT(*) AS CUSTDIST
                    FROM (SELECT C_ID, COUNT(O_ID) AS C_COUNT
                          FROM CUSTOMER LEFT OUTER JOIN OORDER
                            ON (C_W_ID = O_W_ID AND C_D_ID = O_D_ID AND C_ID = O_C_ID AND O_CARRIER_ID > 8)
                          GROUP BY C_ID) C_ORDERS
                    GROUP BY C_COUNT
                    ORDER BY CUSTDIST DESC, C_COUNT DESC"""),
            new ChQuery(14, "promotion effect", """
                    SELECT 100.00 * SUM(CASE WHEN I_DATA LIKE 'PR%' THEN OL_AMOUNT ELSE 0 END) / (1 + SUM(OL_AMOUNT))
                           AS PROMO_REVENUE
                    FROM ORDER_LINE, ITEM
                    WHERE OL_I_ID = I_ID
                      AND OL_DELIVERY_D >= TIMESTAMP '2007-01-02 00:00:00'
                      AND OL_DELIVERY_D < TIMESTAMP '2020-01-02 00:00:00'
                    ORDER BY PROMO_REVENUE"""),
            new ChQuery(15, "top supplier", """
                    WITH REVENUE AS (
                        SELECT MOD(S_W_ID * S_I_ID, 10000) AS SUPPLIER_NO, SUM(OL_AMOUNT) AS TOTAL_REVENUE
                        FROM ORDER_LINE, STOCK
                        WHERE OL_I_ID = S_I_ID AND OL_SUPPLY_W_ID = S_W_ID
                          AND OL_DELIVERY_D >= TIMESTAMP '2007-01-02 00:00:00'
                        GROUP BY MOD(S_W_ID * S_I_ID, 10000))
                    SELECT SU_SUPPKEY, SU_NAME, SU_ADDRESS, SU_PHONE, TOTAL_REVENUE
                    FROM SUPPLIER, REVENUE
                    WHERE SU_SUPPKEY = SUPPLIER_NO
                      AND TOTAL_REVENUE = (SELECT MAX(TOTAL_REVENUE) FROM REVENUE)
                    ORDER BY SU_SUPPKEY"""),
            // Tie-breakers added: I_NAME, BRAND, I_PRICE (the group key).
            new ChQuery(16, "parts/supplier relationship", """
                    SELECT I_NAME, SUBSTRING(I_DATA FROM 1 FOR 3) AS BRAND, I_PRICE,
                           COUNT(DISTINCT MOD(S_W_ID * S_I_ID, 10000)) AS SUPPLIER_CNT
                    FROM STOCK, ITEM
                    WHERE I_ID = S_I_ID
                      AND I_DATA NOT LIKE 'zz%'
                      AND MOD(S_W_ID * S_I_ID, 10000) NOT IN (SELECT SU_SUPPKEY
                                                              FROM SUPPLIER
                                                              WHERE SU_COMMENT LIKE '%bad%')
                    GROUP BY I_NAME, SUBSTRING(I_DATA FROM 1 FOR 3), I_PRICE
                    ORDER BY SUPPLIER_CNT DESC, I_NAME, BRAND, I_PRICE"""),
            new ChQuery(17, "small-quantity-order revenue", """
                    SELECT SUM(OL_AMOUNT) / 2.0 AS AVG_YEARLY
                    FROM ORDER_LINE,
                         (SELECT I_ID, AVG(OL_QUANTITY) AS A
                          FROM ITEM, ORDER_LINE
                          WHERE I_DATA LIKE '%b' AND OL_I_ID = I_ID
                          GROUP BY I_ID) T
                    WHERE OL_I_ID = T.I_ID
                      AND OL_QUANTITY < T.A
                    ORDER BY AVG_YEARLY"""),
            // The paper's select list reads "c_last, c_id o_id, o_entry_d, ..." — a missing
            // comma (the groups are orders): both C_ID and O_ID are returned. Tie-breakers
            // added: O_W_ID, O_D_ID, O_ID.
            new ChQuery(18, "large volume customer", """
                    SELECT C_LAST, C_ID, O_ID, O_ENTRY_D, O_OL_CNT, SUM(OL_AMOUNT) AS AMOUNT_SUM
                    FROM CUSTOMER, OORDER, ORDER_LINE
                    WHERE C_ID = O_C_ID AND C_W_ID = O_W_ID AND C_D_ID = O_D_ID
                      AND OL_W_ID = O_W_ID AND OL_D_ID = O_D_ID AND OL_O_ID = O_ID
                    GROUP BY O_ID, O_W_ID, O_D_ID, C_ID, C_LAST, O_ENTRY_D, O_OL_CNT
                    HAVING SUM(OL_AMOUNT) > 200
                    ORDER BY AMOUNT_SUM DESC, O_ENTRY_D, O_W_ID, O_D_ID, O_ID"""),
            new ChQuery(19, "discounted revenue", """
                    SELECT SUM(OL_AMOUNT) AS REVENUE
                    FROM ORDER_LINE, ITEM
                    WHERE (OL_I_ID = I_ID AND I_DATA LIKE '%a' AND OL_QUANTITY >= 1 AND OL_QUANTITY <= 10
                           AND I_PRICE BETWEEN 1 AND 400000 AND OL_W_ID IN (1, 2, 3))
                       OR (OL_I_ID = I_ID AND I_DATA LIKE '%b' AND OL_QUANTITY >= 1 AND OL_QUANTITY <= 10
                           AND I_PRICE BETWEEN 1 AND 400000 AND OL_W_ID IN (1, 2, 4))
                       OR (OL_I_ID = I_ID AND I_DATA LIKE '%c' AND OL_QUANTITY >= 1 AND OL_QUANTITY <= 10
                           AND I_PRICE BETWEEN 1 AND 400000 AND OL_W_ID IN (1, 5, 3))
                    ORDER BY REVENUE"""),
            // Order as in the paper: SU_NAME is unique.
            new ChQuery(20, "potential part promotion", """
                    SELECT SU_NAME, SU_ADDRESS
                    FROM SUPPLIER, NATION
                    WHERE SU_SUPPKEY IN (SELECT MOD(S_I_ID * S_W_ID, 10000)
                                         FROM STOCK, ORDER_LINE
                                         WHERE S_I_ID IN (SELECT I_ID FROM ITEM WHERE I_DATA LIKE 'co%')
                                           AND OL_I_ID = S_I_ID
                                           AND OL_DELIVERY_D > TIMESTAMP '2010-05-23 12:00:00'
                                         GROUP BY S_I_ID, S_W_ID, S_QUANTITY
                                         HAVING 2 * S_QUANTITY > SUM(OL_QUANTITY))
                      AND SU_NATIONKEY = N_NATIONKEY
                      AND N_NAME = 'Germany'
                    ORDER BY SU_NAME"""),
            new ChQuery(21, "suppliers who kept orders waiting", """
                    SELECT SU_NAME, COUNT(*) AS NUMWAIT
                    FROM SUPPLIER, ORDER_LINE L1, OORDER, STOCK, NATION
                    WHERE OL_O_ID = O_ID AND OL_W_ID = O_W_ID AND OL_D_ID = O_D_ID
                      AND OL_W_ID = S_W_ID AND OL_I_ID = S_I_ID
                      AND MOD(S_W_ID * S_I_ID, 10000) = SU_SUPPKEY
                      AND L1.OL_DELIVERY_D > O_ENTRY_D
                      AND NOT EXISTS (SELECT *
                                      FROM ORDER_LINE L2
                                      WHERE L2.OL_O_ID = L1.OL_O_ID
                                        AND L2.OL_W_ID = L1.OL_W_ID
                                        AND L2.OL_D_ID = L1.OL_D_ID
                                        AND L2.OL_DELIVERY_D > L1.OL_DELIVERY_D)
                      AND SU_NATIONKEY = N_NATIONKEY
                      AND N_NAME = 'Germany'
                    GROUP BY SU_NAME
                    ORDER BY NUMWAIT DESC, SU_NAME"""),
            new ChQuery(22, "global sales opportunity", """
                    SELECT SUBSTRING(C_STATE FROM 1 FOR 1) AS COUNTRY, COUNT(*) AS NUMCUST, SUM(C_BALANCE) AS TOTACCTBAL
                    FROM CUSTOMER
                    WHERE SUBSTRING(C_PHONE FROM 1 FOR 1) IN ('1', '2', '3', '4', '5', '6', '7')
                      AND C_BALANCE > (SELECT AVG(C_BALANCE)
                                       FROM CUSTOMER
                                       WHERE C_BALANCE > 0.00
                                         AND SUBSTRING(C_PHONE FROM 1 FOR 1) IN ('1', '2', '3', '4', '5', '6', '7'))
                      AND NOT EXISTS (SELECT *
                                      FROM OORDER
                                      WHERE O_C_ID = C_ID AND O_W_ID = C_W_ID AND O_D_ID = C_D_ID)
                    GROUP BY SUBSTRING(C_STATE FROM 1 FOR 1)
                    ORDER BY COUNTRY"""));

    private ChQueries() {
    }

    /** The 22 queries, Q1 first. */
    public static List<ChQuery> all() {
        return ALL;
    }

    /** Query {@code number} (1 to 22). */
    public static ChQuery get(int number) {
        if (number < 1 || number > ALL.size()) {
            throw new IllegalArgumentException("CH-benCHmark queries are numbered 1 to 22: " + number);
        }
        return ALL.get(number - 1);
    }
}
