package dev.etcdoperator.support;

import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.function.Supplier;

import org.jboss.logging.Logger;

/**
 * Long work that must not run on the reconcile threads (a backup, a restore's preflight) runs here, on a fixed number
 * of workers, at most one job per key. A reconcile submits a job and returns at once; the job announces when it
 * starts and when it ends, and the next reconcile of its resource takes the outcome. Jobs beyond the workers wait in
 * submission order and hold nothing but the work to do: ten backups due at once use the memory of as many as there
 * are workers.
 * <p>
 * A job carries a tag (the resource's uid, and for work that depends on the spec its generation): an outcome is
 * handed only to a caller with the same tag, so a result computed for an older spec or an earlier resource of the
 * same name is dropped, never applied.
 * <p>
 * Two jobs of one key never run at once: a job replaced or forgotten while it runs (its resource deleted and made
 * again under the same name, say) cannot be stopped, so the next job of its key starts only once it has ended.
 */
public final class WorkerPool {
    private static final Logger LOG = Logger.getLogger(WorkerPool.class);

    /** Where a job is. */
    public sealed interface State<R> {
    }

    /** Waiting for a worker, behind {@code ahead} other jobs. */
    public record Queued<R>(int ahead, Instant since) implements State<R> {
    }

    public record Running<R>(Instant since) implements State<R> {
    }

    /** Done: its result, or what it threw. */
    public record Finished<R>(R result, RuntimeException failure, Instant started, Instant done) implements State<R> {
    }

    private final class Job {
        final String key;
        final String tag;
        final Supplier<?> work;
        final Runnable onChange;
        final Instant submitted;
        Instant started;
        Finished<?> finished;
        /** Not handed to the executor yet: an earlier job of its key still runs. */
        boolean held;

        Job(String key, String tag, Supplier<?> work, Runnable onChange, Instant submitted) {
            this.key = key;
            this.tag = tag;
            this.work = work;
            this.onChange = onChange;
            this.submitted = submitted;
        }

        void run() {
            synchronized (WorkerPool.this) {
                if (jobs.get(key) != this) {
                    return;
                }
                started = clock.instant();
            }
            announce();
            Object result = null;
            RuntimeException failure = null;
            VirtualMachineError fatal = null;
            try {
                result = work.get();
            } catch (RuntimeException e) {
                failure = e;
            } catch (Error e) {
                // the job ends failed whatever it threw: a job left "running" would hold its resource for good
                failure = new IllegalStateException("the job failed: " + e, e);
                fatal = e instanceof VirtualMachineError vm && !(e instanceof StackOverflowError) ? vm : null;
            }
            Job next = null;
            synchronized (WorkerPool.this) {
                finished = new Finished<>(result, failure, started, clock.instant());
                if (retiring.get(key) == this) {
                    retiring.remove(key);
                    Job waiting = jobs.get(key);
                    if (waiting != null && waiting.held) {
                        waiting.held = false;
                        next = waiting;
                    }
                }
            }
            announce();
            if (next != null) {
                workers.execute(next::run);
            }
            if (fatal != null) {
                throw fatal;
            }
        }

        boolean running() {
            return started != null && finished == null;
        }

        private void announce() {
            try {
                onChange.run();
            } catch (RuntimeException e) {
                LOG.warnf(e, "announcing the progress of %s failed", key);
            }
        }
    }

    private final Executor workers;
    private final Clock clock;
    private final Map<String, Job> jobs = new LinkedHashMap<>();
    /** Jobs that still run although they were replaced or forgotten, by key. */
    private final Map<String, Job> retiring = new java.util.HashMap<>();

    /** @param workers runs each job on one of a fixed number of threads, queueing the others in order */
    public WorkerPool(Executor workers, Clock clock) {
        this.workers = workers;
        this.clock = clock;
    }

    /**
     * Submits {@code work} under {@code key} unless a job of that key and tag is there already, and tells where the
     * job is. A job of that key with another tag is replaced: if it is still queued it never runs, if it runs it ends
     * unheeded, and the new job waits for it to end.
     *
     * @param onChange called on the worker when the job starts and when it ends
     */
    public <R> State<R> submit(String key, String tag, Supplier<R> work, Runnable onChange) {
        Job job;
        synchronized (this) {
            Job existing = jobs.get(key);
            if (existing != null && Objects.equals(existing.tag, tag)) {
                return stateOf(existing);
            }
            retire(key, existing);
            job = new Job(key, tag, work, onChange, clock.instant());
            job.held = retiring.containsKey(key);
            jobs.remove(key);
            jobs.put(key, job);
        }
        if (!job.held) {
            workers.execute(job::run);
        }
        synchronized (this) {
            return stateOf(job);
        }
    }

    /** A job of {@code key} leaving the map while it runs keeps the key busy until it ends. */
    private void retire(String key, Job job) {
        if (job != null && job.running()) {
            retiring.put(key, job);
        }
    }

    /**
     * The outcome of the job of {@code key} and {@code tag} if it finished; it is then forgotten, so that the next
     * submit starts anew. A finished job of another tag is dropped.
     */
    @SuppressWarnings("unchecked")
    public synchronized <R> Optional<Finished<R>> take(String key, String tag) {
        Job job = jobs.get(key);
        if (job == null || job.finished == null) {
            return Optional.empty();
        }
        jobs.remove(key);
        return Objects.equals(job.tag, tag) ? Optional.of((Finished<R>) job.finished) : Optional.empty();
    }

    /** Whether a job of {@code key} and {@code tag} is there, queued, running or finished. */
    public synchronized boolean has(String key, String tag) {
        Job job = jobs.get(key);
        return job != null && Objects.equals(job.tag, tag);
    }

    /**
     * Forgets the job of {@code key}: one still queued never runs; a running one ends unheeded, and a job submitted
     * under its key meanwhile waits for it to end.
     */
    public synchronized void forget(String key) {
        retire(key, jobs.remove(key));
    }

    /** Jobs waiting for a worker. */
    public synchronized int queued() {
        return (int) jobs.values().stream().filter(j -> j.started == null).count();
    }

    /** Jobs running now. */
    public synchronized int running() {
        return (int) jobs.values().stream().filter(Job::running).count() + retiring.size();
    }

    @SuppressWarnings("unchecked")
    private <R> State<R> stateOf(Job job) {
        if (job.finished != null) {
            return (State<R>) job.finished;
        }
        if (job.started != null) {
            return new Running<>(job.started);
        }
        int ahead = 0;
        for (Job other : jobs.values()) {
            if (other == job) {
                break;
            }
            if (other.started == null) {
                ahead++;
            }
        }
        return new Queued<>(ahead, job.submitted);
    }
}
