package io.tell.store;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/** Rules for domain names, shared by every backend so a name valid on one is valid on all. */
public final class Domains {
    private static final int MAX_LENGTH = 200;
    private static final int MAX_REMEMBERED = 4096;
    /** Names that passed, so the names a process uses over and over cost a hash lookup. */
    private static final Set<String> VALID = ConcurrentHashMap.newKeySet();

    private Domains() {
    }

    /**
     * Throws {@link IllegalArgumentException} unless {@code domain} is a valid domain name: 1 to
     * 200 of {@code [A-Za-z0-9_.$-]}. Checked on every record key: names seen before are
     * remembered, new ones checked with a plain loop, not a regex.
     */
    public static String check(String domain) {
        if (domain != null && VALID.contains(domain)) {
            return domain;
        }
        if (domain == null || domain.isEmpty() || domain.length() > MAX_LENGTH) {
            throw bad(domain);
        }
        for (int i = 0; i < domain.length(); i++) {
            char c = domain.charAt(i);
            boolean ok = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
                    || c == '_' || c == '.' || c == '$' || c == '-';
            if (!ok) {
                throw bad(domain);
            }
        }
        if (VALID.size() >= MAX_REMEMBERED) {
            VALID.clear();
        }
        VALID.add(domain);
        return domain;
    }

    private static IllegalArgumentException bad(String domain) {
        return new IllegalArgumentException("bad domain name (want 1-200 of [A-Za-z0-9_.$-]): " + domain);
    }
}
