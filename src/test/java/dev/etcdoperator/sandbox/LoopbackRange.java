package dev.etcdoperator.sandbox;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A range 127.N.0.0/16 of loopback addresses one sandbox holds while it runs: members listen on ports 2379/2380 of
 * their address, so two sandboxes running at once (forked test JVMs, two checkouts) must never share a range. The
 * range is held by a lock on a file every sandbox of the machine looks at; the system drops the lock of a process that
 * died.
 */
final class LoopbackRange implements AutoCloseable {
    static final int FIRST = 10;
    static final int COUNT = 240;

    private final int n;
    private final FileChannel channel;
    private final FileLock lock;

    private LoopbackRange(int n, FileChannel channel, FileLock lock) {
        this.n = n;
        this.channel = channel;
        this.lock = lock;
    }

    /** Takes a free range, starting the search at a random one. */
    static LoopbackRange claim() {
        Path dir = Path.of(System.getProperty("java.io.tmpdir"), "etcd-operator-sandbox-ranges");
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        int start = ThreadLocalRandom.current().nextInt(COUNT);
        for (int i = 0; i < COUNT; i++) {
            int n = FIRST + (start + i) % COUNT;
            FileChannel channel = null;
            try {
                channel = FileChannel.open(dir.resolve(n + ".lock"), StandardOpenOption.CREATE,
                        StandardOpenOption.WRITE);
                FileLock lock = channel.tryLock();
                if (lock != null) {
                    return new LoopbackRange(n, channel, lock);
                }
                channel.close();
            } catch (OverlappingFileLockException e) {
                close(channel);
            } catch (IOException e) {
                close(channel);
                throw new UncheckedIOException(e);
            }
        }
        throw new IllegalStateException("every loopback range 127." + FIRST + ".0.0 to 127." + (FIRST + COUNT - 1)
                + ".0.0 is held by a running sandbox");
    }

    /** The first address handed to pods. */
    String firstPodIp() {
        return "127." + n + ".0.2";
    }

    @Override
    public void close() {
        try {
            lock.release();
        } catch (IOException e) {
            // the channel's close drops it too
        }
        close(channel);
    }

    private static void close(FileChannel channel) {
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException e) {
                // nothing held
            }
        }
    }
}
