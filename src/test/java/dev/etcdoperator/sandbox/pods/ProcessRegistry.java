package dev.etcdoperator.sandbox.pods;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/** Every process group the runtime started and has not yet seen gone: the last resort of close(). */
final class ProcessRegistry {
    private final Set<Long> groups = ConcurrentHashMap.newKeySet();

    void add(long pgid) {
        groups.add(pgid);
    }

    void remove(long pgid) {
        groups.remove(pgid);
    }

    /** SIGKILLs every group still known and forgets those that are gone. */
    void killAll() {
        for (Long pgid : Set.copyOf(groups)) {
            if (ProcessGroups.alive(pgid)) {
                ProcessGroups.signal(pgid, "KILL");
            } else {
                groups.remove(pgid);
            }
        }
    }

    boolean anyAlive() {
        groups.removeIf(pgid -> !ProcessGroups.alive(pgid));
        return !groups.isEmpty();
    }
}
