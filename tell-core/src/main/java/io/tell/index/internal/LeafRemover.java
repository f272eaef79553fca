package io.tell.index.internal;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;

/**
 * Takes emptied leaves out of the tree, so that a range whose entries were deleted from its
 * front (a queue: TPC-C's NEW_ORDER per district) does not leave a growing run of empty leaves
 * for every scan to walk. Three conditional writes, each leaving a tree every client can use
 * (Lanin and Shasha's outlinks, with the left neighbour found by a search instead of stored):
 * <ol>
 *   <li>freeze the empty leaf {@code E} as <em>removed</em>, conditional on the version that
 *       found it empty: it keeps its fences and right link, holds nothing and covers nothing,
 *       and nobody writes into it again;</li>
 *   <li>the left neighbour {@code L} (the leaf whose high fence is {@code E}'s low fence)
 *       absorbs it: {@code L} takes {@code E}'s high fence and right link;</li>
 *   <li>{@code E}'s separator leaves its parent, which then routes {@code E}'s range to the
 *       child before it.</li>
 * </ol>
 * Low fences still never change: {@code E}'s range goes to a node whose low fence is below it, so
 * a stale route still ends left of its target, or at {@code E} itself. A search that reaches a
 * removed leaf whose range holds its target finishes steps 2 and 3 ({@link #finish}, idempotent)
 * and continues at the left neighbour ({@link Navigator}); a scan passes through it along its
 * right link (it has no entries). Only a leaf with a left neighbour under the same parent is
 * removed (not a parent's first child, whose separator lives in the grandparent), which keeps
 * step 3 a change of one node. A client that stops between two steps leaves a removed leaf that
 * the next search reaching it finishes. Once {@code L} holds {@code E}'s range, a split of
 * {@code L} may start a new leaf exactly at {@code E}'s low fence while a parent still lists
 * {@code E} there (not yet unlinked, or a first child): posting the new leaf takes {@code E}'s slot
 * ({@link BTreeNode#withChild}), as live leaves never share a low fence.
 *
 * <p>Removed leaves stay in the store (a mapping record each, a few dozen bytes) and are never
 * collected as unreachable: a client's cached parent may still route to one.
 */
final class LeafRemover {
    private static final int MAX_ATTEMPTS = 1_000;

    private final Navigator nav;
    private final NodeStore store;
    private final SplitHook hook;

    LeafRemover(Navigator nav, SplitHook hook) {
        this.nav = nav;
        this.store = nav.store();
        this.hook = hook;
    }

    /**
     * Removes {@code leaf}, which a delete of this client just emptied, unless it is its parent's
     * first child or changed since; best effort (a lost race leaves it in place, as before).
     */
    void emptied(NodeRef leaf) {
        BTreeNode e = leaf.node();
        if (e.size() != 0 || e.low() == null) {
            return;
        }
        NodeRef parent = freshParent(e);
        if (parent == null || parent.node().childIndexOf(e.id()) < 1) {
            return;
        }
        NodeRef removed = store.replace(leaf, e.removed());
        if (removed == null) {
            return; // changed meanwhile: an insert got in, or someone else removed it
        }
        nav.stats().leavesRemoved.increment();
        hook.after(SplitStep.LEAF_REMOVED, 0);
        absorbLeft(removed.node());
        unlink(removed.node(), parent);
    }

    /** Steps 2 and 3 for the removed leaf {@code e}; done already when someone else did them. */
    void finish(BTreeNode e) {
        absorbLeft(e);
        unlink(e, null);
    }

    private void absorbLeft(BTreeNode e) {
        for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
            NodeRef left = nav.descend(e.low(), true, 0).node(); // the leaf just below e's low fence
            BTreeNode l = left.node();
            if (l.rightSibling() != e.id()) {
                return; // it took over e's range already (its high fence is past e's low one)
            }
            NodeRef done = store.replace(left, l.absorbing(e));
            if (done != null) {
                hook.after(SplitStep.LEFT_ABSORBED, 0);
                return;
            }
            nav.stats().conflicts.increment();
        }
        throw contended(e);
    }

    /**
     * Drops {@code e} from its parent: first tried on {@code guess} (the parent as read before
     * step 1, null for none), a write conditional on its version, so a stale guess costs a re-read.
     */
    private void unlink(BTreeNode e, NodeRef guess) {
        NodeRef parent = guess;
        for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
            if (parent == null) {
                parent = freshParent(e);
                if (parent == null) {
                    return;
                }
            }
            BTreeNode p = parent.node();
            if (!p.covers(e.low(), false)) {
                parent = null; // the parent split since the cache knew it: search again
                continue;
            }
            int at = p.childIndexOf(e.id());
            if (at < 1) {
                return; // gone already, or a first child, which stays (searches routed to it go left)
            }
            NodeRef done = store.replace(parent, p.withoutChild(at));
            if (done != null) {
                nav.cache().put(done);
                hook.after(SplitStep.CHILD_UNLINKED, 1);
                return;
            }
            nav.stats().conflicts.increment();
            parent = null;
        }
        throw contended(e);
    }

    /** The node on level 1 that covers {@code e}'s low fence, read from the store; null for a one-leaf tree. */
    private NodeRef freshParent(BTreeNode e) {
        Path p = nav.descend(e.low(), false, 1);
        if (p == null) {
            return null;
        }
        return p.fresh() ? p.node() : nav.refresh(p.node());
    }

    private static TellException contended(BTreeNode e) {
        return TellException.of(ErrorCode.TX_CONFLICT, "removing emptied b-tree leaf " + e.id() + " kept conflicting for "
                + MAX_ATTEMPTS + " attempts");
    }
}
