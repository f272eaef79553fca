package io.tell.store;

import java.util.regex.Pattern;

/** Rules for domain names, shared by every backend so a name valid on one is valid on all. */
public final class Domains {
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.$-]{1,200}");

    private Domains() {
    }

    /** Throws {@link IllegalArgumentException} unless {@code domain} is a valid domain name. */
    public static String check(String domain) {
        if (domain == null || !NAME.matcher(domain).matches()) {
            throw new IllegalArgumentException("bad domain name (want 1-200 of [A-Za-z0-9_.$-]): " + domain);
        }
        return domain;
    }
}
