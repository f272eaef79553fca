package io.tell.bench.tpcc;

/**
 * The five TPC-C transactions, with their share of the deck and the keying time and mean think
 * time of §5.2.5.7 (used only with spec waits).
 */
public enum TransactionType {
    NEW_ORDER("New-Order", 45, 18, 12),
    PAYMENT("Payment", 43, 3, 12),
    ORDER_STATUS("Order-Status", 4, 2, 10),
    DELIVERY("Delivery", 4, 2, 5),
    STOCK_LEVEL("Stock-Level", 4, 2, 5);

    private final String label;
    private final int cards;
    private final int keyingSeconds;
    private final int meanThinkSeconds;

    TransactionType(String label, int cards, int keyingSeconds, int meanThinkSeconds) {
        this.label = label;
        this.cards = cards;
        this.keyingSeconds = keyingSeconds;
        this.meanThinkSeconds = meanThinkSeconds;
    }

    public String label() {
        return label;
    }

    /** Cards of this type in the 100-card deck. */
    public int cards() {
        return cards;
    }

    public int keyingSeconds() {
        return keyingSeconds;
    }

    public int meanThinkSeconds() {
        return meanThinkSeconds;
    }
}
