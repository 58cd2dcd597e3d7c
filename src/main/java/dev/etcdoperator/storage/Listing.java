package dev.etcdoperator.storage;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

import dev.etcdoperator.core.backup.BackupFailure;

/**
 * The pages of an S3 listing, each asked for only before the deadline and only while the store moves on. The SDK
 * asks for the next page as long as the store says there is one, with the time limit of the first request: a store
 * that answers "more" for ever, or with a marker it gave before, would otherwise hold a backup worker for good.
 */
final class Listing {
    private Listing() {
    }

    /**
     * The items of every page of {@code pages}.
     *
     * @param next the marker a page gives for the next one (null on the last page)
     */
    static <P, T> List<T> items(Iterable<P> pages, Function<P, List<T>> items, Function<P, Object> next,
            Instant deadline, String what) {
        List<T> all = new ArrayList<>();
        Set<Object> markers = new HashSet<>();
        for (P page : pages) {
            all.addAll(items.apply(page));
            Object marker = next.apply(page);
            if (marker == null) {
                break;
            }
            if (!markers.add(marker)) {
                throw new BackupFailure(BackupFailure.UPLOAD_FAILED, "the store gave the same continuation marker"
                        + " twice while " + what + ": its listing does not move on", true);
            }
            if (!Instant.now().isBefore(deadline)) {
                throw new BackupFailure(BackupFailure.TIMEOUT, "the backup ran out of time while " + what + " (the"
                        + " store's listing had " + markers.size() + " pages so far)", true);
            }
        }
        return all;
    }
}
