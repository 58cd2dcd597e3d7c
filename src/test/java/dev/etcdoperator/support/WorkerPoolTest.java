package dev.etcdoperator.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

class WorkerPoolTest {
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-30T10:00:00Z"), ZoneOffset.UTC);

    /** Runs what it was given only when told, like a pool whose workers are all busy. */
    static final class HeldExecutor implements java.util.concurrent.Executor {
        final Deque<Runnable> waiting = new ArrayDeque<>();

        @Override
        public void execute(Runnable command) {
            waiting.add(command);
        }

        void runNext() {
            waiting.removeFirst().run();
        }
    }

    @Test
    void tenBackupsDueTogetherRunTwoAtATimeAndAllFinish() throws Exception {
        ExecutorService two = Executors.newFixedThreadPool(2);
        try {
            WorkerPool pool = new WorkerPool(two, CLOCK);
            AtomicInteger running = new AtomicInteger();
            AtomicInteger most = new AtomicInteger();
            CountDownLatch release = new CountDownLatch(1);
            AtomicInteger announced = new AtomicInteger();
            for (int i = 0; i < 10; i++) {
                int n = i;
                pool.submit("ns/backup-" + i, "uid-" + i, () -> {
                    most.accumulateAndGet(running.incrementAndGet(), Math::max);
                    try {
                        release.await(10, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    running.decrementAndGet();
                    return "backup " + n;
                }, announced::incrementAndGet);
            }
            await().atMost(Duration.ofSeconds(5)).until(() -> pool.running() == 2);
            assertThat(pool.queued()).isEqualTo(8);
            assertThat(pool.submit("ns/backup-9", "uid-9", () -> "again", () -> { }))
                    .isEqualTo(new WorkerPool.Queued<>(7, CLOCK.instant()));

            release.countDown();
            await().atMost(Duration.ofSeconds(5)).until(() -> pool.running() == 0 && pool.queued() == 0);
            assertThat(most).hasValue(2);
            for (int i = 0; i < 10; i++) {
                WorkerPool.Finished<String> done = pool.<String>take("ns/backup-" + i, "uid-" + i).orElseThrow();
                assertThat(done.result()).isEqualTo("backup " + i);
                assertThat(done.failure()).isNull();
            }
            assertThat(announced).as("started and finished, each").hasValue(20);
        } finally {
            two.shutdownNow();
        }
    }

    @Test
    void aJobIsSubmittedOnceAndItsOutcomeTakenOnce() {
        HeldExecutor held = new HeldExecutor();
        WorkerPool pool = new WorkerPool(held, CLOCK);
        AtomicInteger runs = new AtomicInteger();
        assertThat(pool.submit("ns/b", "uid", runs::incrementAndGet, () -> { })).isInstanceOf(WorkerPool.Queued.class);
        assertThat(pool.submit("ns/b", "uid", runs::incrementAndGet, () -> { })).isInstanceOf(WorkerPool.Queued.class);
        assertThat(held.waiting).hasSize(1);
        assertThat(pool.take("ns/b", "uid")).isEmpty();

        held.runNext();
        assertThat(runs).hasValue(1);
        assertThat(pool.submit("ns/b", "uid", runs::incrementAndGet, () -> { })).isInstanceOf(WorkerPool.Finished.class);
        assertThat(pool.<Integer>take("ns/b", "uid")).hasValueSatisfying(f -> assertThat(f.result()).isEqualTo(1));
        assertThat(pool.take("ns/b", "uid")).isEmpty();

        pool.submit("ns/b", "uid", runs::incrementAndGet, () -> { });
        assertThat(held.waiting).as("a new attempt after the outcome was taken").hasSize(1);
    }

    @Test
    void whatAJobThrowsIsItsOutcome() {
        HeldExecutor held = new HeldExecutor();
        WorkerPool pool = new WorkerPool(held, CLOCK);
        pool.submit("ns/b", "uid", () -> {
            throw new IllegalStateException("S3 unreachable");
        }, () -> { });
        held.runNext();
        assertThat(pool.take("ns/b", "uid")).hasValueSatisfying(f -> {
            assertThat(f.result()).isNull();
            assertThat(f.failure()).hasMessage("S3 unreachable");
        });
    }

    /** An Error (a stack overflow in a parser, an assertion) ends the job failed; it never stays "running". */
    @Test
    void aJobThatThrowsAnErrorEndsFailedAndItsKeyIsFree() {
        HeldExecutor held = new HeldExecutor();
        WorkerPool pool = new WorkerPool(held, CLOCK);
        java.util.concurrent.atomic.AtomicInteger announced = new java.util.concurrent.atomic.AtomicInteger();
        pool.submit("ns/b", "uid", () -> {
            throw new StackOverflowError("deep");
        }, announced::incrementAndGet);
        held.runNext();
        assertThat(announced).as("its start and its end").hasValue(2);
        assertThat(pool.running()).isZero();
        assertThat(pool.take("ns/b", "uid")).hasValueSatisfying(f -> assertThat(f.failure())
                .hasMessageContaining("deep").hasCauseInstanceOf(StackOverflowError.class));
        pool.submit("ns/b", "uid", () -> "again", () -> { });
        held.runNext();
        assertThat(pool.take("ns/b", "uid")).hasValueSatisfying(f -> assertThat(f.result()).isEqualTo("again"));
    }

    @Test
    void anOutcomeForAnotherTagIsDroppedAndAQueuedJobOfAnotherTagIsReplaced() {
        HeldExecutor held = new HeldExecutor();
        WorkerPool pool = new WorkerPool(held, CLOCK);
        AtomicInteger oldRuns = new AtomicInteger();
        pool.submit("ns/r", "uid@1", oldRuns::incrementAndGet, () -> { });
        pool.submit("ns/r", "uid@2", () -> 2, () -> { });
        held.runNext();
        assertThat(oldRuns).as("replaced while queued: never runs").hasValue(0);
        held.runNext();
        assertThat(pool.<Integer>take("ns/r", "uid@2")).hasValueSatisfying(f -> assertThat(f.result()).isEqualTo(2));

        pool.submit("ns/r", "uid@2", () -> 3, () -> { });
        held.runNext();
        assertThat(pool.take("ns/r", "uid@3")).as("the spec changed meanwhile").isEmpty();
        assertThat(pool.take("ns/r", "uid@2")).as("dropped").isEmpty();
    }

    @Test
    void aForgottenQueuedJobNeverRuns() {
        HeldExecutor held = new HeldExecutor();
        WorkerPool pool = new WorkerPool(held, CLOCK);
        AtomicInteger runs = new AtomicInteger();
        AtomicInteger announced = new AtomicInteger();
        pool.submit("ns/gone", "uid", runs::incrementAndGet, announced::incrementAndGet);
        pool.submit("ns/other", "uid", () -> 1, () -> { });
        assertThat(pool.submit("ns/other", "uid", () -> 1, () -> { })).isEqualTo(new WorkerPool.Queued<>(1, CLOCK.instant()));
        pool.forget("ns/gone");
        assertThat(pool.submit("ns/other", "uid", () -> 1, () -> { })).isEqualTo(new WorkerPool.Queued<>(0, CLOCK.instant()));
        held.runNext();
        assertThat(runs).hasValue(0);
        assertThat(announced).hasValue(0);
        assertThat(pool.queued()).isEqualTo(1);
    }

    @Test
    void aJobOfAKeyWhoseEarlierJobStillRunsWaitsForItToEnd() throws Exception {
        ExecutorService two = Executors.newFixedThreadPool(2);
        try {
            WorkerPool pool = new WorkerPool(two, CLOCK);
            AtomicInteger running = new AtomicInteger();
            AtomicInteger most = new AtomicInteger();
            CountDownLatch releaseOld = new CountDownLatch(1);
            pool.submit("ns/b", "uid-old", () -> {
                most.accumulateAndGet(running.incrementAndGet(), Math::max);
                try {
                    releaseOld.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                running.decrementAndGet();
                return "old";
            }, () -> { });
            await().atMost(Duration.ofSeconds(5)).until(() -> running.get() == 1);

            // the EtcdBackup deleted, and applied again: same key, new uid; a worker is free
            pool.forget("ns/b");
            AtomicInteger newRuns = new AtomicInteger();
            assertThat(pool.submit("ns/b", "uid-new", () -> {
                most.accumulateAndGet(running.incrementAndGet(), Math::max);
                newRuns.incrementAndGet();
                running.decrementAndGet();
                return "new";
            }, () -> { })).isInstanceOf(WorkerPool.Queued.class);
            await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(1)).until(() -> newRuns.get() == 0);
            assertThat(pool.running()).as("the forgotten job still holds its worker").isEqualTo(1);

            releaseOld.countDown();
            await().atMost(Duration.ofSeconds(5)).until(() -> pool.take("ns/b", "uid-new").isPresent());
            assertThat(newRuns).hasValue(1);
            assertThat(most).as("never both at once").hasValue(1);
            assertThat(pool.take("ns/b", "uid-old")).as("the forgotten job's outcome is dropped").isEmpty();
        } finally {
            two.shutdownNow();
        }
    }

    @Test
    void aJobReplacedWhileItRunsIsWaitedForToo() {
        HeldExecutor held = new HeldExecutor();
        WorkerPool pool = new WorkerPool(held, CLOCK);
        AtomicInteger order = new AtomicInteger();
        AtomicInteger secondSawFirstDone = new AtomicInteger(-1);
        AtomicInteger firstDone = new AtomicInteger();
        pool.submit("ns/r", "uid@1", () -> {
            // the spec changes while the first runs
            pool.submit("ns/r", "uid@2", () -> {
                secondSawFirstDone.set(firstDone.get());
                return order.incrementAndGet();
            }, () -> { });
            assertThat(held.waiting).as("the second is not handed to a worker yet").isEmpty();
            firstDone.set(1);
            return order.incrementAndGet();
        }, () -> { });
        held.runNext();
        assertThat(held.waiting).as("handed over when the first ended").hasSize(1);
        held.runNext();
        assertThat(secondSawFirstDone).hasValue(1);
        assertThat(pool.<Integer>take("ns/r", "uid@2")).hasValueSatisfying(f -> assertThat(f.result()).isEqualTo(2));
    }
}
