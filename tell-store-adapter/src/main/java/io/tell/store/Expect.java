package io.tell.store;

/** The condition a write is made on: any state, an absent record, or an exact version. */
public sealed interface Expect {
    Expect ANY = new Any();
    Expect ABSENT = new Absent();

    static Expect version(long version) {
        return new Version(version);
    }

    /** True when a record now at {@code currentVersion} (0 = absent) satisfies this condition. */
    boolean admits(long currentVersion);

    record Any() implements Expect {
        @Override
        public boolean admits(long currentVersion) {
            return true;
        }
    }

    record Absent() implements Expect {
        @Override
        public boolean admits(long currentVersion) {
            return currentVersion == 0;
        }
    }

    record Version(long version) implements Expect {
        public Version {
            if (version <= 0) {
                throw new IllegalArgumentException("expected version must be positive: " + version);
            }
        }

        @Override
        public boolean admits(long currentVersion) {
            return currentVersion == version;
        }
    }
}
