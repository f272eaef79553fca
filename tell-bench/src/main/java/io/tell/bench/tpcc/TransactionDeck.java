package io.tell.bench.tpcc;

/**
 * A terminal's deck of 100 cards, 45 New-Order, 43 Payment and 4 each of the others, dealt in
 * a fresh random order every round (§5.2.4.2), so the mix holds over every 100 transactions.
 */
final class TransactionDeck {
    private final TransactionType[] cards = new TransactionType[100];
    private final TpccRandom random;
    private int next = cards.length;

    TransactionDeck(TpccRandom random) {
        this.random = random;
        int i = 0;
        for (TransactionType t : TransactionType.values()) {
            for (int c = 0; c < t.cards(); c++) {
                cards[i++] = t;
            }
        }
        if (i != cards.length) {
            throw new IllegalStateException("the deck must hold 100 cards: " + i);
        }
    }

    TransactionType next() {
        if (next == cards.length) {
            for (int i = cards.length - 1; i > 0; i--) {
                int j = random.uniform(0, i);
                TransactionType t = cards[i];
                cards[i] = cards[j];
                cards[j] = t;
            }
            next = 0;
        }
        return cards[next++];
    }
}
